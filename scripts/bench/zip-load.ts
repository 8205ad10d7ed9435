// npm run bench, section z: "download all" — a ZIP of 20 outputs streamed over loopback HTTP vs
// reading the same 20 files from disk (target ≥ 80 %, docs/performance.md "Download all").
// The files go into the local storage adapter (DATA_DIR/files as the server keeps them); the ZIP
// is the server's own writer (server/platform/lib/zip-stream.ts) with the entries "download all"
// makes of its output rows (server/modules/video-tasks/download-all.ts `outputEntry`), served by a
// plain HTTP server and read by a client that discards the bytes. Three archives of the same
// files, alternating: outputs whose rows carry the CRC-32 computed when they were stored (as
// every output rendered since migration 0036), older rows without it (checksummed as they
// stream), and for scale the 20 files sent one after the other over the same HTTP with no
// archive at all (what the loopback socket costs). Medians of 7 after a warm-up; the load average
// before and after. Never fails on slow numbers; exits 1 only when it cannot measure.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { outputEntry } from '../../server/modules/video-tasks/download-all';
import {
  fileCrc32,
  READ_CHUNK,
  zipLength,
  zipStream,
  type ZipEntry,
} from '../../server/platform/lib/zip-stream';
import { createLocalStorage } from '../../server/platform/storage/local';
import { loadAverage } from './http-load';

const MB = 1024 * 1024;
const OUTPUTS = 20;
/** About a 30 s 720p output at 1800 kbps. */
const SIZE = 8 * MB;
const RUNS = 7;
const TARGET = 0.8;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(`   load average before: ${loadAverage()}`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vc-bench-zip-'));
  try {
    const storage = createLocalStorage({
      root: path.join(dir, 'files'),
      secret: 'bench',
      apiBase: '/api/v1',
      now: Date.now,
    });
    const store = {
      stat: storage.stat,
      get: storage.get,
      localPath: async (key: string) => storage.localFiles!.path(key),
    };
    const rows: { key: string; crc32: number }[] = [];
    for (let i = 0; i < OUTPUTS; i += 1) {
      const key = `video/202611/bench${String(i).padStart(2, '0')}`;
      await storage.put(key, randomBytes(SIZE), { contentType: 'video/mp4' });
      rows.push({ key, crc32: await fileCrc32(storage.localFiles!.path(key)) });
    }
    const total = OUTPUTS * SIZE;

    // Baseline: the 20 files read one after the other, straight from disk.
    const readDisk = async () => {
      const start = performance.now();
      for (const { key } of rows) {
        for await (const chunk of fs.createReadStream(storage.localFiles!.path(key))) void chunk;
      }
      return performance.now() - start;
    };

    const entries = (stored: boolean): Promise<ZipEntry[]> =>
      Promise.all(
        rows.map(async (row, i) => {
          const entry = await outputEntry(store, {
            name: `task-${i + 1}.mp4`,
            key: row.key,
            size: SIZE,
            crc32: stored ? row.crc32 : null,
          });
          return entry!;
        }),
      );
    const lengths = {
      stored: zipLength(await entries(true)),
      older: zipLength(await entries(false)),
      plain: total,
    };
    async function* plainFiles() {
      for (const { key } of rows) {
        const file = fs.createReadStream(storage.localFiles!.path(key), {
          highWaterMark: READ_CHUNK,
        });
        for await (const chunk of file) yield chunk as Buffer;
      }
    }
    type Kind = keyof typeof lengths;
    const server = http.createServer((req, res) => {
      const kind = req.url!.slice(1) as Kind;
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': lengths[kind] });
      // As the route does: the entries (a stat each) when the request comes, then the stream.
      const body =
        kind === 'plain'
          ? Promise.resolve(Readable.from(plainFiles()))
          : entries(kind === 'stored').then((e) => zipStream(e, new Date()));
      void body.then((stream) => stream.pipe(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const read = (kind: Kind) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        let got = 0;
        http
          .get(`http://127.0.0.1:${port}/${kind}`, (res) => {
            res.on('data', (chunk: Buffer) => (got += chunk.length));
            res.on('end', () => {
              if (got !== lengths[kind]) reject(new Error(`${kind}: ${got} of ${lengths[kind]}`));
              else resolve(performance.now() - start);
            });
          })
          .on('error', reject);
      });

    // Warm both (page cache, JIT).
    await readDisk();
    for (const kind of ['stored', 'older', 'plain'] as const) await read(kind);
    const times = { disk: [] as number[], stored: [] as number[], older: [] as number[] };
    const plain: number[] = [];
    for (let r = 0; r < RUNS; r += 1) {
      times.disk.push(await readDisk());
      times.stored.push(await read('stored'));
      times.older.push(await read('older'));
      plain.push(await read('plain'));
    }
    server.close();
    const mbps = (ms: number) => total / MB / (ms / 1000);
    const disk = median(times.disk);
    const fmt = (ms: number) => `${mbps(ms).toFixed(0)} MB/s (${ms.toFixed(0)} ms)`;
    console.log(`   ${OUTPUTS} outputs × ${SIZE / MB} MB, medians of ${RUNS}:`);
    console.log(`      disk read (the baseline)                     ${fmt(disk)}`);
    for (const [kind, label] of [
      ['stored', 'ZIP over HTTP, CRC-32 stored with the outputs'],
      ['older', 'ZIP over HTTP, older rows (CRC-32 as they stream)'],
    ] as const) {
      const ms = median(times[kind]);
      const ratio = disk / ms;
      console.log(
        `      ${label.padEnd(48)} ${fmt(ms)}: ${(ratio * 100).toFixed(0)} % ` +
          `(target ≥ ${TARGET * 100} %: ${ratio >= TARGET ? 'ok' : 'MISSES TARGET'})`,
      );
    }
    const p = median(plain);
    console.log(
      `      for scale: the files over HTTP, no archive       ${fmt(p)}: ` +
        `${((disk / p) * 100).toFixed(0)} % of the disk read`,
    );
    console.log(`   load average after: ${loadAverage()} (2 cores, shared)`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
