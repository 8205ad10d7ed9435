import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fileCrc32,
  READ_CHUNK,
  writeZip,
  zipLength,
  type ZipEntry,
} from '../../server/platform/lib/zip-stream';
import { sha, unzipReply, zipHeaders } from './zip-fixtures';

/**
 * The ZIP writer of "download all" over a real socket (server/platform/lib/zip-stream.ts): files
 * larger than its read buffer (used again for every piece once the socket has taken the last
 * one), a reader slower than the writer (the socket's buffer fills: partial writes, waits), an
 * entry with its CRC-32 known beside one checksummed as it streams and one from a stream, and a
 * reader that goes away mid-archive.
 */
describe('writeZip over HTTP', () => {
  let dir: string;
  let server: http.Server | undefined;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-zip-writer-'));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Files of `sizes` bytes of random data: their paths and bytes. */
  async function files(sizes: number[]) {
    return Promise.all(
      sizes.map(async (size, i) => {
        const file = path.join(dir, `f${i}.mp4`);
        const bytes = randomBytes(size);
        await fs.writeFile(file, bytes);
        return { file, bytes };
      }),
    );
  }

  /** Serves the archive of `entries` once; its URL, and a promise of how writeZip ended. */
  async function serve(entries: ZipEntry[]) {
    let ended!: Promise<void>;
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-length': zipLength(entries) });
      ended = writeZip(entries, new Date(Date.UTC(2026, 10, 30, 12)), res);
      ended.catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/`, ended: () => ended };
  }

  /** GETs `url`, reading `pause` ms after each piece (a slow reader): the bytes. */
  function slowRead(url: string, pause: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      http
        .get(url, (res) => {
          const pieces: Buffer[] = [];
          res.on('data', (piece: Buffer) => {
            pieces.push(piece);
            res.pause();
            setTimeout(() => res.resume(), pause);
          });
          res.on('end', () => resolve(Buffer.concat(pieces)));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  it('writes every byte of files larger than its buffer, known and computed CRCs alike, to a slow reader', async () => {
    const [a, b, c] = await files([2 * READ_CHUNK + 12_345, READ_CHUNK + 1, 3 * READ_CHUNK]);
    const entries: ZipEntry[] = [
      {
        name: 'a.mp4',
        size: a!.bytes.length,
        crc: await fileCrc32(a!.file),
        source: { file: a!.file },
      },
      { name: 'b.mp4', size: b!.bytes.length, source: { file: b!.file } },
      {
        name: 'c.mp4',
        size: c!.bytes.length,
        crc: crc32(c!.bytes),
        source: {
          open: async () => Readable.from([c!.bytes.subarray(0, 5), c!.bytes.subarray(5)]),
        },
      },
    ];
    expect(entries[0]!.crc).toBe(crc32(a!.bytes));
    const { url, ended } = await serve(entries);
    const zip = await slowRead(url, 2);
    await ended();
    expect(zip.length).toBe(zipLength(entries));
    expect(zipHeaders(zip).map((h) => [h.name, h.localCrc, h.crc])).toEqual([
      ['a.mp4', crc32(a!.bytes), crc32(a!.bytes)],
      ['b.mp4', 0, crc32(b!.bytes)],
      ['c.mp4', crc32(c!.bytes), crc32(c!.bytes)],
    ]);
    const unpacked = await unzipReply(zip);
    expect(sha(unpacked.get('a.mp4')!)).toBe(sha(a!.bytes));
    expect(sha(unpacked.get('b.mp4')!)).toBe(sha(b!.bytes));
    expect(sha(unpacked.get('c.mp4')!)).toBe(sha(c!.bytes));
  });

  it('stops when the reader goes away, without waiting for it', async () => {
    const [a] = await files([8 * READ_CHUNK]);
    const { url, ended } = await serve([
      { name: 'a.mp4', size: a!.bytes.length, source: { file: a!.file } },
    ]);
    await new Promise<void>((resolve, reject) => {
      const request = http.get(url, (res) => {
        // Take one piece, then hang up with most of the archive unsent.
        res.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', () => undefined);
      setTimeout(() => reject(new Error('no bytes came')), 10_000);
    });
    await expect(ended()).rejects.toThrow();
  });

  it('fails an entry whose bytes are not the size announced', async () => {
    const [a] = await files([READ_CHUNK + 10]);
    const { url, ended } = await serve([
      { name: 'a.mp4', size: READ_CHUNK, source: { file: a!.file } },
    ]);
    await slowRead(url, 0).catch(() => undefined);
    await expect(ended()).rejects.toThrow(/bytes read/);
  });
});
