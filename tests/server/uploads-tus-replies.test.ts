import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTokenReply } from '../../src/api/contract/resources';
import { createTestApp, engines, type TestApp } from './helpers';
import { grant, tusCall } from './upload-helpers';

type TusReply = Awaited<ReturnType<typeof tusCall>>;

const OCTETS = { 'content-type': 'application/offset+octet-stream' };
/** Another site's page calling the endpoint from a browser. */
const FOREIGN = { origin: 'https://elsewhere.example' };

/** What every reply of the endpoint carries: tus's version, the app's headers, no CORS. */
function expectAppHeaders(what: string, reply: TusReply) {
  expect(reply.headers['tus-resumable'], what).toBe('1.0.0');
  expect(reply.headers['x-content-type-options'], what).toBe('nosniff');
  expect(reply.headers['content-security-policy'], what).toContain("default-src 'self'");
  expect(reply.headers['cache-control'], what).toBe('no-store');
  const cors = Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'));
  expect(cors, what).toEqual([]);
}

/** A refusal: its HTTP status kept, the envelope in the caller's language. */
function expectRefusal(what: string, reply: TusReply, status: number, msg: string) {
  expect(reply.status, what).toBe(status);
  expect(reply.headers['content-type'], what).toMatch(/^application\/json/);
  expect(reply.body, what).toEqual({ code: 0, msg, data: null });
  expectAppHeaders(what, reply);
}

/**
 * The tus endpoint's replies go through the app like every other (tus-reply.ts): refusals —
 * tus's own (400, 403, 409, 412, 413, an unsupported extension) and ours (401, 404, 409, the
 * quota's 403) — are the envelope in the caller's locale with their status and tus's headers;
 * successes (201, 200, 204) carry the tus headers a client reads and the app's security headers;
 * no reply has a CORS header (the console uploads from its own origin).
 */
describe.each(engines)('tus replies on %s', (engine) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await t.login('merchant');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function granted(size: number): Promise<UploadTokenReply> {
    const reply = await grant(t, token, { type: 'image', name: 'a.png', size });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  it('answers every refusal with the envelope, its status and the app’s headers', async () => {
    const g = await granted(10);
    const headers = { ...g.tus!.headers, ...FOREIGN };
    const endpoint = g.tus!.endpoint;
    const location = `${endpoint}/${g.upload_key}`;
    const tooEarly = await tusCall(t, 'HEAD', location, headers);
    expect(tooEarly.status).toBe(404);
    expectAppHeaders('HEAD before creation', tooEarly);
    expectRefusal(
      'no tus version',
      await tusCall(t, 'POST', endpoint, {
        ...headers,
        'upload-length': '10',
        'tus-resumable': '',
      }),
      412,
      'Send the header Tus-Resumable: 1.0.0 (this upload address speaks tus 1.0.0)',
    );
    expectRefusal(
      'an extension the store lacks',
      await tusCall(t, 'POST', endpoint, {
        ...headers,
        'upload-length': '10',
        'upload-concat': 'partial',
      }),
      400,
      'The upload request does not follow the tus 1.0.0 protocol',
    );
    expectRefusal(
      'no grant',
      await tusCall(t, 'POST', endpoint, { ...FOREIGN, 'upload-length': '10' }),
      401,
      'The upload permission is invalid or has expired: start the upload again',
    );
    expectRefusal(
      'another length',
      await tusCall(t, 'POST', endpoint, { ...headers, 'upload-length': '11' }),
      400,
      'The uploaded file is 11 bytes, not the 10 bytes declared',
    );

    const created = await tusCall(t, 'POST', endpoint, { ...headers, 'upload-length': '10' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(location);
    expect(created.raw).toBe('');
    expectAppHeaders('201 Created', created);
    expectRefusal(
      'a second creation',
      await tusCall(t, 'POST', endpoint, { ...headers, 'upload-length': '10' }),
      409,
      'The upload has not finished yet',
    );

    const patch = (extra: Record<string, string>, bytes: Buffer) =>
      tusCall(t, 'PATCH', location, { ...headers, ...extra }, bytes);
    const x = Buffer.from('x');
    const malformed = 'The upload request does not follow the tus 1.0.0 protocol';
    expectRefusal(
      'an offset that is no number',
      await patch({ ...OCTETS, 'upload-offset': 'x' }, x),
      400,
      malformed,
    );
    expectRefusal(
      'another content type',
      await patch({ 'content-type': 'text/plain', 'upload-offset': '0' }, x),
      400,
      malformed,
    );
    expectRefusal('no content type', await patch({ 'upload-offset': '0' }, x), 403, malformed);
    expectRefusal('no offset', await patch(OCTETS, x), 403, malformed);
    expectRefusal(
      'the wrong offset',
      await patch({ ...OCTETS, 'upload-offset': '4' }, x),
      409,
      'The upload stands at another offset: ask for its offset (HEAD) and continue from there',
    );
    expectRefusal(
      'more bytes than declared',
      await patch({ ...OCTETS, 'upload-offset': '0' }, Buffer.alloc(11)),
      413,
      'More bytes were sent than the upload declared',
    );
    const zh = await tusCall(
      t,
      'PATCH',
      location,
      { ...headers, ...OCTETS, 'upload-offset': '9', lang: 'zh-CN' },
      x,
    );
    expectRefusal(
      'the wrong offset in zh-CN',
      zh,
      409,
      '上传进度不一致：请先查询当前偏移量（HEAD），再从该处继续',
    );

    // Nothing refused moved the upload: it resumes from 0 and finishes.
    const head = await tusCall(t, 'HEAD', location, headers);
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    expect(head.headers['upload-length']).toBe('10');
    expectAppHeaders('HEAD', head);
    const first = await patch({ ...OCTETS, 'upload-offset': '0' }, Buffer.alloc(4));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe('4');
    expectAppHeaders('204 of a PATCH', first);
    const last = await patch({ ...OCTETS, 'upload-offset': '4' }, Buffer.alloc(6));
    expect(last.status).toBe(204);
    expect(last.headers['upload-offset']).toBe('10');
    expectAppHeaders('204 of the last PATCH', last);
    const done = await tusCall(t, 'HEAD', location, headers);
    expect([done.status, done.headers['upload-offset']]).toEqual([200, '10']);
    expectAppHeaders('HEAD of a finished upload', done);
    expectRefusal(
      'a PATCH to a finished upload',
      await patch({ ...OCTETS, 'upload-offset': '10' }, x),
      404,
      'Unknown upload',
    );
  });

  it('a refusal at the last byte (the quota) is the envelope too, and keeps nothing', async () => {
    const merchant = await t.user('merchant');
    const g = await granted(8);
    const headers = g.tus!.headers;
    const created = await tusCall(t, 'POST', g.tus!.endpoint, { ...headers, 'upload-length': '8' });
    expect(created.status).toBe(201);
    await t.db
      .updateTable('users')
      .set({ storage_quota_bytes: 1 })
      .where('id', '=', merchant.id)
      .execute();
    const last = await tusCall(
      t,
      'PATCH',
      String(created.headers.location),
      { ...headers, ...OCTETS, 'upload-offset': '0', lang: 'zh-CN' },
      Buffer.alloc(8),
    );
    expect(last.status).toBe(403);
    expect(last.body?.code).toBe(0);
    expect(last.body?.msg).toMatch(/^存储空间不足/);
    expectAppHeaders('the quota at the last byte', last);
    const row = await t.db
      .selectFrom('uploads')
      .select('state')
      .where('upload_key', '=', g.upload_key)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('refused');
  });
});
