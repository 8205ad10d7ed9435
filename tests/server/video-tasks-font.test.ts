import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';
import { waitFinished } from './video-task-fixtures';

/**
 * The subtitles' font (docs/domain.md §9 "Subtitles"): a clip task whose subtitles name one of
 * the caller's `font` resources renders them in that font — the subtitle band's pixels differ
 * from the same task's in the platform's CJK font, the rest of the frame does not — on both
 * engines (the embedded queue, the resource's file on local disk; over S3: video-tasks-s3.test.ts).
 * Another user's font is refused like a missing resource (video-tasks.test.ts).
 */
const run = promisify(execFile);
const EN = { lang: 'en-US' };
/** A font of Debian's fonts-dejavu-core (.ci/run installs it), as a person would upload one. */
const SERIF = '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf';
const W = 960; // 4:3 at 720p
vi.setConfig({ testTimeout: 120_000 });

/** One frame as 8-bit grey pixels. */
async function frame(file: string, at: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 16 << 20 },
  );
  return stdout;
}

/** Mean absolute difference of two frames inside a box given in fractions of the frame. */
function diff(a: Buffer, b: Buffer, box: [number, number, number, number]): number {
  const height = a.length / W;
  const [x0, y0, x1, y1] = [box[0] * W, box[1] * height, box[2] * W, box[3] * height].map(
    Math.round,
  ) as [number, number, number, number];
  let sum = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) sum += Math.abs(a[y * W + x]! - b[y * W + x]!);
  }
  return sum / ((x1 - x0) * (y1 - y0));
}

const BOTTOM: [number, number, number, number] = [0.05, 0.8, 0.95, 0.96];
const MIDDLE: [number, number, number, number] = [0.05, 0.1, 0.95, 0.7];

describe.each(engines)('a task’s subtitle font on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let merchantId: number;

  beforeEach(async () => {
    t = await createTestApp(engine, {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
  });

  it('renders the subtitles in the caller’s own font, and in the platform’s without one', async () => {
    const bars = await putResource(t, merchantId, {
      type: 'video',
      name: 'bars',
      bytes: await fixtureBytes('small-silent.mp4'),
      durationMs: 2000,
    });
    const serif = await putResource(t, merchantId, {
      type: 'font',
      name: 'DejaVu Serif Bold',
      bytes: await fs.readFile(SERIF),
    });
    const body = (font?: number) => ({
      kind: 'clip',
      name: font ? 'serif' : 'platform',
      ratio: '4:3',
      resolution: '720p',
      fps: 10,
      bitrate: 1800,
      music_volume: 5,
      keep_original_sound: false,
      resource_id: bars.id,
      trim: { start: 0, end: 2 },
      subtitles: { text: 'Wide Serif Letters', size: 48, ...(font ? { font } : {}) },
    });
    const ids: number[] = [];
    for (const font of [serif.id, undefined]) {
      const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
        token,
        headers: EN,
        body: body(font),
      });
      expect(reply.body.code, reply.raw).toBe(1);
      ids.push(reply.body.data.id);
    }
    startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()
    const files: string[] = [];
    for (const id of ids) {
      const task = await waitFinished(t, token, id);
      expect(task.status, JSON.stringify(task.outputs)).toBe('done');
      const row = await t.db
        .selectFrom('video_outputs')
        .select('storage_key')
        .where('task_id', '=', id)
        .executeTakeFirstOrThrow();
      files.push(t.app.ctx.storage.localFiles!.path(row.storage_key!));
    }
    const [own, platform] = await Promise.all(files.map((f) => frame(f, 1)));
    // Another font draws other pixels where the subtitles are, and only there.
    expect(diff(own!, platform!, BOTTOM)).toBeGreaterThan(2);
    expect(diff(own!, platform!, MIDDLE)).toBeLessThan(1);
    expect(await reconcile(t.db)).toEqual([]);
  });
});
