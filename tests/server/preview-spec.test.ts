import { describe, expect, it } from 'vitest';
import type { VideoTaskParams } from '../../src/api/contract/video-tasks';
import {
  estimatedNarrationLines,
  firstCombination,
  previewSpec,
  shortenedLengths,
  timeMap,
} from '../../server/modules/video-tasks/preview-spec';
import { SENTENCE_PAUSE } from '../../server/modules/video-tasks/narration';
import type { RenderSpec } from '../../server/platform/render/spec';

/** A preview's pure parts (docs/decisions.md "Preview before paying"): what it renders. */

const input = (source: string) => ({ source, duration: 10, hasAudio: true });

const spec = (over: Partial<RenderSpec> = {}): RenderSpec => ({
  width: 720,
  height: 1280,
  fps: 25,
  bitrateKbps: 1200,
  segments: [
    { input: input('a'), start: 0, length: 2 },
    { input: input('b'), start: 1, length: 4 },
    { input: input('c'), start: 0, length: 2 },
  ],
  keepOriginalSound: true,
  music: null,
  musicVolume: 5,
  titles: [{ text: 'Sale', size: 48, color: '#FFFFFF', position: 'top' }],
  subtitles: null,
  stickers: [],
  preset: 'veryfast',
  ...over,
});

const params = (over: Record<string, unknown> = {}) =>
  ({
    kind: 'mixed',
    name: 'x',
    ratio: '9:16',
    resolution: '720p',
    fps: 25,
    bitrate: 1200,
    music_volume: 5,
    keep_original_sound: true,
    mode: 'random',
    count: 2,
    shot_groups: [{ resource_ids: [5, 5, 6] }, { resource_ids: [7, 8] }],
    music_ids: [9, 10],
    ...over,
  }) as VideoTaskParams;

describe('previews', () => {
  it('use the first shot of each group and the first music (a clip: its video)', () => {
    expect(firstCombination(params())).toEqual({ shots: [5, 7], music: 9 });
    expect(
      firstCombination({ ...params(), kind: 'clip', resource_id: 3 } as unknown as VideoTaskParams),
    ).toEqual({ shots: [3], music: 9 });
  });

  it('shorten every piece by one share to 4 s at most, none under 0.4 s', () => {
    expect(shortenedLengths([2, 4, 2])).toEqual([1, 2, 1]);
    expect(shortenedLengths([1, 1.5])).toEqual([1, 1.5]);
    // Twelve pieces of 1 s: each would be a third of a second; 0.4 s each instead.
    expect(shortenedLengths(Array(12).fill(1))).toEqual(Array(12).fill(0.4));
    expect(shortenedLengths([0.2, 7.8])).toEqual([0.2, 3.9]);
  });

  it('carry a time of the output onto the shortened piece it falls in', () => {
    const at = timeMap([2, 4, 2], [1, 2, 1]);
    expect([0, 1, 2, 4, 6, 7, 8, 9].map(at)).toEqual([0, 0.5, 1, 2, 3, 3.5, 4, 4]);
  });

  it('time a narration’s sentences by the speech estimate, with the pause between them', () => {
    const lines = estimatedNarrationLines({
      text: 'Hello there friends. Good morning.',
      voice_id: 1,
      speed: 2,
      volume: 1,
    });
    // 3 words ÷ 2.6 + 0.4 s, halved by the speed; then 2 words.
    const first = (3 / 2.6 + 0.4) / 2;
    const second = Math.max(0.5, (2 / 2.6 + 0.4) / 2);
    expect(lines.map((l) => l.text)).toEqual(['Hello there friends.', 'Good morning.']);
    expect(lines[0]!.start).toBe(0);
    expect(lines[0]!.end).toBeCloseTo(first, 3);
    expect(lines[1]!.start).toBeCloseTo(first + SENTENCE_PAUSE, 3);
    expect(lines[1]!.end).toBeCloseTo(first + SENTENCE_PAUSE + second, 3);
  });

  it('render the output’s spec small, short and without a voice; subtitles move with their pieces', () => {
    const out = previewSpec(
      spec({
        subtitles: {
          lines: [{ start: 3, end: 6, text: 'middle shot' }],
          fontFile: null,
          size: 36,
          color: '#FFFFFF',
        },
        narration: { source: 'speech.m4a', duration: null, hasAudio: true },
      }),
      params({ ratio: '4:3' }),
    );
    expect([out.width, out.height, out.fps, out.bitrateKbps, out.preset]).toEqual([
      480,
      360,
      15,
      500,
      'ultrafast',
    ]);
    expect(out.segments.map((s) => [s.input.source, s.start, s.length])).toEqual([
      ['a', 0, 1],
      ['b', 1, 2],
      ['c', 0, 1],
    ]);
    expect(out.narration).toBeNull();
    expect(out.titles).toEqual(spec().titles);
    expect(out.subtitles?.lines).toEqual([{ start: 1.5, end: 3, text: 'middle shot' }]);
  });

  it('spread a subtitle copy over the whole output, then shorten it with the pieces', () => {
    const out = previewSpec(
      spec({ subtitles: { text: 'One. Two.', fontFile: null, size: 36, color: '#FFFFFF' } }),
      params(),
    );
    // Over 8 s: "One." 0–4, "Two." 4–8; on the shortened 1 + 2 + 1 s: 0–2, 2–4.
    expect(out.subtitles?.lines).toEqual([
      { start: 0, end: 2, text: 'One.' },
      { start: 2, end: 4, text: 'Two.' },
    ]);
  });
});
