import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePoster } from '../../../platform/render/render';
import {
  ProviderError,
  type DigitalHumanProvider,
  type MediaRef,
  type ProviderRun,
  type PublicVoice,
} from '../types';
import { verifyCallback } from './callback';
import { createVendorClient, pause, type VendorClientOptions } from './client';
import { demand, probeResult } from './media-check';
import {
  httpAvatarRefSchema,
  httpVoiceProfileSchema,
  resultSchemas,
  type JobResult,
  type JobStatus,
  type JobType,
} from './protocol';

/** A credential: a fixed value, or read at the time of use (the sealed settings, else the environment). */
export type Credential = string | (() => Promise<string | undefined>);

const reader = (credential: Credential) =>
  typeof credential === 'string' ? async () => credential : credential;

export interface HttpProviderOptions extends Partial<Omit<VendorClientOptions, 'apiKey'>> {
  baseUrl: string;
  apiKey: Credential;
  /** The HMAC key of the vendor's callbacks (none: every callback is refused). */
  callbackSecret: Credential;
  /** Where the vendor sends its callbacks (our `POST /digital_human/vendor_callback`). */
  callbackUrl: string;
  /**
   * The vendor's stock voices offered to every user (docs/decisions.md: configured, not fetched;
   * default none). Each profile is `{voice_id}`, the vendor's id of the voice.
   */
  publicVoices?: readonly PublicVoice[];
  /** The first pause between status polls (default 5 s); it grows ×1.5 up to `maxPollMs`. */
  pollIntervalMs?: number;
  /** The longest pause between polls (default 60 s). */
  maxPollMs?: number;
  /** Status polls in a row that may fail transiently before the run gives up (default 5). */
  pollFailures?: number;
  /** A job not finished after this long fails the run transiently (default 2 h). */
  maxWaitMs?: number;
  /** How far a callback's timestamp may be from our clock (default 300 s). */
  callbackToleranceSeconds?: number;
  now?: () => number;
}

const INPUT_NO_URL = 'digitalHuman.reason.inputNoUrl';
const VOICE_OTHER = 'digitalHuman.reason.voiceOtherProvider';

/** The URL the vendor fetches an input from; a file with only a local path cannot be sent. */
function urlOf(ref: MediaRef, what: string): string {
  if (!ref.url) {
    throw new ProviderError(
      `${what}: no URL the vendor can fetch (path only: ${ref.path ?? 'none'})`,
      'permanent',
      INPUT_NO_URL,
    );
  }
  return ref.url;
}

/**
 * The HTTP vendor adapter (docs/digital-human-vendor.md). Each operation submits one vendor job
 * (or resumes `run.vendorJobId`), polls its status with a growing pause — cut short by a verified
 * callback for that job — reporting queue position and progress, then downloads the result files
 * into `run.workDir` and checks them with ffprobe. Aborting stops the waiting, not the vendor's
 * job: a later run resumes it by id.
 */
export function createHttpProvider(options: HttpProviderOptions): DigitalHumanProvider {
  const client = createVendorClient({
    baseUrl: options.baseUrl,
    apiKey: reader(options.apiKey),
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    downloadTimeoutMs: options.downloadTimeoutMs ?? 600_000,
    maxDownloadBytes: options.maxDownloadBytes ?? 2 * 1024 ** 3,
    submitAttempts: options.submitAttempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 1_000,
  });
  const pollMs = options.pollIntervalMs ?? 5_000;
  const maxPollMs = Math.max(pollMs, options.maxPollMs ?? 60_000);
  const pollFailures = options.pollFailures ?? 5;
  const maxWaitMs = options.maxWaitMs ?? 2 * 3600_000;
  const now = options.now ?? Date.now;
  const callbackSecret = reader(options.callbackSecret);
  /** Runs waiting in this process, by vendor job id: a verified callback wakes them. */
  const waiting = new Map<string, Set<() => void>>();

  function listen(jobId: string) {
    return (wake: () => void) => {
      const set = waiting.get(jobId) ?? new Set();
      set.add(wake);
      waiting.set(jobId, set);
      return () => {
        set.delete(wake);
        if (set.size === 0) waiting.delete(jobId);
      };
    };
  }

  async function waitFor(jobId: string, run: ProviderRun): Promise<JobStatus> {
    const started = now();
    let delay = pollMs;
    let failures = 0;
    let reported = '';
    for (;;) {
      let status: JobStatus | undefined;
      try {
        status = await client.status(jobId, run.signal);
        failures = 0;
      } catch (error) {
        if (run.signal?.aborted) throw run.signal.reason;
        const transient = error instanceof ProviderError && !error.permanent;
        if (!transient || ++failures >= pollFailures) throw error;
      }
      if (status?.state === 'done' || status?.state === 'failed') return status;
      if (status) {
        const queuePosition = status.queue_position ?? (status.state === 'running' ? 0 : null);
        const progress = status.progress ?? (status.state === 'queued' ? 0 : undefined);
        const key = `${queuePosition}/${progress}`;
        if (key !== reported) {
          reported = key;
          run.onProgress?.({ progress, queuePosition });
        }
      }
      if (now() - started > maxWaitMs) {
        throw new ProviderError(
          `vendor job ${jobId} not finished after ${Math.round(maxWaitMs / 1000)} s`,
          'transient',
          'digitalHuman.reason.vendorUnavailable',
        );
      }
      await pause(delay, run.signal, listen(jobId));
      delay = Math.min(maxPollMs, Math.round(delay * 1.5));
    }
  }

  /** Submits (or resumes) one job and waits for its checked result. */
  async function runJob<T extends JobType>(
    type: T,
    input: Record<string, unknown>,
    run: ProviderRun,
  ): Promise<JobResult<T>> {
    let jobId = run.vendorJobId ?? null;
    if (!jobId) {
      jobId = await client.submit(
        { type, input, callback_url: options.callbackUrl },
        run.idempotencyKey ?? randomUUID(),
        run.signal,
      );
      await run.onSubmitted?.(jobId);
    }
    const status = await waitFor(jobId, run);
    if (status.state === 'failed') {
      const error = status.error ?? {};
      const message = error.message ?? error.code ?? 'failed';
      throw new ProviderError(
        `vendor job ${jobId} failed: ${error.code ?? ''} ${message}`.trim(),
        (error.permanent ?? true) ? 'permanent' : 'transient',
        'digitalHuman.reason.vendorFailed',
        { message },
      );
    }
    const parsed = resultSchemas[type].safeParse(status.result);
    demand(parsed.success, `job ${jobId} (${type}): ${parsed.error?.message ?? ''}`);
    run.onProgress?.({ progress: 1, queuePosition: 0 });
    return parsed.data as JobResult<T>;
  }

  const fetchTo = async (url: string, run: ProviderRun, name: string) => {
    const file = path.join(run.workDir, name);
    await client.download(url, file, run.signal);
    return file;
  };

  return {
    name: 'http',
    demonstration: false,
    publicVoices: () => options.publicVoices ?? [],

    async cloneImage(request, run) {
      const video = urlOf(request.video, 'image clone source video');
      const result = await runJob('image_clone', { video_url: video, tier: request.tier }, run);
      const posterPath = await fetchTo(result.poster_url, run, 'poster.jpg');
      const loopPath = await fetchTo(result.loop_url, run, 'loop.mp4');
      const poster = await probeResult(posterPath, run.signal);
      demand(poster.video, 'the avatar poster is not an image');
      const loop = await probeResult(loopPath, run.signal);
      demand(loop.video && loop.format.includes('mp4'), 'the avatar loop is not an MP4 video');
      return {
        posterPath,
        loopPath,
        width: loop.video.width,
        height: loop.video.height,
        vendorRef: { avatar_id: result.avatar_id },
      };
    },

    async cloneVoice(request, run) {
      const audio = urlOf(request.audio, 'voice clone sample');
      const result = await runJob('voice_clone', { audio_url: audio, gender: request.gender }, run);
      return { profile: { voice_id: result.voice_id } };
    },

    async synthesize(request, run) {
      const voice = httpVoiceProfileSchema.safeParse(request.voice);
      if (!voice.success) {
        throw new ProviderError(
          'the voice was not made by the vendor (no voice_id)',
          'permanent',
          VOICE_OTHER,
        );
      }
      const result = await runJob(
        'speech',
        {
          text: request.text,
          language: request.language,
          voice_id: voice.data.voice_id,
          speed: request.speed,
          volume: request.volume,
        },
        run,
      );
      const file = await fetchTo(result.audio_url, run, 'speech.download');
      const facts = await probeResult(file, run.signal);
      demand(facts.audio && facts.duration > 0, 'the speech has no sound');
      const ext = facts.format === 'wav' ? 'wav' : facts.format.includes('mp4') ? 'm4a' : null;
      demand(ext, `the speech is ${facts.format}, not WAV or M4A`);
      const audioPath = path.join(run.workDir, `speech.${ext}`);
      await fs.rename(file, audioPath);
      return { audioPath, duration: facts.duration };
    },

    async renderVideo(request, run) {
      const avatarRef = httpAvatarRefSchema.safeParse(request.avatar.vendorRef);
      const result = await runJob(
        'video',
        {
          avatar: {
            avatar_id: avatarRef.success ? avatarRef.data.avatar_id : null,
            poster_url: urlOf(request.avatar.poster, 'avatar poster'),
            loop_url: urlOf(request.avatar.loop, 'avatar loop'),
            width: request.avatar.width,
            height: request.avatar.height,
          },
          speech_url: urlOf(request.speech, 'speech'),
          speech_duration: request.speech.duration,
          text: request.text,
          subtitles: request.subtitles,
          music_url: request.music ? urlOf(request.music, 'music') : null,
          background_url: request.background ? urlOf(request.background, 'background') : null,
          width: request.width,
          height: request.height,
          layout: request.layout,
        },
        run,
      );
      const videoPath = await fetchTo(result.video_url, run, 'video.mp4');
      const facts = await probeResult(videoPath, run.signal);
      demand(
        facts.format.includes('mp4') && facts.video?.codec === 'h264' && facts.audio,
        'the video is not an H.264 + sound MP4',
      );
      demand(facts.duration > 0, 'the video is empty');
      const posterPath = path.join(run.workDir, 'video-poster.jpg');
      if (result.poster_url) {
        await client.download(result.poster_url, posterPath, run.signal);
        demand((await probeResult(posterPath, run.signal)).video, 'the poster is not an image');
      } else {
        await makePoster(videoPath, posterPath, { duration: facts.duration, signal: run.signal });
      }
      return {
        videoPath,
        posterPath,
        duration: facts.duration,
        width: facts.video.width,
        height: facts.video.height,
      };
    },

    async parseCallback(rawBody, headers) {
      const callback = verifyCallback(
        (await callbackSecret()) ?? '',
        rawBody,
        headers,
        now(),
        options.callbackToleranceSeconds ?? 300,
      );
      if (callback) for (const wake of [...(waiting.get(callback.vendorJobId) ?? [])]) wake();
      return callback;
    },
  };
}
