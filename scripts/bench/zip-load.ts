// npm run bench, section z: "download all" — a ZIP of 20 outputs streamed over loopback HTTP vs
// reading the same 20 files from disk (target ≥ 80 %, docs/performance.md "Download all").
// The files go into the local storage adapter (DATA_DIR/files as the server keeps them); the ZIP
// is the server's own writer (server/platform/lib/zip-stream.ts) with the entries "download all"
// makes of its output rows (server/modules/video-tasks/download-all.ts `outputEntry`), served by a
// plain HTTP server. Three archives of the same files, alternating: outputs whose rows carry the
// CRC-32 computed when they were stored (as every output rendered since migration 0036), older
// rows without it (checksummed as they stream), and for scale the 20 files sent one after the
// other over the same HTTP with no archive at all (what the loopback socket costs). The reader
// discards the bytes in a process of its own (this script again, `--reader`), as a browser is;
// the same read from the bench's own process (the earlier method, which charges the reader's
// work to the server's thread) is printed after. A GC before each timed run (`--expose-gc`), so
// that no run collects another's garbage. Medians of 7 after a warm-up; the load average before
// and after. Never fails on slow numbers; exits 1 only when it cannot measure.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
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

interface Timed {
  ms: number;
  cpu: number;
}

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
    const url = (kind: Kind) => `http://127.0.0.1:${port}/${kind}`;
    /** Read in this process (the reader's work on the server's thread). */
    const readHere = (kind: Kind) =>
      readAll(url(kind)).then(({ ms, got }) => {
        if (got !== lengths[kind]) throw new Error(`${kind}: ${got} of ${lengths[kind]}`);
        return ms;
      });
    const reader = fork(process.argv[1]!, ['--reader'], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    /** Read by the reader process. */
    const read = (kind: Kind) =>
      new Promise<number>((resolve, reject) => {
        reader.once('message', (reply: { ms: number; got: number } | { error: string }) => {
          if ('error' in reply) reject(new Error(reply.error));
          else if (reply.got !== lengths[kind]) {
            reject(new Error(`${kind}: ${reply.got} of ${lengths[kind]}`));
          } else resolve(reply.ms);
        });
        reader.send(url(kind));
      });
    const gc = (globalThis as { gc?: () => void }).gc;
    /** A run's wall time and this process's CPU time (user + system), ms. */
    const timed = async (run: () => Promise<number>): Promise<Timed> => {
      gc?.();
      const cpu = process.cpuUsage();
      const ms = await run();
      const used = process.cpuUsage(cpu);
      return { ms, cpu: (used.user + used.system) / 1000 };
    };

    // Warm both (page cache, JIT).
    await readDisk();
    for (const kind of ['stored', 'older', 'plain'] as const) {
      await read(kind);
      await readHere(kind);
    }
    const runs = new Map<string, Timed[]>();
    const add = async (label: string, run: () => Promise<number>) => {
      runs.set(label, [...(runs.get(label) ?? []), await timed(run)]);
    };
    for (let r = 0; r < RUNS; r += 1) {
      await add('disk', readDisk);
      await add('stored', () => read('stored'));
      await add('older', () => read('older'));
      await add('plain', () => read('plain'));
      await add('stored here', () => readHere('stored'));
      await add('older here', () => readHere('older'));
    }
    reader.kill();
    server.close();
    const of = (label: string) => {
      const list = runs.get(label)!;
      return { ms: median(list.map((x) => x.ms)), cpu: median(list.map((x) => x.cpu)) };
    };
    const disk = of('disk');
    const mbps = (ms: number) => total / MB / (ms / 1000);
    const line = (label: string, key: string, target = false) => {
      const m = of(key);
      const ratio = disk.ms / m.ms;
      const figures =
        `${mbps(m.ms).toFixed(0).padStart(5)} MB/s (${m.ms.toFixed(0)} ms, CPU ` +
        `${m.cpu.toFixed(0)} ms)`;
      const shares =
        key === 'disk'
          ? ''
          : `: ${(ratio * 100).toFixed(0)} %, by CPU ${((disk.cpu / m.cpu) * 100).toFixed(0)} %` +
            (target
              ? ` (target ≥ ${TARGET * 100} %: ${ratio >= TARGET ? 'ok' : 'MISSES TARGET'})`
              : '');
      console.log(`      ${label.padEnd(52)}${figures}${shares}`);
    };
    console.log(
      `   ${OUTPUTS} outputs × ${SIZE / MB} MB, medians of ${RUNS}` +
        (gc ? '' : ' (no GC between runs: run node with --expose-gc)') +
        "; CPU: this process's (the server, and the disk read)",
    );
    line('disk read (the baseline)', 'disk');
    line('ZIP over HTTP, CRC-32 stored with the outputs', 'stored', true);
    line('ZIP over HTTP, older rows (CRC-32 as they stream)', 'older', true);
    line('for scale: the files over HTTP, no archive', 'plain');
    console.log('      read in this process too (its CPU is then the reader’s as well):');
    line('  ZIP, CRC-32 stored', 'stored here');
    line('  ZIP, older rows', 'older here');
    console.log(`   load average after: ${loadAverage()} (2 cores, shared)`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** GETs `url`, discarding the bytes: the time to the last byte and how many came. */
function readAll(url: string): Promise<{ ms: number; got: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let got = 0;
    http
      .get(url, (res) => {
        res.on('data', (chunk: Buffer) => (got += chunk.length));
        res.on('end', () => resolve({ ms: performance.now() - start, got }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

if (process.argv.includes('--reader')) {
  // The reader process: reads each URL it is sent and answers the time and the bytes.
  process.on('message', (url: string) => {
    readAll(url).then(
      (reply) => process.send!(reply),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
