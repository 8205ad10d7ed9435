import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FRAME_SIZE,
  VIDEO_FITS,
  VIDEO_RATIOS,
  type VideoFit,
  type VideoRatio,
} from '../../src/api/contract/video-tasks';
import { renderVideo } from '../../server/platform/render/render';
import type { RenderInput, RenderSpec } from '../../server/platform/render/spec';
import { fixture } from './media-fixtures';
import { ffprobe } from './video-task-fixtures';

/**
 * The renderer's frame for every ratio × fit (the asked size, ffprobe), and the music ducked under
 * a narration (its level measured in its own frequency band while the speech plays and after).
 */
const run = promisify(execFile);
let dir: string;
let source: RenderInput; // 640×480 (4:3), 2 s, silent

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-ratios-'));
  source = { source: await fixture('small-silent.mp4'), duration: 2, hasAudio: false };
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const base = (width: number, height: number, extra: Partial<RenderSpec> = {}): RenderSpec => ({
  width,
  height,
  fps: 10,
  bitrateKbps: 600,
  segments: [{ input: source, start: 0, length: 1 }],
  keepOriginalSound: false,
  music: null,
  musicVolume: 5,
  titles: [],
  subtitles: null,
  stickers: [],
  preset: 'ultrafast',
  ...extra,
});

describe('every ratio × fit at 720p', () => {
  const cases = VIDEO_RATIOS.flatMap((ratio) => VIDEO_FITS.map((fit) => [ratio, fit] as const));
  it.each(cases)('%s with %s makes the asked frame', async (ratio: VideoRatio, fit: VideoFit) => {
    const { width, height } = FRAME_SIZE[ratio]['720p'];
    expect(Math.min(width, height)).toBe(720);
    const out = path.join(dir, `${ratio.replace(':', 'x')}-${fit}.mp4`);
    const result = await renderVideo(base(width, height, { fit }), out);
    const probed = await ffprobe(out);
    expect([probed.width, probed.height]).toEqual([width, height]);
    expect([result.width, result.height]).toEqual([width, height]);
  });
});

const band = (hz: number) => `bandpass=f=${hz}:width_type=q:w=8`;

/** Mean loudness (dB) of the file's sound between two times, in a narrow band around `hz`. */
async function bandVolume(file: string, hz: number, from: number, to: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-v', 'info', '-nostats', '-ss', String(from), '-t', String(to - from), '-i', file],
    ...['-vn', '-af', `${band(hz)},${band(hz)},volumedetect`, '-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  return match ? Number(match[1]) : -100;
}

describe('a narration over music', () => {
  it('is mixed in, and the music ducks under it', async () => {
    // "Speech": a 1500 Hz tone for the first second, then silence; music: a steady 300 Hz tone.
    const speech = path.join(dir, 'speech.wav');
    const music = path.join(dir, 'music.wav');
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=1500:duration=1'],
      ...['-af', 'apad=pad_dur=1.5,volume=0.8', speech],
    ]);
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=3', music],
    ]);
    const spec = (narration: boolean) =>
      base(720, 720, {
        segments: [{ input: source, start: 0, length: 2 }],
        music: { source: music, duration: 3, hasAudio: true },
        narration: narration ? { source: speech, duration: null, hasAudio: true } : null,
      });
    const plain = path.join(dir, 'music.mp4');
    const narrated = path.join(dir, 'narrated.mp4');
    await renderVideo(spec(false), plain);
    await renderVideo(spec(true), narrated);
    const speechLevel = await bandVolume(narrated, 1500, 0.35, 0.9);
    expect(speechLevel).toBeGreaterThan((await bandVolume(plain, 1500, 0.35, 0.9)) + 20);
    // The music under the speech is at least 8 dB lower than without a narration; it comes back
    // once the speech stops.
    const under = await bandVolume(narrated, 300, 0.35, 0.9);
    const alone = await bandVolume(plain, 300, 0.35, 0.9);
    expect(alone - under, `alone ${alone} dB, under ${under} dB`).toBeGreaterThan(8);
    const back = await bandVolume(narrated, 300, 1.45, 1.65);
    expect(Math.abs(back - (await bandVolume(plain, 300, 1.45, 1.65)))).toBeLessThan(3);
  });
});
