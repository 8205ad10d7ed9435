import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runNiced } from '../jobs/child-process';
import { cjkFont, CJK_FAMILY, fontFamilyOf, libassEmPerSize } from './fonts';
import { readMp4Facts } from './mp4-facts';
import {
  buildRenderArgs,
  fitTitles,
  POSTER_AT,
  POSTER_WIDTH,
  sizeScale,
  type RenderPaths,
} from './graph';
import { plannedDuration } from './spec';
import type { RenderOptions, RenderResult, RenderSpec, RenderSubtitles } from './spec';
import { buildAss, splitSentences, timeLines, type SubtitleLine } from './subtitles';

/**
 * One output of a video task: one ffmpeg run in a child process at a lower priority
 * (`runNiced`), its filter graph built by graph.ts. Progress comes from `-progress pipe:1`; a
 * failure rejects with a ChildProcessError whose message ends with ffmpeg's last stderr lines;
 * an abort stops ffmpeg. Either way no partial output is left at `outPath`. The result's
 * duration and size are the written file's, read from its MP4 boxes (mp4-facts.ts: no ffprobe
 * process per output), ffprobe only when that fails.
 */
export async function renderVideo(
  spec: RenderSpec,
  outPath: string,
  options: RenderOptions = {},
): Promise<RenderResult> {
  checkSpec(spec);
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const total = plannedDuration(spec);
  const work = await fs.mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), 'render-'));
  try {
    const paths = {
      ...(await prepareRenderFiles(spec, work, signal)),
      poster: options.posterPath ?? null,
    };
    const args = buildRenderArgs(spec, outPath, paths);
    await runNiced('ffmpeg', args, {
      signal,
      onLine: onProgress ? ffmpegProgress(total, onProgress) : undefined,
    });
    // The output's facts from its MP4 header, in this process (mp4-facts.ts); ffprobe only when
    // that cannot read them.
    const [facts, stat] = await Promise.all([
      readMp4Facts(outPath).catch(() => probeVideo(outPath, { signal })),
      fs.stat(outPath),
    ]);
    if (options.posterPath) {
      const poster = await fs.stat(options.posterPath).catch(() => undefined);
      if (!poster?.size) throw new Error('ffmpeg wrote no poster');
    }
    return { duration: facts.duration, size: stat.size, width: facts.width, height: facts.height };
  } catch (error) {
    await fs.rm(outPath, { force: true });
    if (options.posterPath) await fs.rm(options.posterPath, { force: true });
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/**
 * A line reader of ffmpeg's `-progress pipe:1` output calling `onProgress` with the fraction
 * (0–1) of `total` seconds written so far, rising only, 1 at the end.
 */
export function ffmpegProgress(
  total: number,
  onProgress: (fraction: number) => void,
): (line: string) => void {
  let last = 0;
  return (line) => {
    const [key, value] = line.split('=', 2);
    let fraction: number | undefined;
    if (key === 'out_time_us' || key === 'out_time_ms') {
      // Both are microseconds (out_time_ms is misnamed by ffmpeg).
      const us = Number(value);
      if (Number.isFinite(us) && us >= 0 && total > 0) fraction = Math.min(1, us / 1e6 / total);
    } else if (key === 'progress' && value?.trim() === 'end') fraction = 1;
    if (fraction !== undefined && fraction > last) {
      last = fraction;
      onProgress(fraction);
    }
  };
}

function checkSpec(spec: RenderSpec) {
  const bad = (why: string) => new Error(`Invalid render spec: ${why}`);
  if (spec.segments.length === 0) throw bad('no segments');
  if (spec.segments.some((s) => !(s.length > 0) || !(s.start >= 0))) throw bad('segment times');
  for (const side of [spec.width, spec.height]) {
    if (!Number.isInteger(side) || side < 16 || side % 2 !== 0) throw bad('frame size');
  }
  if (!(spec.fps > 0) || !(spec.bitrateKbps > 0)) throw bad('fps or bitrate');
}

/**
 * The files ffmpeg reads besides the media, written into `work`: title texts (one file per
 * fitted line), the ASS script, the subtitle font (renderVideo; the bench's plain ffmpeg loop).
 */
export async function prepareRenderFiles(
  spec: RenderSpec,
  work: string,
  signal?: AbortSignal,
): Promise<RenderPaths> {
  const font = await cjkFont();
  const titleFiles: string[][] = [];
  for (const [i, fitted] of fitTitles(spec).entries()) {
    const files = fitted.lines.map((_, k) => path.join(work, `title-${i}-${k}.txt`));
    await Promise.all(files.map((file, k) => fs.writeFile(file, fitted.lines[k]!, 'utf8')));
    titleFiles.push(files);
  }
  let assFile: string | null = null;
  let fontsDir: string | null = null;
  if (spec.subtitles) {
    let fontName = font.family ?? CJK_FAMILY;
    let fontFile = font.file;
    if (spec.subtitles.fontFile) {
      fontsDir = path.join(work, 'fonts');
      await fs.mkdir(fontsDir);
      const own = await fetchFont(spec.subtitles.fontFile, fontsDir, signal);
      const family = await fontFamilyOf(own);
      // A font fontconfig cannot name is not used: libass falls back to the CJK font.
      if (family) [fontName, fontFile] = [family, own];
    }
    const total = plannedDuration(spec);
    const lines = subtitleLinesOf(spec.subtitles, total);
    assFile = path.join(work, 'subtitles.ass');
    await fs.writeFile(
      assFile,
      buildAss({
        width: spec.width,
        height: spec.height,
        fontName,
        size: Math.max(8, Math.round(spec.subtitles.size * sizeScale(spec))),
        color: spec.subtitles.color,
        position: spec.subtitles.position,
        ...(spec.subtitles.outline !== undefined
          ? { outline: Math.round(spec.subtitles.outline * sizeScale(spec)) }
          : {}),
        lines,
        emPerSize: await libassEmPerSize(fontFile),
      }),
      'utf8',
    );
  }
  let watermarkFile: string | null = null;
  if (spec.watermark) {
    watermarkFile = path.join(work, 'watermark.txt');
    await fs.writeFile(watermarkFile, spec.watermark.text, 'utf8');
  }
  return { titleFiles, titleFont: font, assFile, fontsDir, watermarkFile };
}

/**
 * The subtitles' timed lines: `lines` as given (SRT import, per-line edit, a narration's sentences
 * timed to its speech), cut to the video's length; else the text split at sentence ends and spread
 * over it.
 */
export function subtitleLinesOf(
  subtitles: Pick<RenderSubtitles, 'lines' | 'text'>,
  total: number,
): SubtitleLine[] {
  if (subtitles.lines) {
    return subtitles.lines
      .filter((l) => l.start < total && l.end > l.start)
      .map((l) => ({ start: l.start, end: Math.min(l.end, total), text: l.text }));
  }
  return timeLines(splitSentences(subtitles.text ?? ''), total);
}

/** The subtitle font into the run's fonts dir (libass reads fonts from a local directory). */
async function fetchFont(source: string, dir: string, signal?: AbortSignal): Promise<string> {
  const ext = /\.(ttf|otf|ttc|otc|woff2?)$/i.exec(source.split('?')[0] ?? '')?.[0] ?? '.ttf';
  const file = path.join(dir, `subtitle-font${ext.toLowerCase()}`);
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal });
    if (!response.ok) throw new Error(`Subtitle font: HTTP ${response.status}`);
    await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
  } else {
    await fs.copyFile(source, file);
  }
  return file;
}

export interface VideoFacts {
  /** The first video stream's codec (`h264`). */
  codec: string;
  width: number;
  height: number;
  /** Frames per second (the stream's average rate). */
  fps: number;
  /** Seconds (the container's). */
  duration: number;
  hasAudio: boolean;
}

interface Probed {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
  }[];
  format?: { duration?: string };
}

const rate = (fraction: string | undefined) => {
  const [num = NaN, den = 1] = (fraction ?? '').split('/').map(Number);
  return den ? num / den : NaN;
};

/** What ffprobe reads of a video file (JSON output); rejects when it has no video stream. */
export async function probeVideo(
  file: string,
  options: { signal?: AbortSignal } = {},
): Promise<VideoFacts> {
  const lines: string[] = [];
  await runNiced(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file],
    { onLine: (line) => lines.push(line), signal: options.signal ?? AbortSignal.timeout(60_000) },
  );
  const probed = JSON.parse(lines.join('\n')) as Probed;
  const video = probed.streams?.find((s) => s.codec_type === 'video');
  if (!video?.width || !video.height) throw new Error(`No video stream in ${file}`);
  const avg = rate(video.avg_frame_rate);
  return {
    codec: video.codec_name ?? '',
    width: video.width,
    height: video.height,
    fps: Number.isFinite(avg) && avg > 0 ? avg : rate(video.r_frame_rate),
    duration: Number(probed.format?.duration ?? NaN),
    hasAudio: probed.streams?.some((s) => s.codec_type === 'audio') ?? false,
  };
}

/**
 * A JPEG poster of a rendered video: its frame at 0.5 s (the middle when it is shorter than
 * 1 s), at most 360 px wide (never enlarged). `duration` (seconds) saves a probe when known.
 */
export async function makePoster(
  videoPath: string,
  jpgPath: string,
  options: { duration?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const duration = options.duration ?? (await probeVideo(videoPath, options)).duration;
  const at = duration >= 2 * POSTER_AT ? POSTER_AT : Math.max(0, duration / 2);
  try {
    await runNiced(
      'ffmpeg',
      [
        ...['-nostdin', '-v', 'error', '-y', '-ss', String(at), '-i', videoPath],
        ...['-frames:v', '1', '-vf', `scale='min(${POSTER_WIDTH},iw)':-2`, '-q:v', '4'],
        ...['-f', 'mjpeg', jpgPath],
      ],
      { signal: options.signal ?? AbortSignal.timeout(60_000) },
    );
  } catch (error) {
    await fs.rm(jpgPath, { force: true });
    throw error;
  }
}
