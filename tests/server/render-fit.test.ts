import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderVideo } from '../../server/platform/render/render';
import type { RenderInput, RenderSpec } from '../../server/platform/render/spec';
import { fixture } from './media-fixtures';

/**
 * A 16:9 source in a 9:16 output, both ways a person can choose (`fit`): `crop` fills the frame
 * with the source's middle; `blur` shows the whole source across the frame's width, with blurred
 * bands of itself above and below. Read back as pixels and compared with the source's own frame.
 */
const run = promisify(execFile);
const W = 720;
const H = 1280;
/** The 16:9 picture scaled to the frame's width: 720 × 405, centred. */
const BAND = Math.round((W * 9) / 16);
const BAND_TOP = Math.round((H - BAND) / 2);

let dir: string;
let wide: RenderInput; // 1920×1080, 3 s (testsrc2: sharp, moving shapes)

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-fit-'));
  wide = { source: await fixture('wide-sound.mp4'), duration: 3, hasAudio: true };
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The frame at `at` seconds, scaled to w×h, as 8-bit grey pixels. */
async function frame(file: string, at: number, w: number, h: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1'],
      ...['-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 24 },
  );
  expect(stdout.length).toBe(w * h);
  return stdout;
}

/** Rows y0–y1 of a W-wide frame. */
const rows = (pixels: Buffer, y0: number, y1: number) => pixels.subarray(y0 * W, y1 * W);

const meanDiff = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

/** The steepest step between neighbouring columns (averaged down the rows): a sharp edge scores high. */
const steepest = (pixels: Buffer) => {
  const height = pixels.length / W;
  const column = (x: number) => {
    let sum = 0;
    for (let y = 0; y < height; y += 1) sum += pixels[y * W + x]!;
    return sum / height;
  };
  let step = 0;
  for (let x = 1; x < W; x += 1) step = Math.max(step, Math.abs(column(x) - column(x - 1)));
  return step;
};

const spread = (pixels: Buffer) => {
  const mean = pixels.reduce((s, v) => s + v, 0) / pixels.length;
  return Math.sqrt(pixels.reduce((s, v) => s + (v - mean) ** 2, 0) / pixels.length);
};

describe('a 16:9 source in a 9:16 output', () => {
  it('crop fills the frame with its middle; blur shows all of it over blurred bands', async () => {
    const spec = (fit: RenderSpec['fit']): RenderSpec => ({
      width: W,
      height: H,
      fps: 25,
      bitrateKbps: 3000,
      fit,
      segments: [{ input: wide, start: 0, length: 2 }],
      keepOriginalSound: false,
      music: null,
      musicVolume: 5,
      titles: [],
      subtitles: null,
      stickers: [],
      preset: 'ultrafast',
    });
    const cropped = path.join(dir, 'crop.mp4');
    const fitted = path.join(dir, 'blur.mp4');
    await renderVideo(spec('crop'), cropped);
    await renderVideo(spec('blur'), fitted);
    const at = 1;
    const [crop, blur, source] = await Promise.all([
      frame(cropped, at, W, H),
      frame(fitted, at, W, H),
      frame(wide.source, at, W, BAND),
    ]);
    // The source's whole width is the middle band of `blur`, not of `crop`.
    const middle = (f: Buffer) => rows(f, BAND_TOP, BAND_TOP + BAND);
    expect(meanDiff(middle(blur), source)).toBeLessThan(8);
    expect(meanDiff(middle(crop), source)).toBeGreaterThan(25);
    // `crop`'s middle is the source's middle (its centre 9:16 part), scaled up.
    const centreW = 2 * Math.round((1920 * H) / 1080 / 2);
    const centre = await frame(wide.source, at, centreW, H);
    const x0 = Math.round((centreW - W) / 2);
    const cut = Buffer.alloc(W * H);
    for (let y = 0; y < H; y += 1) centre.copy(cut, y * W, y * centreW + x0, y * centreW + x0 + W);
    expect(meanDiff(crop, cut)).toBeLessThan(10);
    // Above and below the band: a blurred picture (not black bars, not the crop's sharp one).
    const sharpEdge = steepest(rows(crop, 0, BAND_TOP - 8));
    expect(sharpEdge).toBeGreaterThan(100); // the crop: the source's yellow and blue bars meet
    for (const band of [rows(blur, 0, BAND_TOP - 8), rows(blur, BAND_TOP + BAND + 8, H)]) {
      expect(spread(band)).toBeGreaterThan(10); // a picture, not a flat bar
      expect(steepest(band)).toBeLessThan(sharpEdge / 5); // blurred
    }
    expect(meanDiff(rows(blur, 0, BAND_TOP - 8), rows(crop, 0, BAND_TOP - 8))).toBeGreaterThan(10);
  }, 60_000);
});
