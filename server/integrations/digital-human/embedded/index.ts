import fs from 'node:fs/promises';
import path from 'node:path';
import type { RenderPreset } from '../../../platform/config';
import { runNiced } from '../../../platform/jobs/child-process';
import { failureDetail } from '../../../platform/jobs/failure-detail';
import { cjkFont, CJK_FAMILY, libassEmPerSize } from '../../../platform/render/fonts';
import { ffmpegProgress, probeVideo } from '../../../platform/render/render';
import { buildAss, splitSentences, timeLines } from '../../../platform/render/subtitles';
import {
  ProviderError,
  type DigitalHumanProvider,
  type ImageCloneRequest,
  type ImageCloneResult,
  type MediaRef,
  type ProviderRun,
  type VideoRequest,
  type VideoResult,
  type VoiceCloneRequest,
  type VoiceCloneResult,
} from '../types';
import { estimateF0, estimateSyllableRate } from './analysis';
import { decodePcm, quantile, rmsEnvelope } from './pcm';
import { synthesizeSpeech } from './speech';
import {
  buildVideoArgs,
  buildVideoGraph,
  fraction,
  MOUTH_STEP,
  mouthCommands,
  mouthLevels,
  type VideoPlan,
} from './video';
import { fittedProfile, PUBLIC_VOICES } from './voices';

export interface EmbeddedOptions {
  /** x264 preset of the videos it renders (tests: `ultrafast`). */
  preset: RenderPreset;
}

export const REASON_UNREADABLE = 'digitalHuman.reason.inputUnreadable';
export const REASON_NO_SPEECH = 'digitalHuman.reason.noSpeech';
export const REASON_FAILED = 'digitalHuman.reason.providerFailed';

/** Voice samples are measured at 16 kHz, at most this many seconds. */
const ANALYSIS_RATE = 16_000;
const ANALYSIS_SECONDS = 60;

/**
 * The embedded provider (the default; no network, deterministic, local): espeak-ng speech, a
 * voice "clone" that is an espeak-ng profile fitted to the sample by measuring it, an image
 * "clone" that is a poster frame and a short loop cut from the source video, and a video made by
 * one ffmpeg run (avatar loop, loudness-driven mouth overlay, subtitles, music). Every child runs
 * niced (`runNiced`) and stops when `run.signal` aborts. Its results are demonstration output.
 *
 * Failures: an input that cannot be read fails permanently (`digitalHuman.reason.inputUnreadable`,
 * or `…noSpeech` for a voice sample without a voice); anything else is a non-permanent
 * `digitalHuman.reason.providerFailed` (retried by the job runner).
 */
export function createEmbeddedProvider(options: EmbeddedOptions): DigitalHumanProvider {
  return {
    name: 'embedded',
    demonstration: true,
    publicVoices: () => PUBLIC_VOICES,
    cloneImage: (request, run) => guard(run, () => cloneImage(request, run)),
    cloneVoice: (request, run) => guard(run, () => cloneVoice(request, run)),
    synthesize: (request, run) => guard(run, () => synthesizeSpeech(request, run)),
    renderVideo: (request, run) => guard(run, () => renderVideo(request, run, options.preset)),
    parseCallback: async () => null,
  };
}

/** Errors as ProviderErrors (an abort stays the signal's reason). */
async function guard<T>(run: ProviderRun, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (run.signal?.aborted) throw run.signal.reason;
    if (error instanceof ProviderError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError(message, 'transient', REASON_FAILED);
  }
}

function sourceOf(ref: MediaRef | undefined): string {
  const source = ref?.path ?? ref?.url;
  if (!source) throw new ProviderError('No input file', 'permanent', REASON_UNREADABLE);
  return source;
}

/**
 * Whether ffmpeg can read the input at all (ffprobe finds a stream of the kind); an http(s) URL
 * that fails may be the network, so only local files are judged.
 */
async function unreadable(source: string, kind: 'audio' | 'video', signal?: AbortSignal) {
  if (/^https?:\/\//i.test(source)) return false;
  if (
    !(await fs
      .stat(source)
      .then((s) => s.isFile())
      .catch(() => false))
  )
    return true;
  const lines: string[] = [];
  try {
    await runNiced(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', '--', source],
      { onLine: (line) => lines.push(line.trim()), signal: signal ?? AbortSignal.timeout(30_000) },
    );
  } catch {
    if (signal?.aborted) throw signal.reason;
    return true;
  }
  return !lines.includes(kind);
}

/** Runs `work`; when it fails and one of the inputs cannot be read, fails permanently instead. */
async function checkingInputs<T>(
  inputs: readonly { source: string; kind: 'audio' | 'video'; name: string }[],
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    for (const input of inputs) {
      if (await unreadable(input.source, input.kind, signal)) {
        throw new ProviderError(
          `Cannot read the ${input.name}: ${failureDetail(error, { sources: inputs.map(({ source, name }) => ({ source, name })) })}`,
          'permanent',
          REASON_UNREADABLE,
        );
      }
    }
    throw error;
  }
}

// ---- voice clone

async function cloneVoice(request: VoiceCloneRequest, run: ProviderRun): Promise<VoiceCloneResult> {
  const source = sourceOf(request.audio);
  run.onProgress?.({ progress: 0, queuePosition: 0 });
  const pcm = await checkingInputs(
    [{ source, kind: 'audio', name: 'voice sample' }],
    run.signal,
    () =>
      decodePcm(source, run.workDir, {
        sampleRate: ANALYSIS_RATE,
        maxSeconds: ANALYSIS_SECONDS,
        signal: run.signal,
      }),
  );
  run.onProgress?.({ progress: 0.3 });
  const pitch = estimateF0(pcm);
  run.signal?.throwIfAborted();
  const rate = estimateSyllableRate(pcm);
  if (!pitch || !rate) {
    throw new ProviderError('No voice found in the sample', 'permanent', REASON_NO_SPEECH);
  }
  run.onProgress?.({ progress: 1 });
  return {
    profile: {
      ...fittedProfile(request.gender, {
        f0Hz: pitch.f0,
        syllablesPerSecond: rate.syllablesPerSecond,
        seconds: pcm.samples.length / pcm.sampleRate,
      }),
    },
  };
}

// ---- image clone

/** The loop: seconds played forward (then backward, so it joins up) and its quality, per tier. */
const LOOP_TIERS = {
  standard: { forward: 1.5, crf: 26 },
  advanced: { forward: 2, crf: 20 },
} as const;
/** The loop's short side at most (pixels; never enlarged). */
const LOOP_SHORT_SIDE = 720;

async function cloneImage(request: ImageCloneRequest, run: ProviderRun): Promise<ImageCloneResult> {
  const source = sourceOf(request.video);
  const { signal } = run;
  run.onProgress?.({ progress: 0, queuePosition: 0 });
  const facts = await probeVideo(source, { signal }).catch((error: unknown) => {
    if (signal?.aborted) throw signal.reason;
    const detail = failureDetail(error, { sources: [{ source, name: 'video' }] });
    throw new ProviderError(`Cannot read the video: ${detail}`, 'permanent', REASON_UNREADABLE);
  });
  const tier = LOOP_TIERS[request.tier] ?? LOOP_TIERS.standard;
  const duration = Number.isFinite(facts.duration) ? facts.duration : 0;
  const forward = Math.min(tier.forward, duration > 0 ? duration : tier.forward);
  // From a tenth into the video (past any fade-in), so that a whole forward part fits.
  const start = Math.max(0, Math.min(duration * 0.1, duration - forward));
  const short = Math.min(facts.width, facts.height, LOOP_SHORT_SIDE);
  const scale =
    facts.width <= facts.height
      ? `scale=${short - (short % 2)}:-2`
      : `scale=-2:${short - (short % 2)}`;
  const loopPath = path.join(run.workDir, 'avatar-loop.mp4');
  const posterPath = path.join(run.workDir, 'avatar-poster.jpg');
  const graph =
    `[0:v]fps=25,${scale},setsar=1,format=yuv420p,trim=duration=${forward},setpts=PTS-STARTPTS,` +
    `split=3[fw][bw0][p0];[bw0]reverse[bw];[fw][bw]concat=n=2:v=1:a=0[loop];` +
    `[p0]trim=end_frame=1[poster]`;
  await checkingInputs([{ source, kind: 'video', name: 'video' }], signal, () =>
    runNiced(
      'ffmpeg',
      [
        ...['-nostdin', '-hide_banner', '-v', 'error', '-y'],
        ...['-ss', String(start), '-t', String(forward + 0.5), '-i', source],
        ...['-filter_complex', graph, '-map', '[loop]', '-an'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(tier.crf)],
        ...['-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4'],
        ...['-progress', 'pipe:1', '-nostats', loopPath],
        ...['-map', '[poster]', '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '3'],
        ...['-f', 'mjpeg', posterPath],
      ],
      {
        signal,
        onLine: ffmpegProgress(forward * 2, (progress) => run.onProgress?.({ progress })),
      },
    ),
  );
  const loop = await probeVideo(loopPath, { signal });
  const poster = await fs.stat(posterPath).catch(() => undefined);
  if (!poster?.size) throw new Error('ffmpeg wrote no poster');
  return { posterPath, loopPath, width: loop.width, height: loop.height, vendorRef: null };
}

// ---- video

async function renderVideo(
  request: VideoRequest,
  run: ProviderRun,
  preset: RenderPreset,
): Promise<VideoResult> {
  const { signal, workDir } = run;
  const avatar = sourceOf(request.avatar.loop);
  const speech = sourceOf(request.speech);
  const music = request.music ? sourceOf(request.music) : null;
  const background = request.background ? sourceOf(request.background) : null;
  const inputs = [
    { source: avatar, kind: 'video' as const, name: 'avatar' },
    { source: speech, kind: 'audio' as const, name: 'speech' },
    ...(music ? [{ source: music, kind: 'audio' as const, name: 'music' }] : []),
    // ffprobe reads a picture as a one-frame video stream.
    ...(background ? [{ source: background, kind: 'video' as const, name: 'background' }] : []),
  ];
  const { width, height } = request;
  for (const side of [width, height]) {
    if (!Number.isInteger(side) || side < 16 || side > 4096 || side % 2 !== 0) {
      throw new ProviderError(`Bad frame size ${width}×${height}`, 'permanent', REASON_FAILED);
    }
  }
  run.onProgress?.({ progress: 0, queuePosition: 0 });

  // The speech's loudness per 40 ms (and its real length) drive the mouth.
  const pcm = await checkingInputs(inputs.slice(1, 2), signal, () =>
    decodePcm(speech, workDir, { sampleRate: ANALYSIS_RATE, anyRate: true, signal }),
  );
  const duration = pcm.samples.length / pcm.sampleRate;
  if (!(duration > 0.05))
    throw new ProviderError('The speech is empty', 'permanent', REASON_UNREADABLE);
  const levels = rmsEnvelope(pcm, MOUTH_STEP);
  const script = mouthCommands(mouthLevels(levels, quantile(levels, 0.95)));
  const commands = script ? path.join(workDir, 'video-mouth.cmd') : null;
  if (commands) await fs.writeFile(commands, script, 'utf8');

  let ass: string | null = null;
  if (request.subtitles) {
    const font = await cjkFont();
    const lines = timeLines(splitSentences(request.text), duration);
    ass = path.join(workDir, 'video-subtitles.ass');
    const sub = request.layout.subtitle;
    await fs.writeFile(
      ass,
      buildAss({
        width,
        height,
        fontName: font.family ?? CJK_FAMILY,
        size: Math.max(8, Math.round(height * (fraction(sub?.size, 0) || 0.045))),
        color: typeof sub?.color === 'string' ? sub.color : '#FFFFFF',
        lines,
        marginV: Math.round(height * (1 - fraction(sub?.y, 0.94))),
        emPerSize: await libassEmPerSize(font.file),
      }),
      'utf8',
    );
  }

  const plan: VideoPlan = { width, height, layout: request.layout, duration, preset };
  const paths = {
    avatar,
    speech,
    music,
    background,
    commands,
    ass,
    out: path.join(workDir, 'video.mp4'),
    poster: path.join(workDir, 'video-poster.jpg'),
  };
  const graphFile = path.join(workDir, 'video-graph.txt');
  await fs.writeFile(graphFile, buildVideoGraph(plan, paths), 'utf8');
  try {
    await checkingInputs(inputs, signal, () =>
      runNiced('ffmpeg', buildVideoArgs(plan, paths, graphFile), {
        signal,
        onLine: ffmpegProgress(duration, (fraction) =>
          run.onProgress?.({ progress: Math.min(0.99, fraction) }),
        ),
      }),
    );
    const facts = await probeVideo(paths.out, { signal });
    const poster = await fs.stat(paths.poster).catch(() => undefined);
    if (!poster?.size) throw new Error('ffmpeg wrote no poster');
    run.onProgress?.({ progress: 1 });
    return {
      videoPath: paths.out,
      posterPath: paths.poster,
      duration: facts.duration,
      width: facts.width,
      height: facts.height,
    };
  } catch (error) {
    await fs.rm(paths.out, { force: true });
    await fs.rm(paths.poster, { force: true });
    throw error;
  }
}
