import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTokenReply } from '../../src/api/contract/resources';
import { AppError } from '../../server/platform/http/errors';
import { checkUpload } from '../../server/modules/uploads/check-upload';
import { expireUploads } from '../../server/modules/uploads/sweep';
import { createS3Storage } from '../../server/platform/storage/s3';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { EN, grant } from './upload-helpers';

/**
 * Uploads with S3-compatible storage (s3rver behind the SigV4-checking front): the grant is a
 * presigned multipart upload, the browser PUTs its parts straight to the bucket, then
 * `POST /upload/complete`; the check reads the object back.
 */
describe.each(engines)('uploads on S3 (%s)', (engine) => {
  let t: TestApp;
  let s3: S3TestServer;
  let token: string;
  let ownerId: number;
  // s3rver checks expiry against the real time: the app's clock starts now.
  let now = () => Date.now();

  beforeAll(async () => {
    s3 = await startS3TestServer(() => now());
    t = await createTestApp(engine, { storage: createS3Storage(s3.config, () => now()) });
    t.clock.advance(Date.now() - t.clock());
    now = t.clock;
    token = await t.login('merchant');
    ownerId = (await t.user('merchant')).id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const row = (key: string) =>
    t.db.selectFrom('uploads').selectAll().where('upload_key', '=', key).executeTakeFirstOrThrow();

  /** PUTs `bytes` in the grant's parts; answers the parts' numbers and ETags. */
  async function putParts(granted: UploadTokenReply, bytes: Buffer, urls?: Map<number, string>) {
    const { part_size, part_count, parts } = granted.multipart!;
    const sent: { part_number: number; etag: string }[] = [];
    for (let n = 1; n <= part_count; n += 1) {
      const url = urls?.get(n) ?? parts.find((p) => p.part_number === n)!.url;
      const reply = await fetch(url, {
        method: 'PUT',
        body: new Uint8Array(bytes.subarray((n - 1) * part_size, n * part_size)),
      });
      expect(reply.status, await reply.text()).toBe(200);
      sent.push({ part_number: n, etag: reply.headers.get('etag')! });
    }
    return sent;
  }

  const complete = (body: unknown) =>
    t.call<{ upload_key: string; size: number }>('POST', api('/upload/complete'), {
      token,
      body,
      headers: EN,
    });

  it('token → part URLs → PUT parts → complete → check: a 2-part video', async () => {
    const bytes = await fixtureBytes('medium.mp4');
    const granted = await grant(t, token, { type: 'video', name: 'clip.mp4', size: bytes.length });
    expect(granted.body.code, granted.raw).toBe(1);
    const data = granted.body.data;
    expect(data).toMatchObject({ method: 'multipart', tus: null });
    expect(data.multipart!.part_count).toBe(2);
    expect(data.multipart!.parts).toHaveLength(2);

    // A resumed upload asks for fresh URLs of the parts it still has to send.
    const fresh = await t.call<{ parts: { part_number: number; url: string }[] }>(
      'GET',
      api('/upload/part_urls'),
      { token, query: { upload_key: data.upload_key, parts: '2' }, headers: EN },
    );
    expect(fresh.body.code, fresh.raw).toBe(1);
    expect(fresh.body.data.parts.map((p) => p.part_number)).toEqual([2]);
    const parts = await putParts(data, bytes, new Map([[2, fresh.body.data.parts[0].url]]));

    expect((await complete({ upload_key: data.upload_key, parts })).body).toMatchObject({
      code: 1,
      data: { upload_key: data.upload_key, size: bytes.length },
    });
    expect((await row(data.upload_key)).state).toBe('uploaded');
    const checked = await checkUpload(t.app.ctx, ownerId, data.upload_key);
    expect(checked).toMatchObject({ width: 1280, height: 720, codec: 'h264', size: bytes.length });
    expect(await t.app.ctx.storage.exists(checked.posterKey!)).toBe(true);
    expect((await t.app.ctx.storage.stat(checked.storageKey))?.contentType).toBe('video/mp4');
    // Completing again: the upload is no longer pending.
    expect((await complete({ upload_key: data.upload_key, parts })).body.msg).toBe(
      'Unknown upload',
    );
  });

  it('refuses an executable named .mp4 after completion and deletes the object', async () => {
    const elf = Buffer.concat([Buffer.from('7f454c46', 'hex'), Buffer.alloc(3000, 2)]);
    const data = (await grant(t, token, { type: 'video', name: 'a.mp4', size: elf.length })).body
      .data;
    const parts = await putParts(data, elf);
    expect((await complete({ upload_key: data.upload_key, parts })).body.code).toBe(1);
    const { storage_key } = await row(data.upload_key);
    await expect(checkUpload(t.app.ctx, ownerId, data.upload_key)).rejects.toBeInstanceOf(AppError);
    expect((await row(data.upload_key)).state).toBe('refused');
    expect(await t.app.ctx.storage.exists(storage_key)).toBe(false);
  });

  it('refuses a completed object of another size than declared, and keeps nothing', async () => {
    const bytes = await fixtureBytes('photo.png');
    const data = (await grant(t, token, { type: 'image', name: 'p.png', size: bytes.length + 10 }))
      .body.data;
    const parts = await putParts(data, bytes);
    const reply = await complete({ upload_key: data.upload_key, parts });
    expect(reply.body).toEqual({
      code: 0,
      msg: `The uploaded file is ${bytes.length} bytes, not the ${bytes.length + 10} bytes declared`,
      data: null,
    });
    const after = await row(data.upload_key);
    expect(after.state).toBe('refused');
    expect(await t.app.ctx.storage.exists(after.storage_key)).toBe(false);
  });

  it('refuses at completion when the quota shrank after the grant, and keeps nothing', async () => {
    const bytes = await fixtureBytes('photo.webp');
    const data = (await grant(t, token, { type: 'image', name: 'w.webp', size: bytes.length })).body
      .data;
    const parts = await putParts(data, bytes);
    await t.db
      .updateTable('users')
      .set({ storage_quota_bytes: 1 })
      .where('id', '=', ownerId)
      .execute();
    const reply = await complete({ upload_key: data.upload_key, parts });
    await t.db
      .updateTable('users')
      .set({ storage_quota_bytes: null })
      .where('id', '=', ownerId)
      .execute();
    expect(reply.body.msg).toMatch(/^Not enough storage space/);
    const after = await row(data.upload_key);
    expect(after.state).toBe('refused');
    expect(await t.app.ctx.storage.exists(after.storage_key)).toBe(false);
  });

  it('wrong ETags leave the upload pending (send the parts again); another owner’s key is unknown', async () => {
    const bytes = await fixtureBytes('photo.jpg');
    const data = (await grant(t, token, { type: 'image', name: 'p.jpg', size: bytes.length })).body
      .data;
    // A part never sent (s3rver does not compare ETags; S3 refuses a wrong one the same way).
    const wrong = await complete({
      upload_key: data.upload_key,
      parts: [{ part_number: 1, etag: '"0123456789abcdef0123456789abcdef"' }],
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body.msg).toBe(
      'The uploaded parts do not match the upload: upload the missing parts again',
    );
    expect((await row(data.upload_key)).state).toBe('pending');
    const partner = await t.login('partner');
    const other = await t.call('GET', api('/upload/part_urls'), {
      token: partner,
      query: { upload_key: data.upload_key, parts: '1' },
      headers: EN,
    });
    expect(other.body).toEqual({ code: 0, msg: 'Unknown upload', data: null });
    // The sweep aborts it on the storage after 24 hours.
    t.clock.advance(24 * 3600 * 1000 + 1);
    await expireUploads(t.app.ctx);
    t.clock.advance(-(24 * 3600 * 1000 + 1));
    expect((await row(data.upload_key)).state).toBe('expired');
    const uploadId = (await row(data.upload_key)).s3_upload_id!;
    expect(s3.seen.some((r) => r.startsWith('DELETE ') && r.includes(uploadId))).toBe(true);
  });
});
