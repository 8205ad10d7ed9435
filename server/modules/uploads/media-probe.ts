import fsp from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import type { MediaKind } from '../../../src/api/contract/resources';
import { ChildProcessError, runNiced } from '../../platform/jobs/child-process';

/**
 * What the server learns of an uploaded file from its bytes (never from its name): the type from
 * its magic bytes (`file-type`), a hidden archive at its end, and for media what ffprobe finds
 * (streams, size, duration, codec), plus a poster frame made by ffmpeg. ffprobe and ffmpeg run
 * in child processes at a lower priority (`runNiced`), never on the event loop.
 */

/** The MIME type the file's magic bytes show, or undefined (text formats: SVG, HTML, scripts). */
export async function sniffType(file: string): Promise<string | undefined> {
  return (await fileTypeFromFile(file))?.mime;
}

/**
 * ZIP readers find an archive by its end-of-central-directory record, which must start within
 * the last 64 KiB + 22 bytes of the file; a file with one there opens as an archive whatever its
 * first bytes say (the JPEG+ZIP polyglot). The record's signatures: `PK 05 06` (ZIP), `PK 06 06`
 * and `PK 06 07` (ZIP64).
 */
const ZIP_TAIL = 65_535 + 22 + 20 + 56;
const ZIP_END_SIGNATURES = [
  Buffer.from([0x50, 0x4b, 0x05, 0x06]),
  Buffer.from([0x50, 0x4b, 0x06, 0x06]),
  Buffer.from([0x50, 0x4b, 0x06, 0x07]),
];

/** True when the file's tail holds a ZIP end record (docs/decisions.md "Files and uploads": polyglots). */
export async function hasArchiveTail(file: string): Promise<boolean> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, ZIP_TAIL);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    return ZIP_END_SIGNATURES.some((signature) => tail.includes(signature));
  } finally {
    await handle.close();
  }
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeResult {
  streams?: ProbeStream[];
  format?: { duration?: string; format_name?: string };
}

/** `nice` answers 127 (126) when the command is missing (not executable): the machine's fault. */
const isMissingTool = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ||
  (error instanceof ChildProcessError && (error.exitCode === 127 || error.exitCode === 126));

/** ffprobe's view of a file, or undefined when ffprobe cannot read it. */
async function ffprobe(file: string): Promise<ProbeResult | undefined> {
  const lines: string[] = [];
  try {
    await runNiced(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file],
      { onLine: (line) => lines.push(line), signal: AbortSignal.timeout(60_000) },
    );
    return JSON.parse(lines.join('\n')) as ProbeResult;
  } catch (error) {
    if (isMissingTool(error)) throw error; // no ffprobe here: a fault, not the file's
    return undefined;
  }
}

export interface MediaFacts {
  durationMs: number | null;
  width: number | null;
  height: number | null;
  codec: string | null;
  /** Whether it has an audio stream (video and audio; null for an image). */
  hasAudio: boolean | null;
}

/** Why a file is not the media its kind needs, or its facts. */
export type ProbeOutcome =
  | { ok: true; facts: MediaFacts }
  | { ok: false; reason: 'upload.noVideo' | 'upload.noAudio' | 'upload.unreadable' };

const rotationOf = (stream: ProbeStream) => {
  const fromSideData = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  return Math.abs(Number(fromSideData ?? stream.tags?.rotate ?? 0)) % 180;
};

/**
 * What ffprobe finds, required to be the kind's media: a video needs a video stream (not a cover
 * picture), audio an audio stream, an image a picture. ffprobe alone is not a type check (it
 * reads an .srt file happily): the magic bytes were checked first.
 */
export async function probeMedia(file: string, kind: MediaKind): Promise<ProbeOutcome> {
  const result = await ffprobe(file);
  if (!result) return { ok: false, reason: 'upload.unreadable' };
  const streams = result.streams ?? [];
  const pictures = streams.filter((s) => s.codec_type === 'video');
  const motion = pictures.filter((s) => s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const seconds = Number(result.format?.duration);
  const durationMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null;
  if (kind === 'audio') {
    if (!audio) return { ok: false, reason: 'upload.noAudio' };
    return {
      ok: true,
      facts: {
        durationMs,
        width: null,
        height: null,
        codec: audio.codec_name ?? null,
        hasAudio: true,
      },
    };
  }
  const stream = kind === 'video' ? motion[0] : pictures[0];
  if (!stream)
    return { ok: false, reason: kind === 'video' ? 'upload.noVideo' : 'upload.unreadable' };
  const turned = rotationOf(stream) === 90;
  const width = (turned ? stream.height : stream.width) ?? null;
  const height = (turned ? stream.width : stream.height) ?? null;
  if (!width || !height) return { ok: false, reason: 'upload.unreadable' };
  return {
    ok: true,
    facts: {
      durationMs: kind === 'video' ? durationMs : null,
      width,
      height,
      codec: stream.codec_name ?? null,
      hasAudio: kind === 'video' ? !!audio : null,
    },
  };
}

/** Posters fit in this square (a library grid's card; the player loads the video itself). */
export const POSTER_MAX = 480;
export const POSTER_TYPE = 'image/webp';

/**
 * Writes a WebP poster of at most 480 px to `out`: a video's frame at 1 s (its first frame when
 * it is shorter than 2 s), an image's thumbnail (never enlarged; transparency kept). Resolves
 * false when ffmpeg decodes no frame.
 */
export async function makePoster(
  file: string,
  kind: 'video' | 'image',
  durationMs: number | null,
  out: string,
): Promise<boolean> {
  const seek = kind === 'video' && (durationMs ?? 0) >= 2000 ? ['-ss', '1'] : [];
  const scale = `scale=w='min(${POSTER_MAX},iw)':h='min(${POSTER_MAX},ih)':force_original_aspect_ratio=decrease`;
  try {
    await runNiced(
      'ffmpeg',
      [
        ...['-nostdin', '-v', 'error', '-y'],
        ...seek,
        ...['-i', file, '-frames:v', '1', '-vf', scale, '-c:v', 'libwebp', '-quality', '80'],
        ...['-f', 'webp', out],
      ],
      { signal: AbortSignal.timeout(120_000) },
    );
  } catch (error) {
    if (isMissingTool(error)) throw error;
    return false;
  }
  const written = await fsp.stat(out).catch(() => undefined);
  return !!written && written.size > 0;
}
