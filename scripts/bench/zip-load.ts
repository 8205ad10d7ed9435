// npm run bench, section z: "download all" — a ZIP of 20 outputs streamed over loopback HTTP vs
// reading the same 20 files from disk (target ≥ 80 %, docs/performance.md "Download all").
// The files go into the local storage adapter (DATA_DIR/files as the server keeps them). The ZIP
// is the server's own writer (server/platform/lib/zip-stream.ts `writeZip`) with the entries
// "download all" makes of its output rows (server/modules/video-tasks/download-all.ts
// `outputEntry`), served by a plain HTTP server in this process, which loads what the server's
// download loads (the storage adapters, the S3 SDK among them), as the server does. Three
// archives of the same files, alternating: outputs whose rows carry the CRC-32 computed when they
// were stored (as every output rendered since migration 0036), older rows without it
// (checksummed as they stream), and for scale the 20 files one after the other with no archive,
// as `GET /files/<key>` sends one (a read stream piped to the reply).
// The other side is a small process of its own that loads nothing of the server
// (scripts/bench/zip-reader.mjs): it reads the files from disk as Node reads a file by default
// (the baseline; for scale also into one buffer used again, the least reading them can cost),
// and reads each GET as a browser's network stack does (one buffer, used again).
// Wall time, and the CPU time of the server and of the reader. Medians of 7 after a warm-up; the
// load average before and after. Never fails on slow numbers; exits 1 only when it cannot measure.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { outputEntry } from '../../server/modules/video-tasks/download-all';
import {
  fileCrc32,
  writeZip,
  zipLength,
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

/** One timed run: wall time, the server's CPU time (this process), the reader's. */
interface Timed {
  ms: number;
  server: number;
  reader: number;
}

type ReaderReply = { ms: number; got: number; cpu: number } | { error: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(`   load average before: ${loadAverage()}`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vc-bench-zip-'));
  const reader = fork(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'zip-reader.mjs'),
    [],
    { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  let server: http.Server | undefined;
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
    /** The files as `GET /files/<key>` sends one (its read stream piped to the reply), in turn. */
    async function* plainFiles() {
      for (const { key } of rows) {
        for await (const chunk of (await storage.get(key))!.body) yield chunk as Buffer;
      }
    }
    type Kind = keyof typeof lengths;
    server = http.createServer((req, res) => {
      const kind = req.url!.slice(1) as Kind;
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': lengths[kind] });
      if (kind === 'plain') {
        Readable.from(plainFiles()).pipe(res);
        return;
      }
      // As the route does: the entries (a stat each) when the request comes, then the archive.
      entries(kind === 'stored')
        .then((e) => writeZip(e, new Date(), res))
        .catch((error: unknown) => {
          console.error(error);
          res.destroy();
        });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };

    /** A request to the reader, timed: its wall and CPU time, and this process's CPU time. */
    const ask = (request: object, expected: number) =>
      new Promise<Timed>((resolve, reject) => {
        const cpu = process.cpuUsage();
        reader.once('message', (reply: ReaderReply) => {
          const used = process.cpuUsage(cpu);
          if ('error' in reply) reject(new Error(reply.error));
          else if (reply.got !== expected) {
            reject(new Error(`${JSON.stringify(request)}: ${reply.got} of ${expected} bytes`));
          } else
            resolve({ ms: reply.ms, server: (used.user + used.system) / 1000, reader: reply.cpu });
        });
        reader.send(request);
      });
    const paths = rows.map((r) => storage.localFiles!.path(r.key));
    const disk = () => ask({ disk: paths }, total);
    const inPlace = () => ask({ inPlace: paths }, total);
    const get = (kind: Kind) => ask({ get: `http://127.0.0.1:${port}/${kind}` }, lengths[kind]);

    // Warm everything (page cache, JIT).
    await disk();
    for (const kind of ['stored', 'older', 'plain'] as const) await get(kind);
    const runs = new Map<string, Timed[]>();
    const add = async (label: string, run: () => Promise<Timed>) => {
      runs.set(label, [...(runs.get(label) ?? []), await run()]);
    };
    for (let r = 0; r < RUNS; r += 1) {
      await add('disk', disk);
      await add('stored', () => get('stored'));
      await add('older', () => get('older'));
      await add('plain', () => get('plain'));
      await add('in place', inPlace);
    }
    const of = (label: string) => {
      const list = runs.get(label)!;
      return {
        ms: median(list.map((x) => x.ms)),
        server: median(list.map((x) => x.server)),
        reader: median(list.map((x) => x.reader)),
      };
    };
    const baseline = of('disk');
    const mbps = (ms: number) => total / MB / (ms / 1000);
    const line = (label: string, key: string, target = false) => {
      const m = of(key);
      const ratio = baseline.ms / m.ms;
      const cpu =
        key === 'disk' || key === 'in place'
          ? `reader ${m.reader.toFixed(0)}`
          : `server ${m.server.toFixed(0)}, reader ${m.reader.toFixed(0)}`;
      const speed = `${mbps(m.ms).toFixed(0).padStart(5)} MB/s`;
      const figures = `${speed} (${m.ms.toFixed(0)} ms; CPU ms: ${cpu})`;
      const share =
        key === 'disk'
          ? ''
          : `: ${(ratio * 100).toFixed(0)} %` +
            (target
              ? ` (target ≥ ${TARGET * 100} %: ${ratio >= TARGET ? 'ok' : 'MISSES TARGET'})`
              : '');
      console.log(`      ${label.padEnd(50)}${figures}${share}`);
    };
    console.log(`   ${OUTPUTS} outputs × ${SIZE / MB} MB, medians of ${RUNS}:`);
    line('disk read (the baseline)', 'disk');
    line('ZIP, CRC-32 stored with the outputs', 'stored', true);
    line('ZIP, older rows (CRC-32 as they stream)', 'older', true);
    line('for scale: the files as GET /files sends each', 'plain');
    line('for scale: the disk read into one buffer', 'in place');
    console.log(`   load average after: ${loadAverage()} (2 cores, shared)`);
  } finally {
    reader.kill();
    server?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
