import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config';
import { createDigitalHumanProvider } from '../../server/integrations/digital-human';
import {
  createHttpProvider,
  type HttpProviderOptions,
} from '../../server/integrations/digital-human/http';
import {
  ProviderError,
  type DigitalHumanProvider,
  type ProviderProgress,
  type ProviderRun,
  type VendorCallback,
} from '../../server/integrations/digital-human/types';
import { startFileHost } from './fake-dh-file-host';
import { startFakeVendor, type FakeVendor } from './fake-dh-vendor';
import { fixture } from './media-fixtures';

/**
 * The HTTP vendor adapter against the fake vendor (a real HTTP server speaking
 * docs/digital-human-vendor.md): every operation end to end, resuming, idempotent submits, the
 * vendor's failures, aborts and the callbacks' signatures.
 */
const exec = promisify(execFile);

let vendor: FakeVendor;
let files: Awaited<ReturnType<typeof startFileHost>>;
let receiver: http.Server;
let callbackUrl: string;
/** The provider the callback receiver hands callbacks to, and what it answered. */
let current: DigitalHumanProvider | null = null;
const parsed: (VendorCallback | null)[] = [];
let clip: string;
let tone: string;
let workDir: string;

beforeAll(async () => {
  [vendor, files, clip, tone] = await Promise.all([
    startFakeVendor({ stepMs: 30 }),
    startFileHost(),
    fixture('clip.mp4'),
    fixture('tone.wav'),
  ]);
  // Our callback route's stand-in: raw body and headers to parseCallback.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const result = await current?.parseCallback(
        Buffer.concat(chunks).toString('utf8'),
        req.headers,
      );
      parsed.push(result ?? null);
      res.writeHead(result ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await vendor?.stop();
  await files?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dh-http-test-'));
  parsed.length = 0;
});

afterEach(async () => {
  vendor.release();
  await vendor.idle();
  await fs.rm(workDir, { recursive: true, force: true });
});

function provider(over: Partial<HttpProviderOptions> = {}): DigitalHumanProvider {
  current = createHttpProvider({
    baseUrl: vendor.url,
    apiKey: vendor.apiKey,
    callbackSecret: vendor.callbackSecret,
    callbackUrl,
    pollIntervalMs: 20,
    maxPollMs: 100,
    retryDelayMs: 10,
    ...over,
  });
  return current;
}

/** A run that records what the provider reported. */
function recordingRun(over: Partial<ProviderRun> = {}) {
  const progress: ProviderProgress[] = [];
  const submitted: string[] = [];
  const run: ProviderRun = {
    workDir,
    onProgress: (update) => progress.push(update),
    onSubmitted: async (id) => {
      submitted.push(id);
    },
    ...over,
  };
  return { run, progress, submitted };
}

async function probe(file: string) {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  return JSON.parse(stdout) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    format: { duration: string };
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const speech = { language: 'en' as const, speed: 1, volume: 1, voice: { voice_id: 'v1' } };

describe('the http digital-human provider', () => {
  it('clones an image: submits once, reports the queue position and progress, downloads the files', async () => {
    const p = provider();
    const before = vendor.submitted();
    const { run, progress, submitted } = recordingRun();
    vendor.hold(); // a job ahead keeps ours queued at position 2
    const aheadRun = recordingRun();
    const ahead = p.synthesize({ ...speech, text: 'ahead' }, aheadRun.run);
    await expect.poll(() => aheadRun.submitted.length).toBe(1);
    const result = p.cloneImage({ video: { url: files.add(clip) }, tier: 'standard' }, run);
    await expect.poll(() => progress.some((u) => u.queuePosition === 2)).toBe(true);
    vendor.release();
    const clone = await result;
    await ahead;

    expect(vendor.submitted() - before).toBe(2);
    expect(submitted).toHaveLength(1);
    const job = vendor.jobs.get(submitted[0]);
    expect(job?.type).toBe('image_clone');
    expect(job?.input).toMatchObject({ tier: 'standard' });
    expect(clone).toMatchObject({
      width: 1280,
      height: 720,
      vendorRef: { avatar_id: `avatar-${submitted[0]}` },
    });
    expect(clone.posterPath).toBe(path.join(workDir, 'poster.jpg'));
    expect((await probe(clone.posterPath)).streams[0].codec_name).toBe('mjpeg');
    const loop = await probe(clone.loopPath);
    expect(loop.streams[0]).toMatchObject({ codec_type: 'video', width: 1280, height: 720 });
    // Queued, then running with progress, then done.
    expect(progress[0]).toMatchObject({ queuePosition: 2, progress: 0 });
    expect(
      progress.some((u) => u.queuePosition === 0 && (u.progress ?? 0) > 0 && (u.progress ?? 0) < 1),
    ).toBe(true);
    expect(progress.at(-1)).toEqual({ progress: 1, queuePosition: 0 });
    // Authenticated, with an idempotency key.
    const post = vendor.requestsTo('POST', '/v1/jobs').at(-1);
    expect(post?.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(post?.headers['idempotency-key']).toMatch(/.{8,}/);
    expect(JSON.parse(post?.body ?? '{}')).toMatchObject({
      type: 'image_clone',
      callback_url: callbackUrl,
    });
  });

  it('clones a voice and calls back twice, each callback verified', async () => {
    const p = provider();
    const { run, submitted } = recordingRun();
    const voice = await p.cloneVoice(
      { audio: { url: files.add(tone), path: tone }, gender: 'female' },
      run,
    );
    expect(voice.profile).toEqual({ voice_id: `voice-${submitted[0]}` });
    await vendor.idle();
    const mine = vendor.callbacks.filter((c) => c.body.includes(submitted[0]));
    expect(mine.map((c) => c.status)).toEqual([204, 204]);
    expect(parsed).toEqual([
      { vendorJobId: submitted[0], state: 'done' },
      { vendorJobId: submitted[0], state: 'done' },
    ]);
  });

  it('synthesizes speech into a WAV of the vendor length', async () => {
    const p = provider();
    const { run, submitted } = recordingRun({ idempotencyKey: 'dh_videos:7:1' });
    const text = 'Hello there, this is a test of speech.';
    const result = await p.synthesize({ ...speech, text, speed: 2 }, run);
    expect(result.audioPath).toBe(path.join(workDir, 'speech.wav'));
    expect(result.duration).toBeCloseTo((text.length * 0.12) / 2, 1);
    expect(vendor.jobs.get(submitted[0])?.input).toMatchObject({
      text,
      voice_id: 'v1',
      speed: 2,
      language: 'en',
    });
    expect(vendor.jobs.get(submitted[0])?.idempotencyKey).toBe('dh_videos:7:1');
  });

  it('renders a video: H.264 + AAC MP4 of the frame size and the speech length, with a poster', async () => {
    const p = provider();
    const { run, submitted } = recordingRun();
    const video = await p.renderVideo(
      {
        avatar: {
          poster: { url: files.add(clip) },
          loop: { url: files.add(clip) },
          vendorRef: { avatar_id: 'avatar-1' },
          width: 1280,
          height: 720,
        },
        speech: { url: files.add(tone), duration: 1 },
        text: 'Hello',
        subtitles: true,
        width: 360,
        height: 640,
        layout: { avatar: { x: 0, y: 0, width: 1, height: 1 } } as never,
      },
      run,
    );
    expect(video).toMatchObject({ width: 360, height: 640 });
    expect(video.duration).toBeCloseTo(1, 1);
    const facts = await probe(video.videoPath);
    expect(facts.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
      'audio:aac',
      'video:h264',
    ]);
    expect((await fs.stat(video.posterPath)).size).toBeGreaterThan(0);
    expect(vendor.jobs.get(submitted[0])?.input).toMatchObject({
      avatar: { avatar_id: 'avatar-1' },
      speech_duration: 1,
      music_url: null,
      background_url: null,
    });
  });

  it('resumes a recorded vendor job without submitting it again', async () => {
    const first = provider();
    const abort = new AbortController();
    const { run, submitted } = recordingRun({
      signal: abort.signal,
      onSubmitted: async (id) => {
        submitted.push(id);
        abort.abort(new Error('worker stopped'));
      },
    });
    vendor.hold();
    await expect(
      first.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run),
    ).rejects.toThrow('worker stopped');
    const posts = vendor.requestsTo('POST', '/v1/jobs').length;
    vendor.release();

    const again = recordingRun({ vendorJobId: submitted[0] });
    const voice = await provider().cloneVoice(
      { audio: { url: files.add(tone) }, gender: 'male' },
      again.run,
    );
    expect(voice.profile).toEqual({ voice_id: `voice-${submitted[0]}` });
    expect(again.submitted).toEqual([]);
    expect(vendor.requestsTo('POST', '/v1/jobs')).toHaveLength(posts);
  });

  it('a submit whose answer was lost is tried again with the same key and makes one job', async () => {
    const before = vendor.submitted();
    vendor.failRequests(1, { route: 'submit', afterWork: true });
    const { run, submitted } = recordingRun();
    await provider().cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run);
    expect(vendor.submitted() - before).toBe(1);
    const [a, b] = vendor.requestsTo('POST', '/v1/jobs').slice(-2);
    expect(a.headers['idempotency-key']).toBe(b.headers['idempotency-key']);
    expect(submitted).toHaveLength(1);
  });

  it('a job the vendor does not know on resume fails permanently, without a submit', async () => {
    const posts = vendor.requestsTo('POST', '/v1/jobs').length;
    const { run } = recordingRun({ vendorJobId: 'job-unknown' });
    const error = await rejection(
      provider().cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run),
    );
    expect(error).toMatchObject({ permanent: true, reasonParams: { status: 404 } });
    expect(vendor.requestsTo('POST', '/v1/jobs')).toHaveLength(posts);
  });

  it('a failed download is transient; the next attempt resumes the done job and downloads it', async () => {
    const { run, submitted } = recordingRun();
    const p = provider();
    const first = p.synthesize({ ...speech, text: 'download me' }, run);
    await expect.poll(() => submitted.length).toBe(1);
    vendor.failRequests(1, { route: 'files', status: 503 });
    const error = await rejection(first);
    expect(error.permanent).toBe(false);
    const posts = vendor.requestsTo('POST', '/v1/jobs').length;
    const again = recordingRun({ vendorJobId: submitted[0] });
    const result = await p.synthesize({ ...speech, text: 'download me' }, again.run);
    expect(result.duration).toBeGreaterThan(1);
    expect(vendor.requestsTo('POST', '/v1/jobs')).toHaveLength(posts);
  });

  it('result files that are not media fail permanently', async () => {
    const { run } = recordingRun();
    const error = await rejection(
      provider().synthesize({ ...speech, text: 'garbage #vendor-bad-files' }, run),
    );
    expect(error).toMatchObject({
      permanent: true,
      reasonId: 'digitalHuman.reason.vendorResultBad',
    });
  });

  it('rides out a few 500s while polling', async () => {
    const { run } = recordingRun();
    const p = provider();
    const result = p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run);
    await expect.poll(() => vendor.requestsTo('GET', '/v1/jobs/').length).toBeGreaterThan(0);
    vendor.failRequests(3, { route: 'status', status: 503 });
    await expect(result).resolves.toMatchObject({ profile: { voice_id: expect.any(String) } });
  });

  it('an outage at submit is a transient failure, without a job', async () => {
    const before = vendor.submitted();
    vendor.failRequests(3, { route: 'submit', status: 502 });
    const { run, submitted } = recordingRun();
    const error = await rejection(
      provider({ submitAttempts: 3 }).cloneVoice(
        { audio: { url: files.add(tone) }, gender: 'male' },
        run,
      ),
    );
    expect(error.permanent).toBe(false);
    expect(error.reasonId).toBe('digitalHuman.reason.vendorUnavailable');
    expect(vendor.submitted()).toBe(before);
    expect(submitted).toEqual([]);
  });

  it('a vendor that is down (connection refused) is a transient failure', async () => {
    const { run } = recordingRun();
    const p = provider({ baseUrl: 'http://127.0.0.1:9', submitAttempts: 1 });
    const error = await rejection(
      p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run),
    );
    expect(error.permanent).toBe(false);
  });

  it('a refused API key (401) needs re-authorisation: not retried, an admin sets the key', async () => {
    const { run } = recordingRun();
    const error = await rejection(
      provider({ apiKey: 'wrong' }).cloneVoice(
        { audio: { url: files.add(tone) }, gender: 'male' },
        run,
      ),
    );
    expect(error.kind).toBe('reauthorize');
    expect(error.permanent).toBe(true);
    expect(error.reasonId).toBe('digitalHuman.reason.vendorRefused');
    expect(error.reasonParams).toMatchObject({ status: 401, message: 'Wrong or missing API key' });
  });

  it('no API key at all needs re-authorisation, and nothing is sent', async () => {
    const posts = vendor.requestsTo('POST', '/v1/jobs').length;
    const { run } = recordingRun();
    const error = await rejection(
      provider({ apiKey: async () => undefined }).cloneVoice(
        { audio: { url: files.add(tone) }, gender: 'male' },
        run,
      ),
    );
    expect(error).toMatchObject({
      kind: 'reauthorize',
      reasonId: 'digitalHuman.reason.vendorNotConfigured',
    });
    expect(vendor.requestsTo('POST', '/v1/jobs')).toHaveLength(posts);
  });

  it('reads the API key at each call: a key changed between calls is the one sent', async () => {
    let key = 'wrong';
    const p = provider({ apiKey: async () => key });
    const first = await rejection(
      p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, recordingRun().run),
    );
    expect(first.kind).toBe('reauthorize');
    key = vendor.apiKey;
    await expect(
      p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, recordingRun().run),
    ).resolves.toMatchObject({ profile: { voice_id: expect.any(String) } });
  });

  it('a job the vendor fails permanently rejects permanently, with its message', async () => {
    vendor.failJobs({ permanent: true, type: 'voice_clone', count: 1, message: 'Too noisy' });
    const { run, submitted } = recordingRun();
    const error = await rejection(
      provider().cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run),
    );
    expect(submitted).toHaveLength(1);
    expect(error).toMatchObject({
      permanent: true,
      reasonId: 'digitalHuman.reason.vendorFailed',
      reasonParams: { message: 'Too noisy' },
    });
  });

  it('a job the vendor fails transiently rejects transiently', async () => {
    const { run } = recordingRun();
    const error = await rejection(
      provider().synthesize({ ...speech, text: 'busy #vendor-fail-transient' }, run),
    );
    expect(error.permanent).toBe(false);
    expect(error.reasonId).toBe('digitalHuman.reason.vendorFailed');
  });

  it('an input the vendor cannot fetch fails the job permanently', async () => {
    const { run } = recordingRun();
    const error = await rejection(
      provider().cloneImage({ video: { url: files.missing() }, tier: 'standard' }, run),
    );
    expect(error.permanent).toBe(true);
    expect(error.message).toMatch(/input_unreachable/);
  });

  it('an input with only a local path is refused before anything is sent', async () => {
    const posts = vendor.requestsTo('POST', '/v1/jobs').length;
    const { run } = recordingRun();
    const error = await rejection(
      provider().cloneImage({ video: { path: clip }, tier: 'standard' }, run),
    );
    expect(error).toMatchObject({ permanent: true, reasonId: 'digitalHuman.reason.inputNoUrl' });
    expect(error.message).toContain(clip);
    const other = await rejection(
      provider().synthesize({ ...speech, voice: { pitch: 50 }, text: 'hi' }, run),
    );
    expect(other).toMatchObject({
      permanent: true,
      reasonId: 'digitalHuman.reason.voiceOtherProvider',
    });
    expect(vendor.requestsTo('POST', '/v1/jobs')).toHaveLength(posts);
  });

  it('stops waiting at once when aborted, leaving the vendor job to be resumed', async () => {
    vendor.hold();
    const abort = new AbortController();
    const { run, submitted } = recordingRun({ signal: abort.signal });
    const p = provider({ pollIntervalMs: 5_000 });
    const result = p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run);
    await expect.poll(() => submitted.length).toBe(1);
    const started = Date.now();
    abort.abort(new Error('shutting down'));
    await expect(result).rejects.toThrow('shutting down');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(vendor.jobs.get(submitted[0])?.state).toBe('queued');
  });

  it('a verified callback wakes the waiting run before its next poll', async () => {
    const { run } = recordingRun();
    const p = provider({ pollIntervalMs: 20_000, maxPollMs: 20_000 });
    const started = Date.now();
    await p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'male' }, run);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('the vendor callback check', async () => {
  const secret = 'callback-secret';
  const body = JSON.stringify({ job_id: 'job-1', state: 'done', progress: 1 });
  const now = Date.parse('2026-11-26T06:00:00Z');
  const seconds = String(Math.floor(now / 1000));
  const sign = (key: string, timestamp: string, raw: string) =>
    `sha256=${createHmac('sha256', key).update(`${timestamp}.${raw}`).digest('hex')}`;
  const p = () =>
    createHttpProvider({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      callbackSecret: secret,
      callbackUrl: 'x',
      now: () => now,
    });

  it('accepts a good signature within the window', async () => {
    const headers = { 'x-dh-timestamp': seconds, 'x-dh-signature': sign(secret, seconds, body) };
    expect(await p().parseCallback(body, headers)).toEqual({ vendorJobId: 'job-1', state: 'done' });
  });

  it('refuses a bad signature, another secret, a changed body or timestamp', async () => {
    const good = sign(secret, seconds, body);
    expect(
      await p().parseCallback(body, { 'x-dh-timestamp': seconds, 'x-dh-signature': 'sha256=00' }),
    ).toBeNull();
    expect(
      await p().parseCallback(body, {
        'x-dh-timestamp': seconds,
        'x-dh-signature': sign('other', seconds, body),
      }),
    ).toBeNull();
    expect(
      await p().parseCallback(body.replace('done', 'failed'), {
        'x-dh-timestamp': seconds,
        'x-dh-signature': good,
      }),
    ).toBeNull();
    expect(
      await p().parseCallback(body, {
        'x-dh-timestamp': String(Number(seconds) + 1),
        'x-dh-signature': good,
      }),
    ).toBeNull();
    expect(await p().parseCallback(body, { 'x-dh-signature': good })).toBeNull();
    expect(await p().parseCallback(body, {})).toBeNull();
  });

  it('refuses a stale or future timestamp (a replay), even correctly signed', async () => {
    for (const offset of [-301, 301, -3600]) {
      const ts = String(Number(seconds) + offset);
      expect(
        await p().parseCallback(body, {
          'x-dh-timestamp': ts,
          'x-dh-signature': sign(secret, ts, body),
        }),
      ).toBeNull();
    }
    const edge = String(Number(seconds) - 299);
    expect(
      await p().parseCallback(body, {
        'x-dh-timestamp': edge,
        'x-dh-signature': sign(secret, edge, body),
      }),
    ).not.toBeNull();
  });

  it('refuses a signed body that is not a callback', async () => {
    const raw = JSON.stringify({ hello: 'world' });
    expect(
      await p().parseCallback(raw, {
        'x-dh-timestamp': seconds,
        'x-dh-signature': sign(secret, seconds, raw),
      }),
    ).toBeNull();
  });
});

describe('the fake vendor', () => {
  it('can fetch inputs and deliver callbacks through the hooks a test gives it', async () => {
    const fetched: string[] = [];
    const delivered: string[] = [];
    const fake = await startFakeVendor({
      stepMs: 10,
      fetchInput: async (url) => {
        fetched.push(url);
        return { status: 200, body: await fs.readFile(tone) };
      },
      deliverCallback: async (request) => {
        delivered.push(request.body);
        return 204;
      },
    });
    try {
      const p = createHttpProvider({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        callbackSecret: fake.callbackSecret,
        callbackUrl: 'http://app.invalid/callback',
        pollIntervalMs: 10,
      });
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dh-http-fake-'));
      await p.cloneVoice(
        { audio: { url: 'http://app.invalid/a.wav' }, gender: 'male' },
        { workDir: dir },
      );
      await fake.idle();
      await fs.rm(dir, { recursive: true, force: true });
      expect(fetched).toEqual(['http://app.invalid/a.wav']);
      expect(delivered).toHaveLength(2);
      expect(fake.callbacks.map((c) => c.status)).toEqual([204, 204]);
    } finally {
      await fake.stop();
    }
  });
});

describe('DH_PROVIDER=http', () => {
  it('makes the http provider, calling back to PUBLIC_URL, reaching the configured vendor', async () => {
    const config = loadConfig({
      DH_PROVIDER: 'http',
      DH_BASE_URL: vendor.url,
      DH_API_KEY: vendor.apiKey,
      DH_CALLBACK_SECRET: vendor.callbackSecret,
      PUBLIC_URL: 'http://127.0.0.1:9/', // nobody listens: the callbacks are lost
    });
    const p = createDigitalHumanProvider(config);
    expect(p).toMatchObject({ name: 'http', demonstration: false });
    expect(p.publicVoices()).toEqual([]);
    const { run, submitted } = recordingRun({ signal: AbortSignal.timeout(60_000) });
    vendor.hold();
    const pending = p.cloneVoice({ audio: { url: files.add(tone) }, gender: 'female' }, run);
    await expect.poll(() => submitted.length).toBe(1);
    expect(vendor.jobs.get(submitted[0])?.callbackUrl).toBe(
      'http://127.0.0.1:9/api/v1/digital_human/vendor_callback',
    );
    vendor.release();
    await vendor.idle();
    // Without the callbacks, the default poll (5 s) finds the job done.
    await expect(pending).resolves.toMatchObject({ profile: { voice_id: expect.any(String) } });
  });
});
