/**
 * The S3 multipart uploader (src/api/uploads.ts): three parts at a time, each part's ETag kept,
 * the parts already stored skipped (a resumed upload asks fresh URLs for the rest), progress
 * summed over the parts, and `complete` called with every part in order.
 */
import { describe, expect, test } from 'vitest';
import type { UploadTokenReply } from '../../src/api/contract/resources';
import { multipartTransfer, type MultipartCalls, type TransferJob } from '../../src/api/uploads';

const PART = 10;
const grant = (count: number): UploadTokenReply => ({
  upload_key: 'k'.repeat(20),
  expire_at: 0,
  method: 'multipart',
  tus: null,
  multipart: {
    part_size: PART,
    part_count: count,
    parts: Array.from({ length: count }, (_, i) => ({ part_number: i + 1, url: `grant/${i + 1}` })),
  },
});

function harness(
  count: number,
  size: number,
  stored: { part_number: number; etag: string }[] = [],
) {
  const puts: {
    url: string;
    bytes: number;
    finish: (etag: string) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const calls: MultipartCalls = {
    put: (url, body, onProgress) =>
      new Promise((resolve, reject) => {
        running++;
        most = Math.max(most, running);
        onProgress(body.size / 2);
        puts.push({
          url,
          bytes: body.size,
          finish: (etag) => {
            running--;
            onProgress(body.size);
            resolve(etag);
          },
          fail: (e) => {
            running--;
            reject(e);
          },
        });
      }),
    getPartUrls: async (q) => {
      log.push(`urls ${q.parts.join(',')}`);
      return { parts: q.parts.map((n) => ({ part_number: n, url: `fresh/${n}` })) };
    },
    completeMultipart: async (body) => {
      log.push(`complete ${body.parts.map((p) => `${p.part_number}:${p.etag}`).join(' ')}`);
      return { upload_key: body.upload_key, size };
    },
  };
  const progress: number[] = [];
  const checkpoints: number[][] = [];
  const job: TransferJob = {
    file: new Blob(['x'.repeat(size)]),
    grant: grant(count),
    parts: stored,
    progress: (sent) => progress.push(sent),
    checkpoint: (parts) => checkpoints.push(parts.map((p) => p.part_number)),
  };
  return { calls, job, puts, log, progress, checkpoints, most: () => most };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the multipart uploader', () => {
  test('sends three parts at a time, keeps their ETags and completes with all of them in order', async () => {
    const h = harness(5, 45);
    const control = multipartTransfer(h.job, h.calls);
    await tick();
    expect(h.puts.map((p) => p.url)).toEqual(['grant/1', 'grant/2', 'grant/3']);
    h.puts[1].finish('"e2"');
    await tick();
    expect(h.puts.map((p) => p.url)).toEqual(['grant/1', 'grant/2', 'grant/3', 'grant/4']);
    h.puts[0].finish('"e1"');
    h.puts[2].finish('"e3"');
    await tick();
    h.puts[3].finish('"e4"');
    await tick();
    // The last part is the rest of the file.
    expect(h.puts[4].bytes).toBe(5);
    h.puts[4].finish('"e5"');
    await control.done;
    expect(h.most()).toBe(3);
    expect(h.log).toEqual(['complete 1:"e1" 2:"e2" 3:"e3" 4:"e4" 5:"e5"']);
    expect(h.progress.at(-1)).toBe(45);
    expect(h.checkpoints.at(-1)).toEqual([1, 2, 3, 4, 5]);
  });

  test('a resumed upload sends only the missing parts, with fresh URLs', async () => {
    const h = harness(4, 40, [
      { part_number: 1, etag: '"e1"' },
      { part_number: 3, etag: '"e3"' },
    ]);
    const control = multipartTransfer(h.job, h.calls);
    await tick();
    expect(h.log).toEqual(['urls 2,4']);
    expect(h.puts.map((p) => p.url)).toEqual(['fresh/2', 'fresh/4']);
    // What the server had is counted from the start.
    expect(h.progress[0]).toBe(20);
    h.puts[0].finish('"e2"');
    h.puts[1].finish('"e4"');
    await control.done;
    expect(h.log.at(-1)).toBe('complete 1:"e1" 2:"e2" 3:"e3" 4:"e4"');
  });

  test('a lost part fails the transfer (retry allowed) and completes nothing', async () => {
    const h = harness(2, 20);
    const control = multipartTransfer(h.job, h.calls);
    await tick();
    h.puts[0].fail({ msg: 'uploads.lost', retry: true });
    await expect(control.done).rejects.toEqual({ msg: 'uploads.lost', retry: true });
    expect(h.log).toEqual([]);
  });
});
