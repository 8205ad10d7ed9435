import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTokenReply } from '../../src/api/contract/resources';
import { checkUpload } from '../../server/modules/uploads/check-upload';
import { createTestApp, type TestApp } from './helpers';
import { fixture } from './media-fixtures';
import { grant } from './upload-helpers';

const MiB = 1024 * 1024;
const CHUNK = 64 * MiB;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/**
 * A large upload through the tus endpoint over real HTTP (loopback): a ≈ 210 MB generated H.264
 * file in 64 MiB PATCH requests, the connection dropped in the middle of one, the upload resumed
 * from the offset the server reports (HEAD), then checked like any upload.
 */
describe('a 200 MB video through tus, interrupted and resumed', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One request; `body` streamed; `dropAfter`: destroy the connection after this many bytes. */
  function request(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Readable,
    dropAfter?: number,
  ): Promise<Answer | 'dropped'> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${base}${url}`, {
        method,
        headers: { 'tus-resumable': '1.0.0', ...headers },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on('error', (error) => (dropAfter !== undefined ? resolve('dropped') : reject(error)));
      if (!body) {
        req.end();
        return;
      }
      let sent = 0;
      body.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (dropAfter !== undefined && sent > dropAfter) {
          body.destroy();
          req.destroy(); // the connection drops mid-request
          return;
        }
        if (!req.write(chunk)) {
          body.pause();
          req.once('drain', () => body.resume());
        }
      });
      body.on('end', () => req.end());
    });
  }

  /** The offset the server holds (HEAD), retried while the dropped request still holds its lock. */
  async function offsetOf(url: string, headers: Record<string, string>): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const head = await request('HEAD', url, headers);
      if (head !== 'dropped' && head.status === 200) return Number(head.headers['upload-offset']);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no offset');
  }

  it('arrives whole after a dropped connection and passes the check', async () => {
    const file = await fixture('large.mp4');
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(200 * 1000 * 1000);
    const granted = await grant(t, await t.login('merchant'), {
      type: 'video',
      name: '长视频.mp4',
      size,
    });
    expect(granted.body.code, granted.raw).toBe(1);
    const { tus, upload_key } = granted.body.data as UploadTokenReply;
    const headers = tus!.headers;

    const created = await request('POST', tus!.endpoint, {
      ...headers,
      'upload-length': String(size),
    });
    expect(created).not.toBe('dropped');
    expect((created as Answer).status).toBe(201);
    const location = String((created as Answer).headers.location);

    const patch = (offset: number, dropAfter?: number) =>
      request(
        'PATCH',
        location,
        {
          ...headers,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(Math.min(CHUNK, size - offset)),
        },
        fs.createReadStream(file, { start: offset, end: Math.min(offset + CHUNK, size) - 1 }),
        dropAfter,
      );

    let offset = 0;
    let dropped = false;
    let requests = 0;
    while (offset < size) {
      requests += 1;
      expect(requests).toBeLessThan(20);
      // The second chunk's connection drops after 24 MiB.
      const answer = await patch(offset, offset === CHUNK && !dropped ? 24 * MiB : undefined);
      if (answer === 'dropped' || answer.status !== 204) {
        dropped = true;
        const resumed = await offsetOf(location, headers);
        // What arrived before the drop is kept: the upload resumes from there, not from 0.
        expect(resumed).toBeGreaterThanOrEqual(CHUNK);
        expect(resumed).toBeLessThanOrEqual(CHUNK + 24 * MiB);
        offset = resumed;
        continue;
      }
      offset = Number(answer.headers['upload-offset']);
    }
    expect(dropped).toBe(true);
    expect(offset).toBe(size);

    const merchantId = (await t.user('merchant')).id;
    const row = await t.db
      .selectFrom('uploads')
      .selectAll()
      .where('upload_key', '=', upload_key)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('uploaded');
    const checked = await checkUpload(t.app.ctx, merchantId, upload_key);
    expect(checked).toMatchObject({ size, width: 1280, height: 720, codec: 'h264' });
    expect(checked.posterKey).not.toBeNull();
    // The stored bytes are the file's.
    const digest = async (path: string) => {
      const hash = createHash('sha256');
      for await (const chunk of fs.createReadStream(path)) hash.update(chunk as Buffer);
      return hash.digest('hex');
    };
    expect(await digest(t.app.ctx.storage.localFiles!.path(checked.storageKey))).toBe(
      await digest(file),
    );
  }, 120_000);
});
