import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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
 *   `#vendor-slow` (10× the steps);
 * - `failRequests(n, {status, route, afterWork})`: the next n requests answer `status` (500), with
 *   `afterWork` the work is done first (a submit whose answer is lost);
 * - `hold()` / `release()`: nothing starts or advances meanwhile.
 */
const exec = promisify(execFile);

export type FakeJobType = 'image_clone' | 'voice_clone' | 'speech' | 'video';
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

const MAGIC = { fail: '#vendor-fail', transient: '#vendor-fail-transient', slow: '#vendor-slow' };

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
        const response = await fetch(job.callbackUrl, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(5_000),
        });
        status = response.status;
        await response.text();
      } catch (error) {
        status = String(error);
      }
      callbacks.push({ url: job.callbackUrl, body, headers, status });
    }
  }

  async function download(url: unknown, name: string, jobDir: string): Promise<string> {
    if (typeof url !== 'string')
      throw Object.assign(new Error(`${name}: no URL`), { code: 'input_invalid' });
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (!response.ok || bytes.length === 0) {
      throw Object.assign(new Error(`${name}: HTTP ${response.status} from ${url}`), {
        code: 'input_unreachable',
      });
    }
    const file = path.join(jobDir, name);
    await fs.writeFile(file, bytes);
    return file;
  }

  const ffmpeg = (args: string[]) => exec('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
  const probe = async (file: string) => {
    const { stdout } = await exec('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]);
    const parsed = JSON.parse(stdout) as {
      streams: { width?: number; height?: number }[];
      format: { duration?: string };
    };
    const video = parsed.streams.find((s) => s.width);
    return {
      width: video?.width ?? 0,
      height: video?.height ?? 0,
      duration: Number(parsed.format.duration ?? 0),
    };
  };
  const even = (n: unknown, fallback: number) =>
    typeof n === 'number' && n > 0 ? Math.max(2, Math.round(n / 2) * 2) : fallback;

  /** Real result files made from the downloaded inputs. */
  async function produce(job: FakeJob): Promise<Record<string, unknown>> {
    const jobDir = path.join(dir, job.id);
    await fs.mkdir(jobDir, { recursive: true });
    const fileUrl = (name: string) => `${url}/files/${job.id}/${name}`;
    const input = job.input;
    if (job.type === 'image_clone') {
      const source = await download(input.video_url, 'source', jobDir);
      await ffmpeg([
        '-i',
        source,
        '-frames:v',
        '1',
        '-q:v',
        '4',
        '-f',
        'mjpeg',
        path.join(jobDir, 'poster.jpg'),
      ]);
      await ffmpeg([
        '-i',
        source,
        '-t',
        '1',
        '-an',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        path.join(jobDir, 'loop.mp4'),
      ]);
      const facts = await probe(path.join(jobDir, 'loop.mp4'));
      return {
        avatar_id: `avatar-${job.id}`,
        poster_url: fileUrl('poster.jpg'),
        loop_url: fileUrl('loop.mp4'),
        width: facts.width,
        height: facts.height,
      };
    }
    if (job.type === 'voice_clone') {
      await download(input.audio_url, 'sample', jobDir);
      return { voice_id: `voice-${job.id}` };
    }
    if (job.type === 'speech') {
      const speed = typeof input.speed === 'number' && input.speed > 0 ? input.speed : 1;
      const duration = Math.max(0.5, Math.min(60, (String(input.text).length * 0.12) / speed));
      await ffmpeg([
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=220:duration=${duration.toFixed(2)}`,
        '-ar',
        '22050',
        '-ac',
        '1',
        path.join(jobDir, 'speech.wav'),
      ]);
      return { audio_url: fileUrl('speech.wav'), duration: Number(duration.toFixed(2)) };
    }
    const avatar = (input.avatar ?? {}) as Record<string, unknown>;
    const speech = await download(input.speech_url, 'speech', jobDir);
    await download(avatar.poster_url, 'avatar-poster', jobDir);
    if (input.music_url) await download(input.music_url, 'music', jobDir);
    const width = even(input.width, 360);
    const height = even(input.height, 640);
    const { duration } = await probe(speech);
    await ffmpeg([
      ...['-f', 'lavfi', '-i', `color=c=navy:s=${width}x${height}:r=25`, '-i', speech],
      ...[
        '-t',
        duration.toFixed(3),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ],
      ...['-c:a', 'aac', '-shortest', path.join(jobDir, 'video.mp4')],
    ]);
    await ffmpeg([
      '-i',
      path.join(jobDir, 'video.mp4'),
      '-frames:v',
      '1',
      '-f',
      'mjpeg',
      path.join(jobDir, 'poster.jpg'),
    ]);
    const facts = await probe(path.join(jobDir, 'video.mp4'));
    return {
      video_url: fileUrl('video.mp4'),
      poster_url: fileUrl('poster.jpg'),
      duration: facts.duration,
      width: facts.width,
      height: facts.height,
    };
  }

  async function finish(job: FakeJob) {
    if (job.outcome) {
      job.state = 'failed';
      job.error = job.outcome;
    } else {
      try {
        job.result = await produce(job);
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

/**
 * A plain file host for the vendor's inputs (what our signed file URLs are in the app): serves
 * the files registered with `add` at random URLs, and counts the fetches.
 */
export async function startFileHost() {
  const files = new Map<string, string>();
  const fetches: string[] = [];
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    fetches.push(name);
    const file = files.get(name);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    createReadStream(file)
      .on('error', () => res.writeHead(404).end())
      .pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    fetches,
    /** The URL of a local file. */
    add(file: string): string {
      const name = `${randomBytes(8).toString('hex')}${path.extname(file)}`;
      files.set(name, file);
      return `${base}/${name}`;
    },
    /** A URL nobody serves (404). */
    missing: () => `${base}/missing-${randomBytes(4).toString('hex')}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
