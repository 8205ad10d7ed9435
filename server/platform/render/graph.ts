import type { RenderInput, RenderSpec, RenderTitle } from './spec';
import { plannedDuration } from './spec';
import { fitTitle, SAFE_MARGIN, type FittedText } from './text-fit';

/**
 * The ffmpeg command of one output, as a pure function of the spec and the run's files (a pure
 * function: the tests read the graph, the bench runs the same commands without the queue).
 *
 * Inputs: one per segment (`-ss start -t length -i source`; an image loops for `length`), then
 * the stickers, then the music (`-stream_loop -1`). The filter graph:
 *
 *   segment i video: fps → centre crop to the target ratio → scale to W×H → hold the last frame
 *                    (tpad clone) → cut to `length` (trim) → [vi]; with `fit: 'blur'` instead of
 *                    the crop: split → (scaled to fit) overlaid on (scaled to fill, cropped,
 *                    blurred small and scaled up) → …
 *   segment i audio: its own sound (resampled, stereo, padded with silence, cut) when kept and present,
 *                    else silence of `length` → [ai]
 *   [v0][a0][v1][a1]… concat → stickers (overlay) → titles (drawtext) → subtitles (libass)
 *                    → fade in/out → [vout]
 *   concat audio (+ music: looped, cut, gain volume/5, amix without normalising) → afade → [aout]
 *
 * Encoded H.264 (libx264, yuv420p) at the spec's bitrate (maxrate = bitrate, bufsize = 2×), AAC,
 * `+faststart`, cut to the planned duration (`-t`).
 */

/** The run's files that renderVideo writes before ffmpeg starts. */
export interface RenderPaths {
  /**
   * Per title (the spec's order), one text file per line of `fitTitles` (drawtext `textfile=`:
   * no text escaping).
   */
  titleFiles: readonly (readonly string[])[];
  /** The titles' font: a fontconfig family (preferred) or a font file. */
  titleFont: { family: string | null; file: string };
  /** The ASS script when the spec has subtitles. */
  assFile: string | null;
  /** A directory holding the subtitles' own font (libass `fontsdir`), if any. */
  fontsDir: string | null;
  /** Where to write a JPEG poster in the same run (RenderOptions.posterPath), if asked. */
  poster?: string | null;
  /** The watermark's text file, when the spec has one. */
  watermarkFile?: string | null;
}

/** Posters: the frame at 0.5 s (the middle of a shorter video), at most 360 px wide. */
export const POSTER_AT = 0.5;
export const POSTER_WIDTH = 360;

/** Audio of every part: one format, so concat and amix need no guessing. */
export const AUDIO_FORMAT = 'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo';
/**
 * A source's sound as stereo at its own level: mono (FC) goes to both sides unchanged (ffmpeg's
 * automatic upmix would lower it by 3 dB), stereo stays as it is, a centre channel is added in.
 */
export const TO_STEREO = 'pan=stereo|FL=FL+FC|FR=FR+FC';
/** Fade in and out at the ends of the video, seconds (shorter for very short videos). */
const FADE = 0.3;
/** The dip through black at each join with `transition: 'fade'` (each side), seconds. */
const TRANSITION_FADE = 0.25;
/** The watermark's size, pixels of a 720-short-side frame. */
const WATERMARK_SIZE = 24;
/**
 * The music under a narration: sidechain compression keyed by the speech; the threshold sits
 * well under speech level and over silence, the release lets the music come back between
 * sentences (docs/domain.md §9 "Narration").
 */
export const DUCKING =
  'sidechaincompress=threshold=0.02:ratio=12:attack=15:release=350:makeup=1:level_sc=1';

/** A number as ffmpeg reads it: at most 3 decimals, no exponent. */
const n = (value: number) => String(Math.round(value * 1000) / 1000);

/**
 * A value inside a filter's option list (`key=VALUE`) escaped for both levels ffmpeg parses:
 * the option level (`\ ' :`), then the filter graph level (`\ ' [ ] , ;`). Paths only: texts go
 * through files.
 */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** #RRGGBB as drawtext's 0xRRGGBB (white when malformed). */
const drawColour = (hex: string) => (/^#[0-9a-f]{6}$/i.test(hex) ? `0x${hex.slice(1)}` : 'white');

/** Sizes in the spec are pixels of a 720-short-side frame; 1080p scales them by 1.5. */
export const sizeScale = (spec: Pick<RenderSpec, 'width' | 'height'>) =>
  Math.min(spec.width, spec.height) / 720;

/** Where a title's block of lines starts: its top at 8 %, centred, or its bottom at 80 %. */
const TITLE_TOP: Record<RenderTitle['position'], (H: number, block: number) => number> = {
  top: (H) => H * 0.08,
  center: (H, block) => (H - block) / 2,
  bottom: (H, block) => H * 0.8 - block,
};
/** A title's lines are this many times its size apart; its glyphs rise ≈ 0.88 em (Noto CJK). */
const TITLE_LINE_HEIGHT = 1.25;
const TITLE_ASCENT = 0.88;
const titleBorder = (size: number) => Math.max(1, Math.round(size / 16));

/**
 * Each title's size (pixels of this frame) and lines: wrapped inside the side margins, and made
 * smaller (to 60 % at least) when it would take more than three lines.
 */
export function fitTitles(spec: Pick<RenderSpec, 'width' | 'height' | 'titles'>): FittedText[] {
  const scale = sizeScale(spec);
  return spec.titles.map((title) => {
    const size = Math.max(8, Math.round(title.size * scale));
    return fitTitle(title.text, size, spec.width * (1 - 2 * SAFE_MARGIN), {
      maxLines: 3,
      minSize: Math.max(8, Math.round(size * 0.6)),
      border: titleBorder,
    });
  });
}

const isImage = (input: RenderInput) => input.duration === null;

export function buildRenderArgs(spec: RenderSpec, outPath: string, paths: RenderPaths): string[] {
  const { width: W, height: H, fps } = spec;
  const total = plannedDuration(spec);
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-y'];
  const graph: string[] = [];
  let index = 0;

  // Segments.
  const parts: string[] = [];
  spec.segments.forEach((segment, i) => {
    const { input, start, length } = segment;
    if (isImage(input)) {
      args.push('-loop', '1', '-framerate', n(fps), '-t', n(length), '-i', input.source);
    } else {
      args.push('-ss', n(start), '-t', n(length), '-i', input.source);
    }
    const at = index++;
    // `fade` between shots: each shot dips through black at the joins (not at the video's ends,
    // which fade anyway), so the timeline keeps its length.
    const dip = Math.min(TRANSITION_FADE, length / 4);
    const joins =
      spec.transition === 'fade'
        ? (i > 0 ? `,fade=t=in:st=0:d=${n(dip)}` : '') +
          (i < spec.segments.length - 1 ? `,fade=t=out:st=${n(length - dip)}:d=${n(dip)}` : '')
        : '';
    const hold =
      `setsar=1,format=yuv420p,tpad=stop_mode=clone:stop_duration=${n(length)},` +
      `trim=duration=${n(length)},setpts=PTS-STARTPTS${joins}[v${i}]`;
    if (spec.fit === 'blur') graph.push(...blurFit(`${at}:v`, i, spec), `[fit${i}]${hold}`);
    else {
      graph.push(
        `[${at}:v]fps=${n(fps)},` +
          `crop=w='min(iw,ih*${W}/${H})':h='min(ih,iw*${H}/${W})',` +
          `scale=${W}:${H},${hold}`,
      );
    }
    if (spec.keepOriginalSound && input.hasAudio && !isImage(input)) {
      graph.push(
        `[${at}:a]aresample=44100,${TO_STEREO},${AUDIO_FORMAT},apad,` +
          `atrim=duration=${n(length)},asetpts=PTS-STARTPTS[a${i}]`,
      );
    } else {
      graph.push(
        `anullsrc=r=44100:cl=stereo,${AUDIO_FORMAT},atrim=duration=${n(length)},` +
          `asetpts=PTS-STARTPTS[a${i}]`,
      );
    }
    parts.push(`[v${i}][a${i}]`);
  });
  graph.push(`${parts.join('')}concat=n=${spec.segments.length}:v=1:a=1[vcat][acat]`);
  let video = 'vcat';

  // Stickers.
  spec.stickers.forEach((sticker, k) => {
    args.push('-i', sticker.input.source);
    const at = index++;
    const w = Math.max(2, Math.round(W * sticker.width));
    graph.push(`[${at}:v]format=rgba,scale=${w}:-1[st${k}]`);
    graph.push(
      `[${video}][st${k}]overlay=x=${Math.round(W * sticker.x)}:y=${Math.round(H * sticker.y)}` +
        `:eof_action=repeat[vst${k}]`,
    );
    video = `vst${k}`;
  });

  // Titles, subtitles, fades.
  const fade = Math.min(FADE, total / 4);
  const chain: string[] = [];
  const font = paths.titleFont.family
    ? `font=${filterValue(paths.titleFont.family)}`
    : `fontfile=${filterValue(paths.titleFont.file)}`;
  fitTitles(spec).forEach(({ size, lines }, t) => {
    const title = spec.titles[t]!;
    const files = paths.titleFiles[t];
    if (files?.length !== lines.length) throw new Error(`No text files for title ${t}`);
    // One drawtext per line, each centred; lines share one baseline step (`ascent`: the line's
    // own tallest glyph, so the baselines do not depend on the characters).
    const step = size * TITLE_LINE_HEIGHT;
    const top = TITLE_TOP[title.position](H, step * lines.length) + (step - size) / 2;
    files.forEach((file, i) => {
      const baseline = Math.round(top + i * step + size * TITLE_ASCENT);
      chain.push(
        `drawtext=${font}:textfile=${filterValue(file)}:expansion=none:fontsize=${size}` +
          `:fontcolor=${drawColour(title.color)}:borderw=${titleBorder(size)}` +
          `:bordercolor=black@0.6:x=(w-text_w)/2:y=${baseline}-ascent`,
      );
    });
  });
  if (spec.subtitles && paths.assFile) {
    chain.push(
      `subtitles=filename=${filterValue(paths.assFile)}` +
        (paths.fontsDir ? `:fontsdir=${filterValue(paths.fontsDir)}` : ''),
    );
  }
  if (spec.watermark && paths.watermarkFile) {
    const size = Math.max(8, Math.round(WATERMARK_SIZE * sizeScale(spec)));
    const mx = Math.round(W * SAFE_MARGIN);
    const my = Math.round(H * SAFE_MARGIN);
    const corner = spec.watermark.corner;
    const x = corner.endsWith('left') ? `${mx}` : `w-text_w-${mx}`;
    const y = corner.startsWith('top') ? `${my}` : `h-text_h-${my}`;
    chain.push(
      `drawtext=${font}:textfile=${filterValue(paths.watermarkFile)}:expansion=none` +
        `:fontsize=${size}:fontcolor=white@0.55:borderw=1:bordercolor=black@0.3:x=${x}:y=${y}`,
    );
  }
  chain.push(`fade=t=in:st=0:d=${n(fade)}`, `fade=t=out:st=${n(total - fade)}:d=${n(fade)}`);
  if (paths.poster) {
    // The poster from the same frames (no second decode): one frame at POSTER_AT (the middle
    // of a shorter video), at most POSTER_WIDTH wide.
    const at = total >= 2 * POSTER_AT ? POSTER_AT : total / 2;
    graph.push(`[${video}]${chain.join(',')},split=2[vout][vposter0]`);
    graph.push(
      `[vposter0]trim=start=${n(at)},setpts=PTS-STARTPTS,` +
        `scale='min(${POSTER_WIDTH},iw)':-2[vposter]`,
    );
  } else {
    graph.push(`[${video}]${chain.join(',')}[vout]`);
  }

  // Music and narration.
  let audio = 'acat';
  const gain = musicGain(spec.musicVolume);
  const mixed = ['[acat]'];
  let speech: string | null = null;
  if (spec.narration) {
    args.push('-i', spec.narration.source);
    const at = index++;
    graph.push(
      `[${at}:a]aresample=44100,${TO_STEREO},${AUDIO_FORMAT},apad,atrim=duration=${n(total)},` +
        `asetpts=PTS-STARTPTS[speech]`,
    );
    speech = 'speech';
  }
  if (spec.music && gain > 0) {
    args.push('-stream_loop', '-1', '-i', spec.music.source);
    const at = index++;
    graph.push(
      `[${at}:a]aresample=44100,${TO_STEREO},${AUDIO_FORMAT},atrim=duration=${n(total)},` +
        `asetpts=PTS-STARTPTS,volume=${n(gain)}[music]`,
    );
    if (speech) {
      // Ducking: the music is compressed while the speech (the key) is loud, by up to ≈ 15 dB.
      graph.push(`[speech]asplit=2[speechmix][speechkey]`);
      graph.push(`[music][speechkey]${DUCKING}[ducked]`);
      mixed.push('[ducked]');
      speech = 'speechmix';
    } else mixed.push('[music]');
  }
  if (speech) mixed.push(`[${speech}]`);
  if (mixed.length > 1) {
    graph.push(
      `${mixed.join('')}amix=inputs=${mixed.length}:duration=first:dropout_transition=0` +
        `:normalize=0[amix]`,
    );
    audio = 'amix';
  }
  graph.push(
    `[${audio}]afade=t=in:st=0:d=${n(fade)},afade=t=out:st=${n(total - fade)}:d=${n(fade)}[aout]`,
  );

  const kbps = Math.round(spec.bitrateKbps);
  args.push(
    ...['-filter_complex', graph.join(';'), '-map', '[vout]', '-map', '[aout]'],
    ...['-c:v', 'libx264', '-preset', spec.preset, '-pix_fmt', 'yuv420p', '-r', n(fps)],
    ...['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps * 2}k`],
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-ac', '2'],
    ...['-t', n(total), '-movflags', '+faststart', '-f', 'mp4'],
    ...['-progress', 'pipe:1', '-nostats', outPath],
  );
  if (paths.poster) {
    args.push(
      ...['-map', '[vposter]', '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '4'],
      ...['-f', 'mjpeg', paths.poster],
    );
  }
  return args;
}

/** The blurred background is made at an eighth of the frame (cheap to blur), then scaled up. */
const BLUR_SHRINK = 8;
const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/**
 * A segment shown whole (`fit: 'blur'`): the source scaled to fit the frame, centred over a copy
 * of itself scaled to fill it, blurred and a little darker (so the picture stands out), as [fit<i>].
 */
function blurFit(input: string, i: number, spec: RenderSpec): string[] {
  const { width: W, height: H, fps } = spec;
  const [w, h] = [even(W / BLUR_SHRINK), even(H / BLUR_SHRINK)];
  return [
    `[${input}]fps=${n(fps)},setsar=1,split=2[fitbg${i}][fitfg${i}]`,
    `[fitbg${i}]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},` +
      `boxblur=luma_radius=4:luma_power=2,eq=brightness=-0.08,scale=${W}:${H},setsar=1[fitbgs${i}]`,
    `[fitfg${i}]scale=${W}:${H}:force_original_aspect_ratio=decrease:force_divisible_by=2,` +
      `setsar=1[fitfgs${i}]`,
    `[fitbgs${i}][fitfgs${i}]overlay=x=(W-w)/2:y=(H-h)/2[fit${i}]`,
  ];
}

/**
 * The music's gain for volume 0–10: linear amplitude volume ÷ 5, so 0 = no music at all, 5 = as
 * it is (×1), 10 = double (×2, +6 dB).
 */
export function musicGain(volume: number): number {
  return Math.min(10, Math.max(0, volume)) / 5;
}
