import type { TemplateLayout } from '../../../../src/api/contract/dh-templates';
import {
  AUDIO_FORMAT,
  filterValue,
  POSTER_AT,
  POSTER_WIDTH,
  TO_STEREO,
} from '../../../platform/render/graph';
import type { RenderPreset } from '../../../platform/config';

/**
 * The embedded provider's video as one ffmpeg command (a pure function: the tests read it).
 *
 * Inputs: the avatar's loop (`-stream_loop -1`), the speech, the music (`-stream_loop -1`), the
 * background picture (`-loop 1`). The filter graph (written to a script file: a long text's mouth
 * timeline would not fit in argv):
 *
 *   background colour W×H (+ the picture scaled to cover it, cropped, overlaid) ─┐
 *   avatar loop → fps 25 → scaled to cover the layout's avatar rect, cropped, cut to the speech
 *                          ├ overlay at the rect (the background skipped when the rect is the frame)
 *   → sendcmd (the mouth timeline) → overlay@m1 (half-open mouth) → overlay@m2 (open mouth)
 *   → subtitles (libass) → [vout] (+ a poster frame split off)
 *   speech → 44.1 kHz stereo, padded/cut to its length (+ music looped, cut, quiet, amix) → [aout]
 *
 * The mouth: two dark ellipses drawn once (geq on one small frame, then repeated), placed where
 * a presenter's mouth usually is in the avatar rect; every 40 ms (one frame at 25 fps) the speech's
 * loudness picks none, the half-open or the open one (sendcmd switches the overlays' `enable`).
 * Demonstration output, not lip-sync.
 *
 * Encoded H.264 (libx264 at the configured preset, CRF 23, yuv420p, 25 fps) + AAC, `+faststart`,
 * cut to the speech's length (`-t`).
 */

export const FPS = 25;
/** Seconds of speech per mouth step: one frame. */
export const MOUTH_STEP = 1 / FPS;
/** Where the mouth sits in the avatar rect (fractions of its width and height) and its width. */
const MOUTH = { x: 0.5, y: 0.4, width: 0.14 };
const MOUTH_COLOUR = '0x4A1010';
/** The music's gain under the speech (≈ -18 dB). */
export const MUSIC_GAIN = 0.125;

export interface VideoPaths {
  avatar: string;
  speech: string;
  music: string | null;
  /** The template's background picture, or null (the colour alone). */
  background: string | null;
  /** The sendcmd script switching the mouth (mouthCommands); null when the mouth never opens. */
  commands: string | null;
  /** The ASS script, or null without subtitles. */
  ass: string | null;
  out: string;
  poster: string;
}

export interface VideoPlan {
  width: number;
  height: number;
  layout: TemplateLayout;
  /** Seconds: the speech's length. */
  duration: number;
  preset: RenderPreset;
}

const n = (value: number) => String(Math.round(value * 1000) / 1000);
const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/** The avatar rect in pixels (even sizes, inside the frame). */
export function avatarRect(plan: Pick<VideoPlan, 'width' | 'height' | 'layout'>) {
  const { width: W, height: H } = plan;
  const a = {
    x: fraction(plan.layout.avatar?.x, 0),
    y: fraction(plan.layout.avatar?.y, 0),
    width: fraction(plan.layout.avatar?.width, 1),
    height: fraction(plan.layout.avatar?.height, 1),
  };
  const x = Math.max(0, Math.min(W - 2, Math.round(W * a.x)));
  const y = Math.max(0, Math.min(H - 2, Math.round(H * a.y)));
  const w = Math.min(even(W * a.width), W - x - ((W - x) % 2));
  const h = Math.min(even(H * a.height), H - y - ((H - y) % 2));
  return { x, y, w, h };
}

/** A layout fraction (0–1) from stored JSON; `fallback` when it is not a number. */
export const fraction = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;

/** #RRGGBB as ffmpeg's 0xRRGGBB (black when malformed). */
const colour = (hex: string) => (/^#[0-9a-f]{6}$/i.test(hex) ? `0x${hex.slice(1)}` : 'black');

/** An ellipse filling a w×h frame (alpha), drawn once and repeated for `frames` frames. */
function ellipse(w: number, h: number, frames: number, label: string): string {
  return (
    `color=c=${MOUTH_COLOUR}:s=${w}x${h}:r=${FPS}:d=${n(1 / FPS)},format=yuva420p,` +
    `geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':` +
    `a='if(lte(pow((X-W/2+0.5)/(W/2),2)+pow((Y-H/2+0.5)/(H/2),2),1),235,0)',` +
    `loop=loop=${frames}:size=1[${label}]`
  );
}

export function buildVideoGraph(plan: VideoPlan, paths: VideoPaths): string {
  const { width: W, height: H, duration: D } = plan;
  const rect = avatarRect(plan);
  const frames = Math.ceil(D * FPS) + 1;
  const graph: string[] = [];
  const avatar =
    `[0:v]fps=${FPS},scale=${rect.w}:${rect.h}:force_original_aspect_ratio=increase,` +
    `crop=${rect.w}:${rect.h},setsar=1,format=yuv420p,trim=duration=${n(D)},setpts=PTS-STARTPTS`;
  const full = rect.x === 0 && rect.y === 0 && rect.w === W && rect.h === H;
  // sendcmd refuses an empty script: without one the mouth simply stays closed.
  const mouth = paths.commands ? `,sendcmd=f=${filterValue(paths.commands)}` : '';
  if (full) {
    graph.push(`${avatar}${mouth}[base]`);
  } else {
    graph.push(`${avatar}[av]`);
    const fill = `color=c=${colour(plan.layout.background)}:s=${W}x${H}:r=${FPS}:d=${n(D)}`;
    if (paths.background) {
      // The picture covers the frame (scaled up, cropped at the centre) over the colour, which
      // shows through its transparent parts.
      graph.push(`${fill}[fill]`);
      graph.push(
        `[${backgroundInput(paths)}:v]scale=${W}:${H}:force_original_aspect_ratio=increase,` +
          `crop=${W}:${H},setsar=1,format=yuva420p[picture]`,
      );
      graph.push(`[fill][picture]overlay=x=0:y=0:eof_action=repeat:format=auto,format=yuv420p[bg]`);
    } else {
      graph.push(`${fill}[bg]`);
    }
    graph.push(`[bg][av]overlay=x=${rect.x}:y=${rect.y}:eof_action=repeat${mouth}[base]`);
  }
  const mw = even(rect.w * MOUTH.width);
  const halfH = even(mw * 0.3);
  const openH = even(mw * 0.6);
  const cx = rect.x + rect.w * MOUTH.x;
  const cy = rect.y + rect.h * MOUTH.y;
  graph.push(ellipse(mw, halfH, frames, 'm1'), ellipse(mw, openH, frames, 'm2'));
  const at = (h: number) => `x=${Math.round(cx - mw / 2)}:y=${Math.round(cy - h / 2)}`;
  graph.push(`[base][m1]overlay@m1=${at(halfH)}:enable=0[mouth1]`);
  const last = paths.ass
    ? `overlay@m2=${at(openH)}:enable=0,subtitles=filename=${filterValue(paths.ass)}`
    : `overlay@m2=${at(openH)}:enable=0`;
  const posterAt = D >= 2 * POSTER_AT ? POSTER_AT : D / 2;
  graph.push(`[mouth1][m2]${last},split=2[vout][vposter0]`);
  graph.push(
    `[vposter0]trim=start=${n(posterAt)},setpts=PTS-STARTPTS,` +
      `scale='min(${POSTER_WIDTH},iw)':-2[vposter]`,
  );

  const speech =
    `[1:a]aresample=44100,${TO_STEREO},${AUDIO_FORMAT},apad=whole_dur=${n(D)},` +
    `atrim=duration=${n(D)},asetpts=PTS-STARTPTS`;
  if (paths.music) {
    graph.push(`${speech}[speech]`);
    graph.push(
      `[2:a]aresample=44100,${TO_STEREO},${AUDIO_FORMAT},atrim=duration=${n(D)},` +
        `asetpts=PTS-STARTPTS,volume=${MUSIC_GAIN}[music]`,
    );
    graph.push(
      `[speech][music]amix=inputs=2:duration=first:dropout_transition=0:normalize=0[aout]`,
    );
  } else {
    graph.push(`${speech}[aout]`);
  }
  return graph.join(';\n');
}

/** The background picture's input index: after the avatar, the speech and the music. */
const backgroundInput = (paths: Pick<VideoPaths, 'music'>) => (paths.music ? 3 : 2);

/** ffmpeg's arguments; `graphFile` holds buildVideoGraph's script. */
export function buildVideoArgs(plan: VideoPlan, paths: VideoPaths, graphFile: string): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-v', 'error', '-y'],
    ...['-stream_loop', '-1', '-i', paths.avatar, '-i', paths.speech],
    ...(paths.music ? ['-stream_loop', '-1', '-i', paths.music] : []),
    // One still, repeated at the frame rate; the colour's length ends it (eof_action=repeat).
    ...(paths.background
      ? ['-loop', '1', '-framerate', String(FPS), '-t', n(plan.duration), '-i', paths.background]
      : []),
    ...['-filter_complex_script', graphFile, '-map', '[vout]', '-map', '[aout]'],
    ...['-c:v', 'libx264', '-preset', plan.preset, '-crf', '23', '-pix_fmt', 'yuv420p'],
    ...['-r', String(FPS), '-maxrate', '3000k', '-bufsize', '6000k'],
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-ac', '2'],
    ...['-t', n(plan.duration), '-movflags', '+faststart', '-f', 'mp4'],
    ...['-progress', 'pipe:1', '-nostats', paths.out],
    ...['-map', '[vposter]', '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '4'],
    ...['-f', 'mjpeg', paths.poster],
  ];
}

/**
 * The mouth per 40 ms step from the speech's loudness (RMS per step): 0 closed (quieter than
 * 15 % of the loud level, the 95th percentile), 1 half open, 2 open (above 50 %).
 */
export function mouthLevels(levels: ArrayLike<number>, loud: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < levels.length; i += 1) {
    const v = levels[i]! / (loud > 0 ? loud : 1);
    out.push(v > 0.5 ? 2 : v > 0.15 ? 1 : 0);
  }
  return out;
}

/**
 * The sendcmd script: each run of steps at level 1 or 2 turns its overlay on while it lasts
 * (`[enter]`/`[leave]`). Run bounds sit half a step before the frames' times, so a frame at
 * k × 40 ms falls safely inside its step.
 */
export function mouthCommands(levels: readonly number[]): string {
  const lines: string[] = [];
  const t = (step: number) => n(Math.max(0, (step - 0.5) * MOUTH_STEP));
  let i = 0;
  while (i < levels.length) {
    const level = levels[i]!;
    let j = i + 1;
    while (j < levels.length && levels[j] === level) j += 1;
    if (level > 0) {
      const target = `overlay@m${level}`;
      lines.push(`${t(i)}-${t(j)} [enter] ${target} enable 1, [leave] ${target} enable 0;`);
    }
    i = j;
  }
  return lines.map((line) => `${line}\n`).join('');
}
