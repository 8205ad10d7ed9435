import { speechSeconds } from '../../../src/api/contract/digital-human';
import { PREVIEW_FRAME, PREVIEW_LIMITS } from '../../../src/api/contract/video-task-preview';
import type { VideoNarration, VideoTaskParams } from '../../../src/api/contract/video-tasks';
import { subtitleLinesOf } from '../../platform/render/render';
import { plannedDuration, type RenderSpec } from '../../platform/render/spec';
import { splitSentences, type SubtitleLine } from '../../platform/render/subtitles';
import { SENTENCE_PAUSE } from './narration';
import { distinctGroups, type Combination } from './plan';

/**
 * What a preview renders (docs/domain.md §9 "Presets, batches and previews"), as pure functions
 * of the output's spec: the task's first combination at PREVIEW_FRAME, every piece of its
 * timeline (intro, a shot per group, outro) shortened by the same share so that the whole lasts
 * PREVIEW_LIMITS.seconds at most (a piece PREVIEW_LIMITS.minPiece at least), the subtitle lines'
 * times carried onto the shortened pieces, and no voice: a narration's sentences are timed by the
 * estimate of its speech.
 */

/** Frames per second and bitrate caps of a preview (a small frame needs little). */
export const PREVIEW_FPS = 15;
export const PREVIEW_KBPS = 500;

/**
 * The first combination of a body: the first shot of each group (a repeated id counts once) and
 * the first music. A sequential task's first output uses it; a random task draws its outputs at
 * add (seeded by the task's id), so its first output may use other shots of the same groups.
 */
export function firstCombination(params: VideoTaskParams): Combination {
  const music = params.music_ids?.[0] ?? null;
  if (params.kind === 'clip') return { shots: [params.resource_id], music };
  return {
    shots: distinctGroups(params.shot_groups.map((g) => g.resource_ids)).map((ids) => ids[0]!),
    music,
  };
}

/**
 * The narration's sentences timed by the estimate of its speech (speechSeconds, as the price
 * estimates it) with the pause the real speech has between sentences: what the preview shows in
 * place of the times of a speech it does not make.
 */
export function estimatedNarrationLines(narration: VideoNarration): SubtitleLine[] {
  const lines: SubtitleLine[] = [];
  let at = 0;
  for (const text of splitSentences(narration.text)) {
    const seconds = Math.max(0.5, speechSeconds(text, narration.speed));
    lines.push({ start: round3(at), end: round3(at + seconds), text });
    at += seconds + SENTENCE_PAUSE;
  }
  return lines;
}

/** The shortened length of each piece: one share for all, within the floor and the piece. */
export function shortenedLengths(lengths: readonly number[]): number[] {
  const total = lengths.reduce((sum, l) => sum + l, 0);
  const share = total > PREVIEW_LIMITS.seconds ? PREVIEW_LIMITS.seconds / total : 1;
  return lengths.map((l) => round3(Math.min(l, Math.max(PREVIEW_LIMITS.minPiece, l * share))));
}

/**
 * A time of the output (seconds) on the shortened timeline: inside piece i, the same fraction of
 * its shortened length; past the end, the end.
 */
export function timeMap(lengths: readonly number[], shortened: readonly number[]) {
  return (t: number): number => {
    let from = 0;
    let to = 0;
    for (const [i, length] of lengths.entries()) {
      if (t < from + length) return round3(to + ((t - from) / length) * shortened[i]!);
      from += length;
      to += shortened[i]!;
    }
    return round3(to);
  };
}

/**
 * The preview's spec from the output's: its frame, fps and bitrate capped, x264 `ultrafast`, the
 * pieces shortened, the subtitles' lines (as given, the narration's estimated ones, or the text
 * spread over the whole output) moved onto the shortened timeline, no narration sound.
 */
export function previewSpec(spec: RenderSpec, params: VideoTaskParams): RenderSpec {
  const lengths = spec.segments.map((s) => s.length);
  const shortened = shortenedLengths(lengths);
  const at = timeMap(lengths, shortened);
  let subtitles = spec.subtitles;
  if (subtitles) {
    const lines =
      !subtitles.lines && params.narration
        ? estimatedNarrationLines(params.narration)
        : subtitles.lines;
    const whole = subtitleLinesOf({ lines, text: subtitles.text }, plannedDuration(spec));
    subtitles = {
      ...subtitles,
      lines: whole
        .map((l) => ({ start: at(l.start), end: at(l.end), text: l.text }))
        .filter((l) => l.end > l.start),
    };
  }
  return {
    ...spec,
    ...PREVIEW_FRAME[params.ratio],
    fps: Math.min(spec.fps, PREVIEW_FPS),
    bitrateKbps: Math.min(spec.bitrateKbps, PREVIEW_KBPS),
    segments: spec.segments.map((s, i) => ({ ...s, length: shortened[i]! })),
    subtitles,
    narration: null,
    preset: 'ultrafast',
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
