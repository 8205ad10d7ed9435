import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_SIZE, type VideoRatio } from '../../src/api/contract/video-tasks';
import { ChildProcessError } from '../../server/platform/jobs/child-process';
import { makePoster, probeVideo, renderVideo } from '../../server/platform/render/render';
import {
  plannedDuration,
  type RenderInput,
  type RenderSpec,
} from '../../server/platform/render/spec';
import { fixture } from './media-fixtures';

/**
 * Real renders: short clips at 720p ultrafast, one render at a time (the
 * file's tests run in order), each output read back with ffprobe or as pixels.
 */
const run = promisify(execFile);

let dir: string;
let wide: RenderInput; // 1920×1080, 3 s, sound
let small: RenderInput; // 640×480, 2 s, no sound
let tall: RenderInput; // 1080×1920, 2 s, sound
let sticker: RenderInput;
let tone: RenderInput; // 1.5 s of 440 Hz

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-test-'));
  const [w, s, t, st, m] = await Promise.all([
    fixture('wide-sound.mp4'),
    fixture('small-silent.mp4'),
    fixture('tall-sound.mp4'),
    fixture('sticker.png'),
    fixture('tone.mp3'),
  ]);
  wide = { source: w, duration: 3, hasAudio: true };
  small = { source: s, duration: 2, hasAudio: false };
  tall = { source: t, duration: 2, hasAudio: true };
  sticker = { source: st, duration: null, hasAudio: false };
  tone = { source: m, duration: 1.5, hasAudio: true };
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const spec = (over: Partial<RenderSpec>): RenderSpec => ({
  width: 960,
  height: 720,
  fps: 25,
  bitrateKbps: 600,
  segments: [{ input: small, start: 0, length: 2 }],
  keepOriginalSound: true,
  music: null,
  musicVolume: 5,
  titles: [],
  subtitles: null,
  stickers: [],
  preset: 'ultrafast',
  ...over,
});

const out = (name: string) => path.join(dir, name);
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** One frame as 8-bit grey pixels. */
async function frame(file: string, at: number, width: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', ...(at > 0 ? ['-ss', String(at)] : []), '-i', file, '-frames:v', '1'].concat([
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ]),
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  expect(stdout.length % width).toBe(0);
  return stdout;
}

/** Mean absolute difference of two frames inside a box given in fractions of the frame. */
function diff(a: Buffer, b: Buffer, width: number, box: [number, number, number, number]) {
  const height = a.length / width;
  const [x0, y0, x1, y1] = [box[0] * width, box[1] * height, box[2] * width, box[3] * height].map(
    Math.round,
  ) as [number, number, number, number];
  let sum = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) sum += Math.abs(a[y * width + x]! - b[y * width + x]!);
  }
  return sum / ((x1 - x0) * (y1 - y0));
}

const CENTRE: [number, number, number, number] = [0.1, 0.4, 0.9, 0.6];
const BOTTOM: [number, number, number, number] = [0.05, 0.82, 0.95, 0.96];
const TOP: [number, number, number, number] = [0.05, 0.02, 0.95, 0.2];

/** Loudness of the output's sound (ffmpeg volumedetect), dB. */
async function loudness(file: string, from = 0, length = 60) {
  const { stderr } = await run('ffmpeg', [
    ...['-hide_banner', '-ss', String(from), '-t', String(length), '-i', file],
    ...['-af', 'volumedetect', '-vn', '-f', 'null', '-'],
  ]);
  const read = (key: string) => Number(new RegExp(`${key}: (-?[\\d.]+|-inf) dB`).exec(stderr)?.[1]);
  return { mean: read('mean_volume'), max: read('max_volume') };
}

describe('renderVideo', () => {
  it.each([
    ['9:16', 25],
    ['16:9', 30],
    ['4:3', 24],
  ] as [VideoRatio, number][])(
    'renders %s at 720p and %i fps: H.264 at the asked size, fps and planned duration',
    async (ratio, fps) => {
      const size = FRAME_SIZE[ratio]['720p'];
      const s = spec({
        ...size,
        fps,
        segments: [
          { input: wide, start: 0.5, length: 1 },
          { input: tall, start: 0, length: 0.7 },
          // Starts 1 s before its end and lasts 1.3 s: its last frame is held (the last
          // segment, where nothing after it would fill the gap).
          { input: small, start: 1, length: 1.3 },
        ],
        music: tone,
        stickers: [{ input: sticker, x: 0.6, y: 0.6, width: 0.25 }],
      });
      const progress: number[] = [];
      const file = out(`ratio-${ratio.replace(':', 'x')}.mp4`);
      const poster = out(`ratio-${ratio.replace(':', 'x')}.jpg`);
      const result = await renderVideo(s, file, {
        onProgress: (f) => progress.push(f),
        posterPath: poster,
      });
      const facts = await probeVideo(file);
      expect(facts.codec).toBe('h264');
      expect([facts.width, facts.height]).toEqual([size.width, size.height]);
      expect(facts.fps).toBeCloseTo(fps, 5);
      expect(facts.hasAudio).toBe(true);
      expect(plannedDuration(s)).toBe(3);
      expect(Math.abs(facts.duration - 3)).toBeLessThanOrEqual(0.1);
      // Each stream too (the container's duration is the longer one's).
      const streams = await run('ffprobe', [
        ...['-v', 'error', '-show_entries', 'stream=codec_type,duration,nb_frames'],
        ...['-of', 'csv=p=0', file],
      ]);
      const [video, audio] = streams.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(','));
      expect(video![0]).toBe('video');
      expect(Math.abs(Number(video![1]) - 3)).toBeLessThanOrEqual(0.1);
      expect(Number(video![2])).toBe(3 * fps);
      expect(audio![0]).toBe('audio');
      expect(Math.abs(Number(audio![1]) - 3)).toBeLessThanOrEqual(0.1);
      expect(result).toMatchObject({ width: size.width, height: size.height });
      expect(result.duration).toBe(facts.duration);
      expect(result.size).toBe((await fs.stat(file)).size);
      // Progress climbs to 1.
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=pix_fmt',
        '-select_streams',
        'v',
        '-of',
        'csv=p=0',
        file,
      ]);
      expect(stdout.trim()).toBe('yuv420p');
      // The poster written by the same run: a JPEG 360 px wide, of the frame's ratio.
      expect([...(await fs.readFile(poster)).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const posterSize = await run('ffprobe', [
        ...['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', poster],
      ]);
      const posterHeight = 2 * Math.round((360 * size.height) / size.width / 2);
      expect(posterSize.stdout.trim()).toBe(`360,${posterHeight}`);
    },
    60_000,
  );

  it('makes a JPEG poster at most 360 px wide', async () => {
    const jpg = out('poster.jpg');
    await makePoster(out('ratio-16x9.mp4'), jpg);
    const bytes = await fs.readFile(jpg);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      jpg,
    ]);
    expect(stdout.trim()).toBe('360,202');
    // The same frame as the poster the render wrote itself (not the faded-in first frame).
    const [made, inRun, first] = await Promise.all([
      frame(jpg, 0, 360),
      frame(out('ratio-16x9.jpg'), 0, 360),
      frame(out('ratio-16x9.mp4'), 0, 1280),
    ]);
    expect(diff(made, inRun, 360, [0, 0, 1, 1])).toBeLessThan(3);
    expect(first.reduce((sum, v) => sum + v, 0) / first.length).toBeLessThan(20); // black
    expect(made.reduce((sum, v) => sum + v, 0) / made.length).toBeGreaterThan(40);
    await makePoster(out('ratio-9x16.mp4'), jpg, { duration: 3 });
    const portrait = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      jpg,
    ]);
    expect(portrait.stdout.trim()).toBe('360,640');
  });

  // A still background (colour bars), so that only titles and subtitles change the pixels, and a
  // high bitrate, so that the encoder's noise stays well below what a drawn text makes.
  const W = 960;
  const still = (over: Partial<RenderSpec>) => spec({ bitrateKbps: 4000, ...over });
  const plainStill = async () => {
    const file = out('plain.mp4');
    if (!(await exists(file))) await renderVideo(still({}), file);
    return file;
  };
  it('draws CJK titles with real glyphs, and timed subtitles', async () => {
    const plain = await plainStill();
    const titled = out('titled.mp4');
    const other = out('other-title.mp4');
    await renderVideo(
      still({
        titles: [{ text: '中文标题', size: 64, color: '#FFFFFF', position: 'center' }],
        subtitles: {
          text: '今天天气很好。我们去公园吧！',
          fontFile: null,
          size: 40,
          color: '#FFFF00',
        },
      }),
      titled,
    );
    await renderVideo(
      still({ titles: [{ text: '视频混剪', size: 64, color: '#FFFFFF', position: 'center' }] }),
      other,
    );
    const [p, t, o] = await Promise.all([plain, titled, other].map((f) => frame(f, 0.5, W)));
    expect(diff(p!, t!, W, CENTRE)).toBeGreaterThan(5); // the title is drawn
    expect(diff(p!, o!, W, CENTRE)).toBeGreaterThan(5);
    // Different characters, different pixels: real glyphs, not "missing glyph" boxes.
    expect(diff(t!, o!, W, CENTRE)).toBeGreaterThan(5);
    expect(diff(p!, t!, W, TOP)).toBeLessThan(1); // nothing drawn elsewhere
    // Subtitles: the first sentence in the first second, the second in the next.
    expect(diff(p!, t!, W, BOTTOM)).toBeGreaterThan(2);
    const [p2, t2] = await Promise.all([plain, titled].map((f) => frame(f, 1.5, W)));
    expect(diff(p2!, t2!, W, BOTTOM)).toBeGreaterThan(2);
    expect(diff(t!, t2!, W, BOTTOM)).toBeGreaterThan(2);
    expect(diff(t!, t2!, W, CENTRE)).toBeLessThan(1); // the title stays
  }, 60_000);

  it('renders hostile title text literally (quotes, colon, backslash, %{…}, newline)', async () => {
    // The run's temp files live under a directory whose name needs escaping in a filter graph.
    const tmpDir = await fs.mkdtemp(path.join(dir, "it's: [a],b;c\\d "));
    const file = out('hostile.mp4');
    const text = 'Say "hi" it\'s a:b\\c %{pts} %{localtime} 100%\n第二行';
    await renderVideo(
      still({ titles: [{ text, size: 40, color: '#FFFFFF', position: 'top' }] }),
      file,
      { tmpDir },
    );
    const plain = await frame(await plainStill(), 0.5, W);
    const [a, b] = await Promise.all([frame(file, 0.5, W), frame(file, 1.5, W)]);
    expect(diff(plain, a, W, TOP)).toBeGreaterThan(3); // drawn
    // %{pts} would change with time if it were expanded: the title's pixels stay the same.
    expect(diff(a, b, W, TOP)).toBeLessThan(1);
    expect(await fs.readdir(tmpDir)).toEqual([]); // the run's files are removed
  }, 30_000);

  it('reads inputs and the subtitles’ own font from http URLs (presigned S3) or paths', async () => {
    const mono = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
    const server = http.createServer((req, res) => {
      const file = req.url?.startsWith('/font') ? mono : small.source;
      void fs.readFile(file).then((bytes) => res.end(bytes));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const text = 'Monospaced subtitles here.';
      const subtitles = (fontFile: string | null) => ({
        text,
        fontFile,
        size: 40,
        color: '#FFFFFF',
      });
      const files = ['sub-default.mp4', 'sub-mono-path.mp4', 'sub-mono-url.mp4'].map(out);
      await renderVideo(still({ subtitles: subtitles(null) }), files[0]!);
      await renderVideo(still({ subtitles: subtitles(mono) }), files[1]!);
      const remote = { ...small, source: `${base}/clip.mp4?X-Amz-Signature=abc` };
      await renderVideo(
        still({
          segments: [{ input: remote, start: 0, length: 2 }],
          subtitles: subtitles(`${base}/font.ttf?X-Amz-Signature=abc`),
        }),
        files[2]!,
      );
      const [d, p, u] = await Promise.all(files.map((f) => frame(f, 1, W)));
      expect(diff(d!, p!, W, BOTTOM)).toBeGreaterThan(2); // another font
      expect(diff(p!, u!, W, BOTTOM)).toBeLessThan(1); // the same one, fetched
      expect(diff(p!, u!, W, CENTRE)).toBeLessThan(1); // the same clip, over HTTP
    } finally {
      server.close();
    }
  }, 60_000);

  it('mixes the music at the chosen volume: 0 none, 10 twice 5’s amplitude, looped', async () => {
    const volumes = [0, 5, 10] as const;
    const levels = [];
    for (const musicVolume of volumes) {
      const file = out(`music-${musicVolume}.mp4`);
      await renderVideo(
        spec({
          segments: [{ input: wide, start: 0, length: 3 }],
          keepOriginalSound: false,
          music: tone,
          musicVolume,
        }),
        file,
      );
      levels.push(await loudness(file));
    }
    const [none, half, full] = levels as [
      (typeof levels)[0],
      (typeof levels)[0],
      (typeof levels)[0],
    ];
    expect(Number.isNaN(none.max) || none.max < -80).toBe(true);
    expect(full.mean - half.mean).toBeGreaterThan(5);
    expect(full.mean - half.mean).toBeLessThan(7);
    // 5 leaves the music as it is: as loud as the tone file itself (away from the fades).
    const [own, mixed] = [
      await loudness(tone.source, 0.2, 1),
      await loudness(out('music-5.mp4'), 0.5, 1),
    ];
    expect(Math.abs(mixed.mean - own.mean)).toBeLessThan(1);
    // The 1.5 s tone loops: there is sound after it ends.
    expect((await loudness(out('music-5.mp4'), 1.8, 0.6)).mean).toBeGreaterThan(-40);
  }, 60_000);

  it('keeps a clip’s own sound, and silence for a clip without one', async () => {
    const file = out('own-sound.mp4');
    await renderVideo(
      spec({
        segments: [
          { input: wide, start: 0, length: 1.5 },
          { input: small, start: 0, length: 1.5 },
        ],
      }),
      file,
    );
    expect((await loudness(file, 0.4, 0.8)).mean).toBeGreaterThan(-40);
    const quiet = await loudness(file, 1.7, 0.8);
    expect(Number.isNaN(quiet.max) || quiet.max < -80).toBe(true);
  });

  it('rejects a broken input with ffmpeg’s reason and leaves no output', async () => {
    const broken = out('broken.mp4');
    await fs.writeFile(broken, randomBytes(4096));
    const file = out('from-broken.mp4');
    const poster = out('from-broken.jpg');
    await fs.writeFile(poster, 'left from before');
    const error = await renderVideo(
      spec({
        segments: [{ input: { source: broken, duration: 2, hasAudio: true }, start: 0, length: 2 }],
      }),
      file,
      { posterPath: poster },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildProcessError);
    expect((error as ChildProcessError).message).toMatch(
      /^ffmpeg exited with \d+: .*broken\.mp4.*Invalid data/s,
    );
    expect(await exists(file)).toBe(false);
    expect(await exists(poster)).toBe(false);
  });

  it('stops ffmpeg when aborted and removes the partial output', async () => {
    const file = out('aborted.mp4');
    const controller = new AbortController();
    const started = Date.now();
    const rendering = renderVideo(
      spec({
        width: 1920,
        height: 1080,
        preset: 'medium',
        segments: [{ input: wide, start: 0, length: 30 }],
      }),
      file,
      {
        signal: controller.signal,
        onProgress: () => controller.abort(new Error('cancelled by the test')),
      },
    );
    await expect(rendering).rejects.toThrow('cancelled by the test');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await exists(file)).toBe(false);
    // No ffmpeg is left writing it.
    const { stdout } = await run('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(file);
  }, 30_000);
});
