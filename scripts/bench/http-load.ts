// Load generation for bench section d: a keep-alive HTTP client that asks like a browser (it
// accepts compressed replies), closed-loop clients, percentiles, and a process's memory from /proc.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

export const BROWSER_ENCODINGS = 'gzip, deflate, br';

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface Reply<T = unknown> {
  status: number;
  json: Envelope<T>;
}

export interface RawReply {
  status: number;
  encoding: string | undefined;
  body: Buffer;
}

/** The `{code, msg, data}` of a reply, decompressed as a browser would. */
export function parseReply<T = unknown>(reply: RawReply): Reply<T> {
  const body = decode(reply.encoding, reply.body);
  return { status: reply.status, json: JSON.parse(body.toString('utf8')) as Envelope<T> };
}

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

/** Requests to one server over at most `sockets` kept-alive connections. */
export class ApiClient {
  private readonly agent: http.Agent;

  constructor(
    private readonly base: string,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Starts a request and resolves with the response, unread (the caller consumes it). */
  open(method: string, path: string, options: CallOptions = {}): Promise<http.IncomingMessage> {
    const qs = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.base}${path}${qs}`,
        {
          method,
          agent: this.agent,
          headers: {
            'accept-encoding': BROWSER_ENCODINGS,
            ...(options.token ? { token: options.token } : {}),
            ...(payload === undefined
              ? {}
              : {
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(payload)),
                }),
            ...options.headers,
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A request read to its end, the body as received (maybe compressed). */
  async fetch(method: string, path: string, options?: CallOptions): Promise<RawReply> {
    const res = await this.open(method, path, options);
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return {
      status: res.statusCode ?? 0,
      encoding: res.headers['content-encoding'],
      body: Buffer.concat(chunks),
    };
  }

  /** An API call: the `{code, msg, data}` reply, decompressed and parsed. */
  async call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<Reply<T>> {
    return parseReply<T>(await this.fetch(method, path, options));
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  latencies: number[];
  failures: string[];
  seconds: number;
}

/**
 * `clients` closed-loop clients (each sends its next request when the previous one answered)
 * share `total` requests; `one(i)` sends request i and returns a failure message or undefined.
 */
export async function closedLoop(
  clients: number,
  total: number,
  one: (i: number) => Promise<string | undefined>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const i = next++;
        const start = performance.now();
        const failure = await one(i).catch((error: unknown) => String(error));
        latencies.push(performance.now() - start);
        if (failure) failures.push(failure);
      }
    }),
  );
  return { latencies, failures, seconds: (performance.now() - t0) / 1000 };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** VmRSS and VmHWM (peak RSS) of a process, in bytes. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

/**
 * CPU time a process has used so far, in ms: the sum over its threads (the main thread, and libuv's
 * pool where compression runs) of /proc/<pid>/task/<tid>/schedstat's first field (ns on a CPU).
 */
export function cpuTimeOf(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e6;
}

/** Resets a process's peak RSS to its current RSS (Linux ≥ 4.0); false when not allowed. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the largest sample. */
export function sampleRss(pid: number, everyMs: number): () => { max: number; samples: number } {
  let max = memoryOf(pid).rss;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, memoryOf(pid).rss);
      samples += 1;
    } catch {
      // the process ended: keep what was seen
    }
  }, everyMs);
  return () => {
    clearInterval(timer);
    return { max, samples };
  };
}

export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

// ---- what the load generators print (their figures and format)

export const pad = (s: unknown, n: number) => String(s).padEnd(n);
export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const sec = (v: number) => `${v.toFixed(2)} s`;
export const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** `<n> requests, p50 <ms>, p95 <ms>` of a measure's latencies. */
export const requestsP50P95 = (latencies: number[]) =>
  `${latencies.length} requests, p50 ${ms(median(latencies))}, p95 ${ms(percentile(latencies, 95))}`;

/** A measure of the summary: beside its baseline, the ratio, the target and whether it is met. */
export interface SummaryRow {
  measure: string;
  baseline: string;
  measured: string;
  ratio: string;
  target: string;
  /** undefined: reported without a target. */
  met?: boolean;
}

/** The summary table (after the caller's title line), the measures' column `width` wide. */
export function printSummary(rows: SummaryRow[], width: number): void {
  console.log(
    `      ${pad('measure', width)}${pad('baseline', 12)}${pad('measured', 12)}${pad('ratio', 9)}` +
      `${pad('target', 10)}verdict`,
  );
  for (const r of rows) {
    const verdict = r.met === undefined ? '(no target)' : r.met ? 'met' : 'NOT MET';
    console.log(
      `      ${pad(r.measure, width)}${pad(r.baseline, 12)}${pad(r.measured, 12)}${pad(r.ratio, 9)}` +
        `${pad(r.target, 10)}${verdict}`,
    );
  }
}

/**
 * An endpoint's p95 while the server works (`busy`) against idle: the latencies and failures of
 * both, and the summary row (met when at most `target`×, nothing failed, something was measured
 * while busy and `alsoMet`).
 */
export function busyVsIdle(
  measure: string,
  idle: LoadResult[],
  busy: LoadResult[],
  target: number,
  alsoMet = true,
) {
  const i = idle.flatMap((x) => x.latencies);
  const b = busy.flatMap((x) => x.latencies);
  const failures = [...idle, ...busy].flatMap((x) => x.failures);
  const ratio = percentile(b, 95) / percentile(i, 95);
  const row: SummaryRow = {
    measure,
    baseline: ms(percentile(i, 95)),
    measured: ms(percentile(b, 95)),
    ratio: `${ratio.toFixed(2)}×`,
    target: `≤ ${target}×`,
    met: ratio <= target && failures.length === 0 && b.length > 0 && alsoMet,
  };
  return { idle: i, busy: b, failures, row };
}

/**
 * A list against a baseline in `rounds` alternating rounds (baseline, then list) of `perRound`
 * requests by `clients` closed-loop clients, with the server's CPU time (`pid`) each took.
 */
export async function alternatingRounds(
  pid: number,
  rounds: number,
  clients: number,
  perRound: number,
  baseline: (i: number) => Promise<string | undefined>,
  list: (i: number) => Promise<string | undefined>,
) {
  const base: LoadResult[] = [];
  const measured: LoadResult[] = [];
  const cpu = { base: 0, measured: 0 };
  for (let r = 0; r < rounds; r += 1) {
    let c0 = cpuTimeOf(pid);
    base.push(await closedLoop(clients, perRound, baseline));
    cpu.base += cpuTimeOf(pid) - c0;
    c0 = cpuTimeOf(pid);
    measured.push(await closedLoop(clients, perRound, list));
    cpu.measured += cpuTimeOf(pid) - c0;
  }
  const b = base.flatMap((x) => x.latencies);
  const m = measured.flatMap((x) => x.latencies);
  const failures = [...base, ...measured].flatMap((x) => x.failures);
  const cpuPerRequest = `${(cpu.base / b.length).toFixed(2)} / ${(cpu.measured / m.length).toFixed(2)} ms`;
  return { b, m, failures, cpuPerRequest, b95: percentile(b, 95), m95: percentile(m, 95) };
}

/**
 * One request of a timed run, with `token`: read to its end; the status of every reply is
 * checked, its envelope (decompressed and parsed) for one in ten, so that the load generator's
 * own work stays small beside the server's. A failure message, or undefined.
 */
export const expectOk =
  (client: ApiClient, method: string, url: string, token: string, query?: Record<string, string>) =>
  async (i: number): Promise<string | undefined> => {
    const reply = await client.fetch(method, url, { token, query });
    if (reply.status !== 200) return `HTTP ${reply.status}`;
    if (i % 10 !== 0) return undefined;
    const { json } = parseReply(reply);
    return json.code === 1 ? undefined : json.msg;
  };

/** GET /platform/get_account with `token`: a failure message unless HTTP 200. */
export const trivialRequest =
  (client: ApiClient, token: string) => async (): Promise<string | undefined> => {
    const reply = await client.fetch('GET', '/platform/get_account', { token });
    return reply.status === 200 ? undefined : `HTTP ${reply.status}`;
  };

/**
 * Polls `GET url?id=` every `everyMs` until `finished` says so (throws on a refused call); the
 * last detail.
 */
export async function pollDetail<T>(
  client: ApiClient,
  token: string,
  url: string,
  id: number,
  finished: (detail: T) => boolean,
  everyMs: number,
): Promise<T> {
  for (;;) {
    const reply = await client.call<T>('GET', url, { token, query: { id: String(id) } });
    if (reply.status !== 200 || reply.json.code !== 1) {
      throw new Error(`detail answered ${reply.status} ${reply.json.msg}`);
    }
    if (finished(reply.json.data)) return reply.json.data;
    await sleep(everyMs);
  }
}

/** Runs a load generator's main: its error printed, exit code 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
