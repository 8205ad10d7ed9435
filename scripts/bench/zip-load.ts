// npm run bench, section z: "download all" — a ZIP of 20 outputs streamed over loopback HTTP vs
// reading the same 20 files from disk (target ≥ 80 %, docs/performance.md "Download all").
// The files go into the local storage adapter (DATA_DIR/files as the server keeps them); the ZIP
// is the server's own writer (server/platform/lib/zip-stream.ts) reading them through that
// adapter, served by a plain HTTP server and read by a client that discards the bytes.
// Medians of 5. Never fails on slow numbers; exits 1 only when it cannot measure.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { zipLength, zipStream, type ZipEntry } from '../../server/platform/lib/zip-stream';
import { createLocalStorage } from '../../server/platform/storage/local';

const MB = 1024 * 1024;
const OUTPUTS = 20;
/** About a 30 s 720p output at 1800 kbps. */
const SIZE = 8 * MB;
const RUNS = 5;
const TARGET = 0.8;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vc-bench-zip-'));
  try {
    const storage = createLocalStorage({
      root: path.join(dir, 'files'),
      secret: 'bench',
      apiBase: '/api/v1',
      now: Date.now,
    });
    const keys: string[] = [];
    for (let i = 0; i < OUTPUTS; i += 1) {
      const key = `video/202611/bench${String(i).padStart(2, '0')}`;
      await storage.put(key, randomBytes(SIZE), { contentType: 'video/mp4' });
      keys.push(key);
    }
    const total = OUTPUTS * SIZE;

    // Baseline: the 20 files read one after the other, straight from disk.
    const readDisk = async () => {
      const start = performance.now();
      for (const key of keys) {
        for await (const chunk of fs.createReadStream(storage.localFiles!.path(key))) void chunk;
      }
      return performance.now() - start;
    };

    const entries: ZipEntry[] = keys.map((key, i) => ({
      name: `task-${i + 1}.mp4`,
      size: SIZE,
      open: async () => (await storage.get(key))!.body,
    }));
    const length = zipLength(entries);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': length });
      zipStream(entries, new Date()).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const readZip = () =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        let got = 0;
        http
          .get(`http://127.0.0.1:${port}/`, (res) => {
            res.on('data', (chunk: Buffer) => (got += chunk.length));
            res.on('end', () => {
              if (got !== length) reject(new Error(`zip: ${got} of ${length} bytes`));
              else resolve(performance.now() - start);
            });
          })
          .on('error', reject);
      });

    await readDisk();
    await readZip(); // warm both (page cache, JIT)
    const disk: number[] = [];
    const zip: number[] = [];
    for (let r = 0; r < RUNS; r += 1) {
      disk.push(await readDisk());
      zip.push(await readZip());
    }
    server.close();
    const mbps = (ms: number) => total / MB / (ms / 1000);
    const ratio = mbps(median(zip)) / mbps(median(disk));
    console.log(
      `   ${OUTPUTS} outputs × ${SIZE / MB} MB: disk read ${mbps(median(disk)).toFixed(0)} MB/s ` +
        `(${median(disk).toFixed(0)} ms), ZIP over HTTP ${mbps(median(zip)).toFixed(0)} MB/s ` +
        `(${median(zip).toFixed(0)} ms); ratio ${(ratio * 100).toFixed(0)} % ` +
        `(target ≥ ${TARGET * 100} %: ${ratio >= TARGET ? 'ok' : 'MISSES TARGET'})`,
    );
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
