import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadTokenReply } from '../../src/api/contract/resources';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { EN, grant, tusCall } from './upload-helpers';

/**
 * A client's mistake in any upload call — malformed queries and bodies, a broken form, a tus
 * request out of protocol — is refused with a 4xx or the envelope's refusal, never a 5xx, on
 * both engines.
 */
describe.each(engines)('upload calls refuse client mistakes without a 5xx on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let granted: UploadTokenReply;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await t.login('partner');
    granted = (await grant(t, token, { type: 'video', name: 'a.mp4', size: 1000 })).body.data;
  });
  afterAll(async () => {
    await t?.close();
  });

  const wrong: string[] = [];
  beforeEach(() => {
    wrong.length = 0;
  });
  const expectRefused = (what: string, status: number, body: unknown) => {
    const code = (body as { code?: number } | undefined)?.code;
    if (status >= 500 || (status === 200 && code !== 0)) {
      wrong.push(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
    }
  };

  it('queries and bodies of the JSON calls', async () => {
    const queries: [string, Record<string, string>][] = [
      ['/upload/generate_sts_token', {}],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: 'abc' }],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: '-1' }],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: '0' }],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: '1e400' }],
      [
        '/upload/generate_sts_token',
        { type: 'video', name: 'a.mp4', size: '99999999999999999999' },
      ],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: '1.5' }],
      ['/upload/generate_sts_token', { type: 'gif', name: 'a.gif', size: '10' }],
      ['/upload/generate_sts_token', { type: 'video', name: '   ', size: '10' }],
      ['/upload/generate_sts_token', { type: 'video', name: `${'a'.repeat(200)}.mp4`, size: '10' }],
      ['/upload/generate_sts_token', { type: 'video', name: 'a.mp4', size: '10', extra: '1' }],
      ['/upload/generate_sts_token', { type: 'video', name: '.mp4', size: '10' }],
      ['/upload/generate_sts_token', { type: 'video', name: '..', size: '10' }],
      ['/upload/part_urls', {}],
      ['/upload/part_urls', { upload_key: 'short', parts: '1' }],
      ['/upload/part_urls', { upload_key: 'x'.repeat(32), parts: '1' }],
      ['/upload/part_urls', { upload_key: granted.upload_key, parts: '1' }],
      ['/upload/part_urls', { upload_key: 'x'.repeat(32), parts: '0' }],
      ['/upload/part_urls', { upload_key: 'x'.repeat(32), parts: '99999' }],
      ['/upload/part_urls', { upload_key: 'x'.repeat(32), parts: '1,,2' }],
      ['/upload/part_urls', { upload_key: 'x'.repeat(32), parts: 'a' }],
      ['/upload/quota', { extra: '1' }],
    ];
    for (const [url, query] of queries) {
      const reply = await t.call('GET', api(url), { token, query, headers: EN });
      expectRefused(`GET ${url} ${JSON.stringify(query)}`, reply.status, reply.body);
    }
    const bodies: unknown[] = [
      {},
      { upload_key: granted.upload_key, parts: [] },
      { upload_key: granted.upload_key, parts: [{ part_number: 1, etag: '"e"' }] },
      { upload_key: 'x'.repeat(32), parts: [{ part_number: 1, etag: '"e"' }] },
      { upload_key: 'x'.repeat(32), parts: [{ part_number: 0, etag: '"e"' }] },
      { upload_key: 'x'.repeat(32), parts: [{ part_number: 1, etag: '' }] },
      { upload_key: 'x'.repeat(32), parts: 'all' },
      { upload_key: 7, parts: [{ part_number: 1.5, etag: 'e' }] },
      [1, 2, 3],
    ];
    for (const body of bodies) {
      const reply = await t.call('POST', api('/upload/complete'), { token, body, headers: EN });
      expectRefused(`POST /upload/complete ${JSON.stringify(body)}`, reply.status, reply.body);
    }
    const raw = await t.call('POST', api('/upload/complete'), {
      token,
      payload: '{"upload_key":',
      headers: EN,
    });
    expectRefused('POST /upload/complete (broken JSON)', raw.status, raw.body);
    expect(wrong).toEqual([]);
  });

  it('broken forms', async () => {
    const boundary = 'b0undary';
    const forms: [string, string | Buffer][] = [
      ['text/plain', 'hello'],
      ['application/json', '{"type":"video"}'],
      [`multipart/form-data; boundary=${boundary}`, 'not a form at all'],
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}--\r\n`],
      ['multipart/form-data', `--${boundary}\r\n`],
      [
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nnope\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\nx\r\n--${boundary}--\r\n`,
      ],
      [
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nvideo\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\nx`,
      ],
      [
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nvideo\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n\r\n--${boundary}--\r\n`,
      ],
      [
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n${'v'.repeat(2 * 1024 * 1024)}\r\n--${boundary}--\r\n`,
      ],
    ];
    for (const [contentType, payload] of forms) {
      const response = await t.app.inject({
        method: 'POST',
        url: api('/upload/oss_upload'),
        headers: { token, 'content-type': contentType, ...EN },
        payload,
      });
      let body: unknown;
      try {
        body = response.json();
      } catch {
        body = undefined;
      }
      expectRefused(
        `oss_upload ${contentType} ${JSON.stringify(String(payload).slice(-40))}`,
        response.statusCode,
        body,
      );
    }
    expect(wrong).toEqual([]);
  });

  it('tus requests out of protocol', async () => {
    const grantHeaders = granted.tus!.headers;
    const endpoint = granted.tus!.endpoint;
    const location = `${endpoint}/${granted.upload_key}`;
    const octets = { 'content-type': 'application/offset+octet-stream' };
    const cases: [
      string,
      'POST' | 'HEAD' | 'PATCH' | 'DELETE',
      string,
      Record<string, string>,
      Buffer?,
    ][] = [
      ['HEAD before creation', 'HEAD', location, grantHeaders],
      [
        'PATCH before creation',
        'PATCH',
        location,
        { ...grantHeaders, ...octets, 'upload-offset': '0' },
        Buffer.from('x'),
      ],
      ['POST without a length', 'POST', endpoint, grantHeaders],
      [
        'POST with a length that is no number',
        'POST',
        endpoint,
        { ...grantHeaders, 'upload-length': 'abc' },
      ],
      [
        'POST with a negative length',
        'POST',
        endpoint,
        { ...grantHeaders, 'upload-length': '-1000' },
      ],
      [
        'POST with a deferred length',
        'POST',
        endpoint,
        { ...grantHeaders, 'upload-defer-length': '1' },
      ],
      [
        'POST with broken metadata',
        'POST',
        endpoint,
        { ...grantHeaders, 'upload-length': '1000', 'upload-metadata': '%%%, ,' },
      ],
      [
        'POST with a huge grant header',
        'POST',
        endpoint,
        { 'upload-grant': 'x'.repeat(20_000), 'upload-length': '1000' },
      ],
      ['POST to a nested path', 'POST', `${location}/more`, grantHeaders],
      [
        'PATCH to another path',
        'PATCH',
        `${endpoint}/../files/x`,
        { ...grantHeaders, ...octets, 'upload-offset': '0' },
      ],
    ];
    for (const [what, method, url, headers, payload] of cases) {
      const reply = await tusCall(t, method, url, headers, payload);
      expectRefused(what, reply.status, reply.body);
    }
    // Created, then PATCH mistakes.
    const created = await tusCall(t, 'POST', endpoint, {
      ...grantHeaders,
      'upload-length': '1000',
    });
    expect(created.status).toBe(201);
    const patchCases: [string, Record<string, string>, Buffer?][] = [
      ['no offset', { ...octets }, Buffer.from('x')],
      ['an offset that is no number', { ...octets, 'upload-offset': 'x' }, Buffer.from('x')],
      ['the wrong offset', { ...octets, 'upload-offset': '5' }, Buffer.from('x')],
      [
        'another content type',
        { 'content-type': 'text/plain', 'upload-offset': '0' },
        Buffer.from('x'),
      ],
      ['no content type', { 'upload-offset': '0' }, Buffer.from('x')],
      [
        'a length again',
        { ...octets, 'upload-offset': '0', 'upload-length': '2000' },
        Buffer.from('x'),
      ],
      ['more bytes than the length', { ...octets, 'upload-offset': '0' }, Buffer.alloc(1001)],
      [
        'no tus version',
        { ...octets, 'upload-offset': '0', 'tus-resumable': '' },
        Buffer.from('x'),
      ],
    ];
    for (const [what, headers, payload] of patchCases) {
      const reply = await tusCall(t, 'PATCH', location, { ...grantHeaders, ...headers }, payload);
      expectRefused(`PATCH with ${what}`, reply.status, reply.body);
    }
    // Given up: later requests find no upload.
    expect((await tusCall(t, 'DELETE', location, grantHeaders)).status).toBe(204);
    const after = await tusCall(
      t,
      'PATCH',
      location,
      { ...grantHeaders, ...octets, 'upload-offset': '0' },
      Buffer.from('x'),
    );
    expect(after.status).toBe(404);
    expect(wrong).toEqual([]);
  });
});
