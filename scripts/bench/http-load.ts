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
