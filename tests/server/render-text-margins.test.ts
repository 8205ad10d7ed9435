import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateLayout } from '../../src/api/contract/dh-templates';
import { createEmbeddedProvider } from '../../server/integrations/digital-human/embedded';
import { renderVideo } from '../../server/platform/render/render';
import type { RenderInput, RenderSpec } from '../../server/platform/render/spec';

/**
 * Long Chinese titles and subtitles stay inside a 9:16 frame's safe margins (5 % of the width on
 * each side), in both renderers: the video tasks' and the embedded digital-human provider's. Each
 * is rendered with and without the text over a plain grey picture; the pixels that differ are the
 * text (fill and outline), and none of them may reach the margins.
 */
const run = promisify(execFile);
const W = 720;
const H = 1280;
const MARGIN = W * 0.05;

const SUBTITLE =
  '今天我们来聊一聊如何在短视频平台上快速吸引观众的注意力并且提高视频的完播率和互动率，' +
  '记得点赞关注我们的账号获取更多实用的创作技巧和最新的平台运营资讯';
const TITLE = '夏季新品限时特惠活动火热进行中全场商品低至五折起欢迎选购';

let dir: string;
let grey: RenderInput;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-margins-'));
  const still = path.join(dir, 'grey.png');
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', `color=c=0x808080:s=${W}x${H}`],
    ...['-frames:v', '1', still],
  ]);
  grey = { source: still, duration: null, hasAudio: false };
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The frame at `at` seconds as 8-bit grey pixels. */
async function frame(file: string, at: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 24 },
  );
  expect(stdout.length).toBe(W * H);
  return stdout;
}

/** Where the text is: the pixels that differ from the frame without it, in rows y0–y1. */
function textBox(plain: Buffer, text: Buffer, y0 = 0, y1 = H) {
  let left = W;
  let right = -1;
  let count = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = 0; x < W; x += 1) {
      if (Math.abs(plain[y * W + x]! - text[y * W + x]!) > 40) {
        count += 1;
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  return { left, right, count };
}

function expectInside(box: ReturnType<typeof textBox>, what: string) {
  expect(box.count, `${what} is drawn`).toBeGreaterThan(2000);
  expect(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(MARGIN);
  expect(box.right, `${what}: right edge`).toBeLessThan(W - MARGIN);
  // Wrapped, not merely shrunk to a sliver: the text spans most of the safe width.
  expect(box.right - box.left, `${what}: width`).toBeGreaterThan(W * 0.5);
}

describe('long text in a 9:16 frame', () => {
  it('video tasks: a long title and a long Chinese subtitle wrap inside the margins', async () => {
    const spec = (over: Partial<RenderSpec>): RenderSpec => ({
      width: W,
      height: H,
      fps: 25,
      bitrateKbps: 4000,
      segments: [{ input: grey, start: 0, length: 2 }],
      keepOriginalSound: false,
      music: null,
      musicVolume: 5,
      titles: [],
      subtitles: null,
      stickers: [],
      preset: 'ultrafast',
      ...over,
    });
    const plain = path.join(dir, 'plain.mp4');
    const texted = path.join(dir, 'texted.mp4');
    await renderVideo(spec({}), plain);
    await renderVideo(
      spec({
        titles: [{ text: TITLE, size: 64, color: '#FFFFFF', position: 'top' }],
        subtitles: { text: SUBTITLE, fontFile: null, size: 40, color: '#FFFF00' },
      }),
      texted,
    );
    // Both halves of the subtitle (shown two lines at a time), and the title above them.
    for (const at of [0.6, 1.5]) {
      const [p, t] = await Promise.all([frame(plain, at), frame(texted, at)]);
      expectInside(textBox(p, t, 0, H / 2), `the title at ${at} s`);
      expectInside(textBox(p, t, H / 2, H), `the subtitle at ${at} s`);
    }
  }, 60_000);

  it('digital-human videos: a long Chinese script’s subtitles wrap inside the margins', async () => {
    const provider = createEmbeddedProvider({ preset: 'ultrafast' });
    const loop = path.join(dir, 'loop.mp4');
    const speech = path.join(dir, 'speech.wav');
    await Promise.all([
      run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', `color=c=0x808080:s=${W}x${H}:r=25`, '-t', '1'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', loop],
      ]),
      run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=2', speech],
      ]),
    ]);
    const layout: TemplateLayout = {
      avatar: { x: 0, y: 0, width: 1, height: 1 },
      subtitle: { y: 0.9, size: 0.045, color: '#FFFFFF' },
      background: '#000000',
    };
    const render = async (subtitles: boolean) => {
      const workDir = await fs.mkdtemp(path.join(dir, 'dh-'));
      const result = await provider.renderVideo(
        {
          avatar: {
            poster: { path: loop },
            loop: { path: loop },
            vendorRef: null,
            width: W,
            height: H,
          },
          speech: { path: speech, duration: 2 },
          text: SUBTITLE,
          subtitles,
          width: W,
          height: H,
          layout,
        },
        { workDir },
      );
      return result.videoPath;
    };
    const plain = await render(false);
    const texted = await render(true);
    for (const at of [0.5, 1.5]) {
      const [p, t] = await Promise.all([frame(plain, at), frame(texted, at)]);
      expectInside(textBox(p, t, H / 2, H), `the subtitle at ${at} s`);
    }
  }, 60_000);
});
