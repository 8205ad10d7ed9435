import { createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeResults, spoilResults, type FakeJobType } from './fake-dh-vendor-results';

/**
 * A fake digital-human vendor for tests: a real node:http server on a random port speaking the
 * protocol of docs/digital-human-vendor.md (and nothing of our code: it signs and answers on its
 * own). It queues jobs (`concurrency` at a time, the others with queue positions), advances their
 * progress by ticks, makes real result files with ffmpeg from the inputs it downloads from the
 * given URLs, fails on demand, calls back `callbackCopies` times (2: duplicates) when a job ends,
 * and records every request.
 *
 * Failing on demand:
 * - `failJobs({permanent})`: the next jobs (of a type) fail when they finish running;
 * - a magic word in any input string: `#vendor-fail` (permanent), `#vendor-fail-transient`,
 *   `#vendor-slow` (10× the steps), `#vendor-bad-files` (done, but its files are garbage);
 * - `failRequests(n, {status, route, afterWork})`: the next n requests answer `status` (500), with
 *   `afterWork` the work is done first (a submit whose answer is lost);
 * - `hold()` / `release()`: nothing starts or advances meanwhile.
 *
 * Use:
 * ```ts
 * const vendor = await startFakeVendor({ stepMs: 20 }); // or with fetchInput / deliverCallback
 * const provider = createHttpProvider({ baseUrl: vendor.url, apiKey: vendor.apiKey,
 *   callbackSecret: vendor.callbackSecret, callbackUrl, pollIntervalMs: 20 });
 * // … vendor.submitted(), vendor.requestsTo('POST', '/v1/jobs'), vendor.jobs, vendor.callbacks
 * await vendor.idle(); await vendor.stop();
 * ```
 * Result files are made by fake-dh-vendor-results.ts; fake-dh-file-host.ts serves input files
 * at URLs when a test has no app listening.
 */

export type { FakeJobType };
export type FakeJobState = 'queued' | 'running' | 'done' | 'failed';
type Route = 'submit' | 'status' | 'files' | 'any';

export interface FakeVendorOptions {
  apiKey?: string;
  callbackSecret?: string;
  /** One progress step per tick of this many ms (default 40). */
  stepMs?: number;
  /** Steps from start to finish (default 3). */
  steps?: number;
  /** Jobs running at once (default 1). */
  concurrency?: number;
  /** Callbacks sent for each finished job (default 2: every callback is duplicated). */
  callbackCopies?: number;
  /**
   * How the vendor fetches an input URL (default: a real `fetch`). A test whose app does not
   * listen can serve its signed file URLs through `app.inject` here.
   */
  fetchInput?: (url: string) => Promise<{ status: number; body: Buffer }>;
  /**
   * How a callback is delivered (default: a real `POST` to `callback_url`); answers the
   * receiver's status. A test can route it through `app.inject`.
   */
  deliverCallback?: (request: {
    url: string;
    headers: Record<string, string>;
    body: string;
  }) => Promise<number>;
}

export interface FakeJob {
  id: string;
  type: FakeJobType;
  input: Record<string, unknown>;
  callbackUrl: string | null;
  idempotencyKey: string | null;
  state: FakeJobState;
  step: number;
  steps: number;
  progress: number;
  error: { code: string; message: string; permanent: boolean } | null;
  result: Record<string, unknown> | null;
  /** Planned at submit: how the job ends. */
  outcome: { permanent: boolean; code: string; message: string } | null;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface DeliveredCallback {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The receiver's HTTP status, or the error when it could not be reached. */
  status: number | string;
}

const MAGIC = {
  fail: '#vendor-fail',
  transient: '#vendor-fail-transient',
  slow: '#vendor-slow',
  badFiles: '#vendor-bad-files',
};

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : [];

const REQUIRED: Record<FakeJobType, string[]> = {
  image_clone: ['video_url'],
  voice_clone: ['audio_url'],
  speech: ['text', 'voice_id'],
  video: ['speech_url', 'avatar'],
};

export async function startFakeVendor(options: FakeVendorOptions = {}) {
  const apiKey = options.apiKey ?? 'fake-vendor-key';
  const callbackSecret = options.callbackSecret ?? 'fake-vendor-secret';
  const stepMs = options.stepMs ?? 40;
  const steps = options.steps ?? 3;
  const concurrency = options.concurrency ?? 1;
  const callbackCopies = options.callbackCopies ?? 2;
  const fetchInput =
    options.fetchInput ??
    (async (url: string) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    });
  const deliver =
    options.deliverCallback ??
    (async (request: { url: string; headers: Record<string, string>; body: string }) => {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(5_000),
      });
      await response.text();
      return response.status;
    });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fake-dh-vendor-'));

  const jobs = new Map<string, FakeJob>();
  const byKey = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const callbacks: DeliveredCallback[] = [];
  const busy = new Set<Promise<void>>();
  const plannedFailures: {
    type?: FakeJobType;
    permanent: boolean;
    code: string;
    message: string;
    count: number;
  }[] = [];
  let failing: { count: number; status: number; route: Route; afterWork: boolean } | null = null;
  let held = false;
  let created = 0;

  const track = (work: Promise<void>) => {
    busy.add(work);
    void work.finally(() => busy.delete(work));
  };

  const statusOf = (job: FakeJob) => ({
    job_id: job.id,
    type: job.type,
    state: job.state,
    queue_position:
      job.state === 'queued'
        ? [...jobs.values()].filter((j) => j.state === 'queued').indexOf(job) + 1
        : job.state === 'running'
          ? 0
          : null,
    progress: job.progress,
    error: job.error,
    result: job.result,
  });

  const sign = (timestamp: string, body: string) =>
    `sha256=${createHmac('sha256', callbackSecret).update(`${timestamp}.${body}`).digest('hex')}`;

  async function callBack(job: FakeJob) {
    if (!job.callbackUrl) return;
    for (let copy = 0; copy < callbackCopies; copy += 1) {
      const body = JSON.stringify(statusOf(job));
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = {
        'content-type': 'application/json',
        'x-dh-timestamp': timestamp,
        'x-dh-signature': sign(timestamp, body),
      };
      let status: number | string;
      try {
        status = await deliver({ url: job.callbackUrl, headers, body });
      } catch (error) {
        status = String(error);
      }
      callbacks.push({ url: job.callbackUrl, body, headers, status });
    }
  }

  async function finish(job: FakeJob) {
    if (job.outcome) {
      job.state = 'failed';
      job.error = job.outcome;
    } else {
      try {
        job.result = await makeResults(job, results);
        if (strings(job.input).join(' ').includes(MAGIC.badFiles)) await spoilResults(job, results);
        job.state = 'done';
        job.progress = 1;
      } catch (error) {
        job.state = 'failed';
        job.error = {
          code: (error as { code?: string }).code ?? 'production_failed',
          message: (error as Error).message,
          permanent: true,
        };
      }
    }
    await callBack(job);
  }

  function tick() {
    if (held) return;
    const all = [...jobs.values()];
    for (const job of all.filter((j) => j.state === 'running' && j.step < j.steps)) {
      job.step += 1;
      job.progress = Math.min(0.99, Number((job.step / job.steps).toFixed(2)));
      if (job.step === job.steps) track(finish(job));
    }
    let running = all.filter((j) => j.state === 'running').length;
    for (const job of all.filter((j) => j.state === 'queued')) {
      if (running >= concurrency) break;
      job.state = 'running';
      running += 1;
    }
  }
  const timer = setInterval(tick, stepMs);

  function plan(
    type: FakeJobType,
    input: Record<string, unknown>,
  ): Pick<FakeJob, 'outcome' | 'steps'> {
    const words = strings(input).join(' ');
    const slow = words.includes(MAGIC.slow) ? 10 : 1;
    if (words.includes(MAGIC.transient)) {
      return {
        steps: steps * slow,
        outcome: { permanent: false, code: 'busy', message: 'The vendor is overloaded' },
      };
    }
    if (words.includes(MAGIC.fail)) {
      return {
        steps: steps * slow,
        outcome: { permanent: true, code: 'rejected', message: 'The input was rejected' },
      };
    }
    const planned = plannedFailures.find((f) => f.count > 0 && (!f.type || f.type === type));
    if (planned) planned.count -= 1;
    return {
      steps: steps * slow,
      outcome: planned
        ? { permanent: planned.permanent, code: planned.code, message: planned.message }
        : null,
    };
  }

  const reply = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  type Answer = [status: number, body: unknown];
  const refusal = (status: number, code: string, message: string): Answer => [
    status,
    { error: { code, message } },
  ];

  function submit(req: http.IncomingMessage, body: string): Answer {
    let parsed: { type?: unknown; input?: unknown; callback_url?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      return refusal(400, 'bad_json', 'The body is not JSON');
    }
    const type = parsed.type as FakeJobType;
    if (typeof type !== 'string' || !(type in REQUIRED)) {
      return refusal(400, 'bad_type', `Unknown job type ${String(type)}`);
    }
    const input = (parsed.input ?? {}) as Record<string, unknown>;
    const missing = REQUIRED[type].filter((k) => input[k] === undefined || input[k] === null);
    if (missing.length) return refusal(422, 'input_invalid', `Missing ${missing.join(', ')}`);
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' && key ? key : null;
    const known = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
    if (known) return [200, { job_id: known }];
    const job: FakeJob = {
      id: `job-${randomBytes(6).toString('hex')}`,
      type,
      input,
      callbackUrl: typeof parsed.callback_url === 'string' ? parsed.callback_url : null,
      idempotencyKey,
      state: 'queued',
      step: 0,
      progress: 0,
      error: null,
      result: null,
      ...plan(type, input),
    };
    jobs.set(job.id, job);
    created += 1;
    if (idempotencyKey) byKey.set(idempotencyKey, job.id);
    return [201, { job_id: job.id }];
  }

  /** The API's answer to an authenticated request. */
  function answer(route: Route, req: http.IncomingMessage, body: string, pathname: string): Answer {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return refusal(401, 'unauthorized', 'Wrong or missing API key');
    }
    if (route === 'submit') return submit(req, body);
    const id = decodeURIComponent(pathname.slice('/v1/jobs/'.length));
    const job = req.method === 'GET' ? jobs.get(id) : undefined;
    return job ? [200, statusOf(job)] : refusal(404, 'not_found', 'No such job');
  }

  async function serveFile(pathname: string, res: http.ServerResponse) {
    const [, files, jobId, name] = pathname.split('/');
    const file =
      files === 'files' && jobId && name && !name.includes('..') ? path.join(dir, jobId, name) : '';
    const stat = file ? await fs.stat(file).catch(() => null) : null;
    if (!stat) return reply(res, 404, { error: { code: 'not_found', message: 'No such file' } });
    res.writeHead(200, { 'content-length': stat.size });
    createReadStream(file).pipe(res);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ method: req.method ?? '', path: pathname, headers: req.headers, body });
    const route: Route =
      req.method === 'POST' && pathname === '/v1/jobs'
        ? 'submit'
        : pathname.startsWith('/v1/jobs/')
          ? 'status'
          : 'files';
    const fail = failing && (failing.route === 'any' || failing.route === route) ? failing : null;
    if (fail) {
      fail.count -= 1;
      if (fail.count <= 0) failing = null;
      // `afterWork`: the vendor does it (a job is made), but its answer is lost.
      if (fail.afterWork && route !== 'files') answer(route, req, body, pathname);
      return reply(res, fail.status, { error: { code: 'unavailable', message: 'Fake outage' } });
    }
    if (route === 'files') return serveFile(pathname, res);
    const [status, payload] = answer(route, req, body, pathname);
    reply(res, status, payload);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      reply(res, 500, { error: { code: 'fake_bug', message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const results = { dir, baseUrl: url, fetchInput };

  return {
    /** The base URL (`DH_BASE_URL`). */
    url,
    apiKey,
    callbackSecret,
    jobs: jobs as ReadonlyMap<string, FakeJob>,
    requests,
    callbacks,
    /** Jobs created (a submit replayed with a known idempotency key creates none). */
    submitted: () => created,
    /** Requests of a route (`POST /v1/jobs`: submits, replays included). */
    requestsTo: (method: string, prefix: string) =>
      requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
    /** The next `count` (default: every) jobs, of `type` if given, fail when they finish running. */
    failJobs(failure: {
      permanent: boolean;
      type?: FakeJobType;
      count?: number;
      code?: string;
      message?: string;
    }) {
      plannedFailures.push({
        type: failure.type,
        permanent: failure.permanent,
        count: failure.count ?? Infinity,
        code: failure.code ?? (failure.permanent ? 'rejected' : 'busy'),
        message:
          failure.message ??
          (failure.permanent ? 'The input was rejected' : 'The vendor is overloaded'),
      });
    },
    /** The next `count` requests (of `route`) answer `status`; `afterWork`: after doing the work. */
    failRequests(count: number, how: { status?: number; route?: Route; afterWork?: boolean } = {}) {
      failing = {
        count,
        status: how.status ?? 500,
        route: how.route ?? 'any',
        afterWork: how.afterWork ?? false,
      };
    },
    /** Nothing starts or advances until `release()`. */
    hold() {
      held = true;
    },
    release() {
      held = false;
    },
    /** Resolves when no job is queued or running and every callback was sent. */
    async idle(timeoutMs = 30_000): Promise<void> {
      const end = Date.now() + timeoutMs;
      while (
        [...jobs.values()].some((j) => j.state === 'queued' || j.state === 'running') ||
        busy.size
      ) {
        if (Date.now() > end) throw new Error('fake vendor: jobs still running');
        await new Promise((r) => setTimeout(r, stepMs));
      }
    },
    /** Stops the server and removes its files (waits for work in progress). */
    async stop(): Promise<void> {
      clearInterval(timer);
      await Promise.allSettled([...busy]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export type FakeVendor = Awaited<ReturnType<typeof startFakeVendor>>;
