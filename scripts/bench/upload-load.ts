// npm run bench, section f: uploads through the tus endpoint on loopback.
// - Throughput: 500 MB (the video limit) sent through tus in 64 MiB PATCH requests, against
//   writing the same bytes in the same chunks to a file directly (target ≥ 60 %).
// - Memory: the server's RSS growth (VmHWM after a peak reset, and sampled VmRSS) while 1 GB is
//   uploaded (two 500 MB uploads one after the other; a video may not be larger), target ≤ 50 MB.
// The server runs in a child process (scripts/bench/upload-server.ts) on a fresh data dir.
// Never fails on slow numbers; exits 1 only when it cannot measure.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startBenchServer } from './bench-setup';
import { memoryOf, resetPeak, sampleRss } from './http-load';

const MB = 1024 * 1024;
const UPLOAD_BYTES = 500 * MB;
const CHUNK = 64 * MB;
const BLOCK = randomBytes(4 * MB);
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 2);
const TARGET_RATIO = 0.6;
const TARGET_GROWTH_MB = 50;

const pad = (s: unknown, n: number) => String(s).padEnd(n);

/** Writes `length` bytes of BLOCK (repeated) into `sink`, honouring back-pressure. */
async function pour(sink: NodeJS.WritableStream, length: number): Promise<void> {
  let left = length;
  while (left > 0) {
    const piece = left >= BLOCK.length ? BLOCK : BLOCK.subarray(0, left);
    left -= piece.length;
    if (!sink.write(piece)) await new Promise((resolve) => sink.once('drain', resolve));
  }
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  length = 0,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    pour(req, length).then(() => req.end(), reject);
  });
}

/** One tus upload of `size` bytes in CHUNK PATCHes; answers its wall-clock ms. */
async function tusUpload(base: string, token: string, size: number): Promise<number> {
  const query = new URLSearchParams({ type: 'video', name: 'bench.mp4', size: String(size) });
  const granted = await send(base, 'GET', `/api/v1/upload/generate_sts_token?${query}`, { token });
  const reply = JSON.parse(granted.body) as {
    code: number;
    msg: string;
    data: { tus: { endpoint: string; headers: Record<string, string> } };
  };
  if (reply.code !== 1) throw new Error(`grant refused: ${reply.msg}`);
  const tusHeaders = { 'tus-resumable': '1.0.0', ...reply.data.tus.headers };
  const started = performance.now();
  const created = await send(base, 'POST', reply.data.tus.endpoint, {
    ...tusHeaders,
    'upload-length': String(size),
  });
  if (created.status !== 201) throw new Error(`tus POST answered ${created.status}`);
  const location = String(created.headers.location);
  for (let offset = 0; offset < size; offset += CHUNK) {
    const length = Math.min(CHUNK, size - offset);
    const patched = await send(
      base,
      'PATCH',
      location,
      {
        ...tusHeaders,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(length),
      },
      length,
    );
    if (patched.status !== 204) throw new Error(`tus PATCH answered ${patched.status}`);
  }
  return performance.now() - started;
}

/** The same bytes in the same chunks written to a file directly; answers its wall-clock ms. */
async function directWrite(file: string, size: number): Promise<number> {
  const started = performance.now();
  const sink = fs.createWriteStream(file);
  for (let offset = 0; offset < size; offset += CHUNK) {
    await pour(sink, Math.min(CHUNK, size - offset));
  }
  await new Promise<void>((resolve, reject) =>
    sink.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vc-bench-upload-'));
  const server = await startBenchServer('upload-server.ts', { BENCH_DATA_DIR: dataDir }, '');
  try {
    const token = await loginAs(server.base, 'merchant');
    await tusUpload(server.base, token, 8 * MB); // warm-up: code paths loaded, file store made
    await clearFiles(dataDir);

    const before = memoryOf(server.pid);
    const peakReset = resetPeak(server.pid);
    const stopSampling = sampleRss(server.pid, 20);
    const tusMs: number[] = [];
    const directMs: number[] = [];
    const direct = path.join(dataDir, 'direct.bin');
    for (let round = 0; round < ROUNDS; round += 1) {
      tusMs.push(await tusUpload(server.base, token, UPLOAD_BYTES));
      await clearFiles(dataDir);
      directMs.push(await directWrite(direct, UPLOAD_BYTES));
      await fsp.rm(direct, { force: true });
    }
    const sampled = stopSampling();
    const after = memoryOf(server.pid);
    const growth = (Math.max(sampled.max, peakReset ? after.hwm : 0) - before.rss) / MB;

    const rate = (ms: number) => UPLOAD_BYTES / MB / (ms / 1000);
    const best = (values: number[]) => Math.min(...values);
    const tusRate = rate(best(tusMs));
    const directRate = rate(best(directMs));
    const ratio = tusRate / directRate;
    console.log(
      `   ${pad('tus upload (500 MB, 64 MiB PATCHes)', 44)}${pad(`${tusRate.toFixed(0)} MB/s`, 12)}` +
        `runs ${tusMs.map((v) => `${(v / 1000).toFixed(2)} s`).join(', ')}`,
    );
    console.log(
      `   ${pad('the same bytes written to disk directly', 44)}${pad(`${directRate.toFixed(0)} MB/s`, 12)}` +
        `runs ${directMs.map((v) => `${(v / 1000).toFixed(2)} s`).join(', ')}`,
    );
    console.log(
      `   ${pad('ratio (tus / direct)', 44)}${pad(`${(ratio * 100).toFixed(0)} %`, 12)}` +
        `${pad(`target ≥ ${TARGET_RATIO * 100} %`, 16)}${ratio >= TARGET_RATIO ? 'ok' : 'MISSES TARGET'}`,
    );
    console.log(
      `   ${pad(`server RSS growth over ${(ROUNDS * UPLOAD_BYTES) / MB} MB uploaded`, 44)}` +
        `${pad(`${growth.toFixed(1)} MB`, 12)}${pad(`target ≤ ${TARGET_GROWTH_MB} MB`, 16)}` +
        `${growth <= TARGET_GROWTH_MB ? 'ok' : 'MISSES TARGET'}` +
        `   (RSS ${(before.rss / MB).toFixed(0)} → peak ${(Math.max(sampled.max, after.hwm) / MB).toFixed(0)} MB, ` +
        `${sampled.samples} samples${peakReset ? ', VmHWM reset' : ''})`,
    );
  } finally {
    await server.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

async function loginAs(base: string, account: string): Promise<string> {
  const body = JSON.stringify({ account, password: 'Demo@2026' });
  const answer = await new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}/api/v1/platform/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
  const reply = JSON.parse(answer.body) as { code: number; data: { userinfo: { token: string } } };
  if (reply.code !== 1) throw new Error(`login failed: ${answer.body}`);
  return reply.data.userinfo.token;
}

/** Removes the uploaded files (keeps the disk small between rounds). */
async function clearFiles(dataDir: string): Promise<void> {
  await fsp.rm(path.join(dataDir, 'files', 'uploads'), { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
