import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newFileKey } from '../../server/platform/storage/keys';
import {
  FileTooLargeError,
  GRANT_PART_URLS,
  RangeNotSatisfiableError,
  type FileStorage,
} from '../../server/platform/storage/storage';
import type { TestClock } from './helpers';

/**
 * The file storage contract (server/platform/storage/storage.ts), one suite run against every adapter:
 * storage-local.test.ts (local disk, signed URLs served by the real app over HTTP) and
 * storage-s3.test.ts (S3 adapter against s3rver behind a SigV4-checking front).
 */
export interface StorageHarness {
  storage: FileStorage;
  /** The clock the storage signs with and the URLs' verifier checks expiry against. */
  clock: TestClock;
  /** A signed URL as a fetchable absolute URL. */
  absolute(url: string): string;
  /** The HTTP status a refused signed URL answers (local: 404, like a missing file; S3: 403). */
  refusedStatus: number;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A stream of `total` bytes in chunks of `chunk` (a deterministic pattern). */
function patternStream(total: number, chunk = 64 * 1024): { stream: Readable; data: Buffer } {
  const data = randomBytes(total);
  const pieces: Buffer[] = [];
  for (let at = 0; at < total; at += chunk) pieces.push(data.subarray(at, at + chunk));
  return { stream: Readable.from(pieces), data };
}

export function storageContract(
  name: string,
  kind: FileStorage['kind'],
  open: () => Promise<StorageHarness>,
): void {
  describe(`the file storage contract: ${name}`, () => {
    let h: StorageHarness;
    beforeAll(async () => {
      h = await open();
    });
    afterAll(async () => {
      await h?.close();
    });
    const key = () => newFileKey('test');
    const fetchSigned = (url: string, init?: RequestInit) => fetch(h.absolute(url), init);

    it(`is the ${kind} adapter`, () => {
      expect(h.storage.kind).toBe(kind);
    });

    it('put then stat, exists and get answer the same bytes, size, type and name', async () => {
      const k = key();
      const data = Buffer.from('short video bytes');
      const info = await h.storage.put(k, data, {
        contentType: 'video/mp4',
        filename: '旅行 1.mp4',
      });
      const expected = {
        key: k,
        size: data.length,
        contentType: 'video/mp4',
        filename: '旅行 1.mp4',
      };
      expect(info).toEqual(expected);
      expect(await h.storage.stat(k)).toEqual(expected);
      expect(await h.storage.exists(k)).toBe(true);
      const read = await h.storage.get(k);
      expect(read?.info).toEqual(expected);
      expect(read?.range).toBeUndefined();
      expect(await bytesOf(read!.body)).toEqual(data);
    });

    it('keeps a name without path or control characters, and no name when none is given', async () => {
      const k = key();
      const info = await h.storage.put(k, Buffer.from('x'), {
        contentType: 'image/png',
        filename: '../../etc/pa\u0000ss\nwd.png',
      });
      expect(info.filename).toBe('passwd.png');
      expect((await h.storage.stat(k))?.filename).toBe('passwd.png');
      const bare = key();
      expect(
        (await h.storage.put(bare, Buffer.from('x'), { contentType: 'image/png' })).filename,
      ).toBeUndefined();
      expect((await h.storage.stat(bare))?.filename).toBeUndefined();
    });

    it('stores a 9 MiB stream of many chunks byte for byte (more than one upload part)', async () => {
      const k = key();
      const { stream, data } = patternStream(9 * MiB + 123);
      const info = await h.storage.put(k, stream, { contentType: 'video/mp4' });
      expect(info.size).toBe(data.length);
      expect((await h.storage.stat(k))?.size).toBe(data.length);
      const read = await h.storage.get(k);
      expect(sha(await bytesOf(read!.body))).toBe(sha(data));
    });

    it('put replaces what was under the key', async () => {
      const k = key();
      await h.storage.put(k, Buffer.from('first version'), { contentType: 'text/plain' });
      await h.storage.put(k, Buffer.from('second'), { contentType: 'image/jpeg' });
      expect(await h.storage.stat(k)).toMatchObject({ size: 6, contentType: 'image/jpeg' });
      expect((await bytesOf((await h.storage.get(k))!.body)).toString()).toBe('second');
    });

    it('get with a range gives exactly those bytes, its end clipped to the file', async () => {
      const k = key();
      await h.storage.put(k, Buffer.from('0123456789'), { contentType: 'video/mp4' });
      const middle = await h.storage.get(k, { start: 2, end: 5 });
      expect(middle?.range).toEqual({ start: 2, end: 5 });
      expect(middle?.info.size).toBe(10);
      expect((await bytesOf(middle!.body)).toString()).toBe('2345');
      const tail = await h.storage.get(k, { start: 7, end: 1000 });
      expect(tail?.range).toEqual({ start: 7, end: 9 });
      expect((await bytesOf(tail!.body)).toString()).toBe('789');
      const last = await h.storage.get(k, { start: 9, end: 9 });
      expect((await bytesOf(last!.body)).toString()).toBe('9');
    });

    it('a range that starts past the last byte throws RangeNotSatisfiableError with the size', async () => {
      const k = key();
      await h.storage.put(k, Buffer.from('0123456789'), { contentType: 'video/mp4' });
      const error = await h.storage.get(k, { start: 10, end: 20 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RangeNotSatisfiableError);
      expect((error as RangeNotSatisfiableError).size).toBe(10);
    });

    it('a missing key: stat null, exists false, get null, delete quietly', async () => {
      const k = key();
      expect(await h.storage.stat(k)).toBeNull();
      expect(await h.storage.exists(k)).toBe(false);
      expect(await h.storage.get(k)).toBeNull();
      expect(await h.storage.get(k, { start: 0, end: 1 })).toBeNull();
      await expect(h.storage.delete(k)).resolves.toBeUndefined();
    });

    it('delete removes the file', async () => {
      const k = key();
      await h.storage.put(k, Buffer.from('gone soon'), { contentType: 'text/plain' });
      await h.storage.delete(k);
      expect(await h.storage.stat(k)).toBeNull();
      expect(await h.storage.get(k)).toBeNull();
    });

    it('a put past maxBytes throws FileTooLargeError and keeps nothing', async () => {
      const small = key();
      const error = await h.storage
        .put(small, patternStream(4096, 1000).stream, { contentType: 'image/png', maxBytes: 4095 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileTooLargeError);
      expect(await h.storage.exists(small)).toBe(false);
      // Past the first part: the multipart upload already started is given up.
      const large = key();
      const refused = h.storage.put(large, patternStream(9 * MiB).stream, {
        contentType: 'video/mp4',
        maxBytes: 8 * MiB + 1,
      });
      await expect(refused).rejects.toBeInstanceOf(FileTooLargeError);
      expect(await h.storage.exists(large)).toBe(false);
      const exact = key();
      await h.storage.put(exact, Buffer.alloc(4095), { contentType: 'image/png', maxBytes: 4095 });
      expect((await h.storage.stat(exact))?.size).toBe(4095);
    });

    it('refuses keys the server does not make: .., absolute, backslash, control chars, empty segments', async () => {
      for (const bad of [
        '../escape',
        'a/../../escape',
        'a..b/c',
        '/etc/passwd',
        'a\\b',
        'a/\u0000b',
        'a/b\nc',
        'a//b',
        'a/',
        '.meta/x',
        '',
      ]) {
        const where = JSON.stringify(bad);
        await expect(
          h.storage.put(bad, Buffer.from('x'), { contentType: 'text/plain' }),
          where,
        ).rejects.toThrow(/invalid storage key/);
        await expect(h.storage.stat(bad), where).rejects.toThrow(/invalid storage key/);
        await expect(h.storage.get(bad), where).rejects.toThrow(/invalid storage key/);
        await expect(h.storage.delete(bad), where).rejects.toThrow(/invalid storage key/);
        await expect(h.storage.signedReadUrl(bad), where).rejects.toThrow(/invalid storage key/);
      }
    });

    describe('signed read URLs', () => {
      it('read the file over HTTP with no session: whole (200) and by range (206)', async () => {
        const k = key();
        const data = Buffer.from('a video, really: 0123456789');
        await h.storage.put(k, data, { contentType: 'video/mp4', filename: 'clip.mp4' });
        const { url, expiresAt } = await h.storage.signedReadUrl(k, 600);
        expect(expiresAt).toBeGreaterThanOrEqual(h.clock() + 600_000);
        expect(expiresAt).toBeLessThanOrEqual(h.clock() + 601_000);
        const whole = await fetchSigned(url);
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-type')).toBe('video/mp4');
        expect(whole.headers.get('content-length')).toBe(String(data.length));
        expect(whole.headers.get('accept-ranges')).toBe('bytes');
        expect(whole.headers.get('content-disposition')).toBe(
          `inline; filename="clip.mp4"; filename*=UTF-8''clip.mp4`,
        );
        expect(Buffer.from(await whole.arrayBuffer())).toEqual(data);
        const part = await fetchSigned(url, { headers: { range: 'bytes=17-20' } });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 17-20/${data.length}`);
        expect(part.headers.get('content-length')).toBe('4');
        expect(await part.text()).toBe('0123');
      });

      it('with `download` answer an attachment under that name, and the name is signed', async () => {
        const k = key();
        const data = Buffer.from('a finished video');
        await h.storage.put(k, data, { contentType: 'video/mp4', filename: 'clip.mp4' });
        const { url } = await h.storage.signedReadUrl(k, 600, { download: '成片 1.mp4' });
        const reply = await fetchSigned(url);
        expect(reply.status).toBe(200);
        expect(reply.headers.get('content-disposition')).toBe(
          `attachment; filename="__ 1.mp4"; filename*=UTF-8''%E6%88%90%E7%89%87%201.mp4`,
        );
        expect(Buffer.from(await reply.arrayBuffer())).toEqual(data);
        const renamed = url.replace(
          /(dl|response-content-disposition)=([^&]+)/,
          (_, name: string) => `${name}=${encodeURIComponent('attachment; filename="x.exe"')}`,
        );
        expect(renamed).not.toBe(url);
        expect((await fetchSigned(renamed)).status).toBe(h.refusedStatus);
        // The plain URL of the same file stays inline.
        const plain = await fetchSigned((await h.storage.signedReadUrl(k, 600)).url);
        expect(plain.headers.get('content-disposition')).toMatch(/^inline;/);
      });

      it('are good until they expire, and refused after', async () => {
        const k = key();
        await h.storage.put(k, Buffer.from('secret frames'), { contentType: 'video/mp4' });
        const { url } = await h.storage.signedReadUrl(k, 60);
        h.clock.advance(59_000);
        expect((await fetchSigned(url)).status).toBe(200);
        h.clock.advance(2_000);
        const late = await fetchSigned(url);
        expect(late.status).toBe(h.refusedStatus);
        expect(await late.text()).not.toContain('secret frames');
      });

      it('are bound to their file: the same signature on another key is refused', async () => {
        const mine = key();
        const other = key();
        await h.storage.put(mine, Buffer.from('mine'), { contentType: 'image/png' });
        await h.storage.put(other, Buffer.from('someone else’s'), { contentType: 'image/png' });
        const { url } = await h.storage.signedReadUrl(mine);
        expect(url).toContain(mine);
        expect((await fetchSigned(url)).status).toBe(200);
        const moved = await fetchSigned(url.replace(mine, other));
        expect(moved.status).toBe(h.refusedStatus);
        expect(await moved.text()).not.toContain('someone');
      });

      it('with a changed signature or a changed expiry are refused', async () => {
        const k = key();
        await h.storage.put(k, Buffer.from('frames'), { contentType: 'image/png' });
        const { url } = await h.storage.signedReadUrl(k, 60);
        const flip = (c: string) => (c === '0' ? '1' : '0');
        const badSig = url.replace(
          /(sig|X-Amz-Signature)=([^&]+)/,
          (_, name: string, sig: string) => `${name}=${flip(sig[0])}${sig.slice(1)}`,
        );
        const longer = url.replace(
          /(exp|X-Amz-Expires)=(\d+)/,
          (_, name: string, n: string) => `${name}=${Number(n) + 3600}`,
        );
        expect(badSig).not.toBe(url);
        expect(longer).not.toBe(url);
        for (const tampered of [badSig, longer]) {
          const reply = await fetchSigned(tampered);
          expect(reply.status, tampered).toBe(h.refusedStatus);
          expect(await reply.text()).not.toContain('frames');
        }
        expect((await fetchSigned(url)).status).toBe(200);
      });
    });

    if (kind === 'local') {
      it('has no presigned uploads: its grant is the tus endpoint', () => {
        expect(h.storage.directUploads).toBeNull();
      });
    }

    if (kind === 's3') {
      describe('presigned uploads', () => {
        it('a presigned PUT stores the declared bytes with the grant’s type and name', async () => {
          const uploads = h.storage.directUploads!;
          const k = key();
          const grant = await uploads.presignPut(k, {
            contentType: 'image/webp',
            size: 5,
            filename: '封面.webp',
            expiresIn: 300,
          });
          expect(grant).toMatchObject({ kind: 'put', key: k });
          expect(grant.expiresAt).toBe(h.clock() + 300_000);
          const put = await fetch(grant.url, {
            method: 'PUT',
            headers: grant.headers,
            body: 'abcde',
          });
          expect(put.status).toBe(200);
          expect(await h.storage.stat(k)).toEqual({
            key: k,
            size: 5,
            contentType: 'image/webp',
            filename: '封面.webp',
          });
          const read = await fetch((await h.storage.signedReadUrl(k)).url);
          expect(read.headers.get('content-disposition')).toBe(
            `inline; filename="__.webp"; filename*=UTF-8''%E5%B0%81%E9%9D%A2.webp`,
          );
        });

        it('a presigned PUT refuses another size, another type, and an expired grant', async () => {
          const uploads = h.storage.directUploads!;
          const k = key();
          const grant = await uploads.presignPut(k, {
            contentType: 'image/png',
            size: 5,
            expiresIn: 60,
          });
          const send = (headers: Record<string, string>, body: string) =>
            fetch(grant.url, { method: 'PUT', headers, body });
          expect((await send(grant.headers, 'abcdef')).status).toBe(403);
          expect(
            (await send({ ...grant.headers, 'content-type': 'text/html' }, 'abcde')).status,
          ).toBe(403);
          h.clock.advance(61_000);
          expect((await send(grant.headers, 'abcde')).status).toBe(403);
          expect(await h.storage.exists(k)).toBe(false);
        });

        it('a multipart upload through presigned part URLs (real HTTP PUTs), completed with their ETags', async () => {
          const uploads = h.storage.directUploads!;
          const k = key();
          const data = randomBytes(5 * MiB + 1000);
          const grant = await uploads.createMultipart(k, {
            contentType: 'video/mp4',
            size: data.length,
            filename: 'long take.mp4',
            partSize: 5 * MiB,
          });
          expect(grant).toMatchObject({
            kind: 'multipart',
            key: k,
            partSize: 5 * MiB,
            partCount: 2,
          });
          expect(grant.parts.map((p) => p.partNumber)).toEqual([1, 2]);
          expect(await h.storage.exists(k)).toBe(false);
          const etags = [];
          for (const part of grant.parts) {
            const start = (part.partNumber - 1) * grant.partSize;
            const body = data.subarray(start, start + grant.partSize);
            const put = await fetch(part.url, { method: 'PUT', body });
            expect(put.status).toBe(200);
            etags.push({ partNumber: part.partNumber, etag: put.headers.get('etag')! });
          }
          // Part URLs issued again (a resumed upload) are good too.
          const again = await uploads.partUrls(k, grant.uploadId, [2]);
          const body = data.subarray(grant.partSize);
          const reput = await fetch(again[0].url, { method: 'PUT', body });
          expect(reput.status).toBe(200);
          const info = await uploads.completeMultipart(k, grant.uploadId, etags.reverse());
          expect(info).toEqual({
            key: k,
            size: data.length,
            contentType: 'video/mp4',
            filename: 'long take.mp4',
          });
          const read = await h.storage.get(k);
          expect(sha(await bytesOf(read!.body))).toBe(sha(data));
          const seek = await fetch((await h.storage.signedReadUrl(k)).url, {
            headers: { range: `bytes=${5 * MiB}-${5 * MiB + 9}` },
          });
          expect(seek.status).toBe(206);
          expect(Buffer.from(await seek.arrayBuffer())).toEqual(
            data.subarray(5 * MiB, 5 * MiB + 10),
          );
        });

        it('a part URL is bound to its upload, part and key: tampered ones are refused', async () => {
          const uploads = h.storage.directUploads!;
          const k = key();
          const grant = await uploads.createMultipart(k, { contentType: 'video/mp4', size: 100 });
          expect(grant.partSize).toBe(8 * MiB);
          expect(grant.partCount).toBe(1);
          expect(grant.parts).toHaveLength(1);
          const url = grant.parts[0].url;
          // Another last character (a random id may end in any one).
          const otherId = grant.uploadId.slice(0, -1) + (grant.uploadId.endsWith('0') ? '1' : '0');
          for (const tampered of [
            url.replace('partNumber=1', 'partNumber=2'),
            url.replace(grant.uploadId, otherId),
            url.replace(k, key()),
          ]) {
            expect(tampered).not.toBe(url);
            const put = await fetch(tampered, { method: 'PUT', body: 'x' });
            expect(put.status, tampered).toBe(403);
          }
        });

        it('a grant for a huge file keeps within 10,000 parts', async () => {
          const uploads = h.storage.directUploads!;
          const size = 100_000 * MiB;
          const k = key();
          const grant = await uploads.createMultipart(k, { contentType: 'video/mp4', size });
          expect(grant.partCount).toBeLessThanOrEqual(10_000);
          expect(grant.partSize * grant.partCount).toBeGreaterThanOrEqual(size);
          expect(grant.partSize * (grant.partCount - 1)).toBeLessThan(size);
          expect(grant.parts.map((p) => p.partNumber)).toEqual(
            Array.from({ length: GRANT_PART_URLS }, (_, i) => i + 1),
          );
          const last = await uploads.partUrls(k, grant.uploadId, [grant.partCount]);
          expect(last[0].url).toContain(`partNumber=${grant.partCount}`);
          await uploads.abortMultipart(k, grant.uploadId);
        });
      });
    }
  });
}
