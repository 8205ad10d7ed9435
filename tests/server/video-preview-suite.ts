import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PREVIEW_FRAME,
  PREVIEW_LIMITS,
  type VideoPreview,
} from '../../src/api/contract/video-task-preview';
import type { VideoTaskAddReply, VideoTaskDetail } from '../../src/api/contract/video-tasks';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { sweepPreviews } from '../../server/modules/video-tasks/preview';
import type { Engine } from '../../server/platform/db/dialect';
import { fixtureApp, putVoice } from './dh-video-fixtures';
import { api, createTestApp, queueEngines, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { ffprobe, mixedBody, putShotGroups } from './video-task-fixtures';

/**
 * Previews before paying (docs/domain.md §9 "Presets, batches and previews"), rendered for real
 * on every engine with one queue (a file per queue): free (no balance, ledger row or hold moves,
 * no speech is made), the asked frame and length (ffprobe), read through its signed URL, removed
 * by the sweep after an hour, and run ahead of paid outputs queued before it. The rate limit and
 * the refusals need no render: the embedded file runs them (`limits`).
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const EN = { lang: 'en-US' };
const run = promisify(execFile);

export function definePreviewSuite(queue: 'embedded' | 'bullmq', limits: boolean): void {
  vi.setConfig({ testTimeout: 60_000 });
  describe.each(queueEngines(queue))(`previews on %s with the ${queue} queue`, (engine: Engine) => {
    let t: TestApp;
    let token: string;
    let merchantId: number;
    let prefix: string | undefined;

    beforeEach(async () => {
      prefix = queue === 'bullmq' ? `vc-pv-${randomBytes(4).toString('hex')}` : undefined;
      t = await createTestApp(engine, {
        config: {
          videoRenderPreset: 'ultrafast',
          ...(queue === 'bullmq' ? { redisUrl: REDIS_URL } : {}),
        },
        jobs: { timing: { pollMs: 20 }, ...(prefix ? { prefix } : {}) },
      });
      merchantId = (await t.user('merchant')).id;
      token = await t.login('merchant');
    });
    afterEach(async () => {
      await t.close();
      if (prefix && REDIS_URL) {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    });

    const post = <T>(url: string, body: unknown, headers: Record<string, string> = EN) =>
      t.call<T>('POST', api(url), { token, body, headers });
    const detail = (id: number) =>
      t.call<VideoPreview>('GET', api('/video_task/preview_detail'), {
        token,
        query: { id: String(id) },
        headers: EN,
      });
    const work = () => startAppWorker(t.app.ctx, { everyMs: 60_000 }); // closed by t.close()
    async function asked(body: unknown): Promise<VideoPreview> {
      const reply = await post<VideoPreview>('/video_task/preview', body);
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data;
    }
    async function ready(id: number, timeoutMs = 30_000): Promise<VideoPreview> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const reply = await detail(id);
        expect(reply.body.code, reply.raw).toBe(1);
        const preview = reply.body.data;
        if (preview.status === 'done' || preview.status === 'failed') return preview;
        if (Date.now() > deadline) throw new Error(`preview ${id} still ${preview.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const fileOf = async (id: number) => {
      const row = await t.db
        .selectFrom('video_previews')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return t.app.ctx.storage.localFiles!.path(row.storage_key!);
    };
    /** What money and time the merchant has, and every ledger table's row count. */
    async function books() {
      const me = await t.user('merchant');
      const count = async (table: 'ledger' | 'system_ledger' | 'ledger_holds') =>
        Number(
          (
            await t.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        money: Number(me.money),
        seconds: Number(me.digital_man_seconds),
        ledger: await count('ledger'),
        system: await count('system_ledger'),
        holds: await count('ledger_holds'),
      };
    }

    it('is free, the first combination at 360p and at most 4 s, read through its signed URL, removed after an hour', async () => {
      const groups = await putShotGroups(t, merchantId);
      const before = await books();
      const body = mixedBody(groups, {
        ratio: '4:3',
        count: 3,
        // 3 × 2 s: the preview shows each shot for 4/6 of its time.
        shot_groups: groups.map((resource_ids) => ({ resource_ids, duration: 2 })),
        titles: [{ text: 'Spring sale', size: 48, color: '#FFFFFF', position: 'top' }],
        subtitles: { text: 'Fresh fruit every day. Come and see.', size: 36 },
        watermark: { text: 'Demo shop', corner: 'bottom_right' },
      });
      const preview = await asked(body);
      expect(preview).toMatchObject({
        status: 'queued',
        url: null,
        narration_silent: false,
        ...PREVIEW_FRAME['4:3'],
      });
      expect(preview.expires_at).toBe(t.clock() + PREVIEW_LIMITS.ttlMs);
      work();
      const done = await ready(preview.id);
      expect(done.status, JSON.stringify(done)).toBe('done');
      expect([done.width, done.height]).toEqual([480, 360]);
      const file = await fileOf(preview.id);
      const probed = await ffprobe(file);
      expect(probed.codec).toBe('h264');
      expect([probed.width, probed.height]).toEqual([480, 360]);
      expect(probed.fps).toBeCloseTo(15, 3);
      expect(Math.abs(probed.duration - 4), `duration ${probed.duration}`).toBeLessThanOrEqual(0.1);
      expect(done.duration).toBeCloseTo(probed.duration, 1);
      // Its signed URL serves the file.
      const served = await t.call('GET', done.url!);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('video/mp4');
      expect(Number(served.headers['content-length'])).toBe((await fs.stat(file)).size);
      // Free: no balance moved, no ledger row, no hold; no task.
      expect(await books()).toEqual(before);
      expect(await t.db.selectFrom('video_tasks').select('id').execute()).toEqual([]);
      expect(await reconcile(t.db)).toEqual([]);

      // An hour later the sweep removes the file and the row.
      t.clock.advance(PREVIEW_LIMITS.ttlMs - 1);
      expect(await sweepPreviews(t.app.ctx)).toEqual({ removed: 0 });
      t.clock.advance(2);
      expect(await sweepPreviews(t.app.ctx)).toEqual({ removed: 1 });
      await expect(fs.stat(file)).rejects.toThrow();
      const gone = await detail(preview.id);
      expect(gone.body).toMatchObject({
        code: 0,
        msg: 'Preview not found (previews are removed after an hour)',
      });
    });

    it('of a narrated clip: no speech is made or held, the subtitles are timed by the estimate', async () => {
      const synthesize = vi.spyOn(t.app.ctx.integrations.digitalHuman, 'synthesize');
      const voiceId = await putVoice(fixtureApp(t), null);
      const video = await putResource(t, merchantId, {
        type: 'video',
        name: 'black',
        bytes: await blackVideo(),
        durationMs: 3000,
      });
      const before = await books();
      const preview = await asked({
        kind: 'clip',
        name: 'Narrated',
        ratio: '9:16',
        resolution: '1080p',
        fps: 25,
        bitrate: 800,
        music_volume: 5,
        keep_original_sound: false,
        resource_id: video.id,
        trim: { start: 0, end: 3 },
        narration: { text: 'Hello there. Good morning.', voice_id: voiceId, speed: 1, volume: 1 },
        subtitles: { position: 'middle', size: 40, color: '#FFFFFF' },
      });
      expect(preview).toMatchObject({ narration_silent: true, width: 360, height: 640 });
      work();
      const done = await ready(preview.id);
      expect(done.status, JSON.stringify(done)).toBe('done');
      const file = await fileOf(preview.id);
      const probed = await ffprobe(file);
      expect([probed.width, probed.height]).toEqual([360, 640]);
      expect(Math.abs(probed.duration - 3)).toBeLessThanOrEqual(0.1);
      expect(synthesize).not.toHaveBeenCalled();
      expect(await books()).toEqual(before);
      // No voice: silence throughout. The estimated sentences are shown in the middle.
      expect(await meanVolume(file)).toBeLessThan(-80);
      expect(await brightInMiddle(file, 1)).toBe(true);
    });

    it('queued behind paid outputs, runs before them', async () => {
      const groups = await putShotGroups(t, merchantId);
      const added = await post<VideoTaskAddReply>(
        '/video_task/add',
        mixedBody(groups, { count: 3 }),
      );
      expect(added.body.code, added.raw).toBe(1);
      const taskId = added.body.data.id;
      const preview = await asked(mixedBody(groups, { count: 1 }));
      // The worker starts with the three outputs and then the preview waiting.
      work();
      const done = await ready(preview.id);
      expect(done.status, JSON.stringify(done)).toBe('done');
      const outputs = await t.db
        .selectFrom('video_outputs')
        .select('status')
        .where('task_id', '=', taskId)
        .execute();
      // One render at a time: none of the outputs is done yet (in queue order all three were).
      expect(outputs.filter((o) => o.status === 'done')).toEqual([]);
      expect(outputs.filter((o) => o.status === 'rendering').length).toBeLessThanOrEqual(1);
      // Stop the rest (the rendering one finishes; the queued are refunded).
      await post('/video_task/cancel', { id: taskId });
      const task = await t.call<VideoTaskDetail>('GET', api('/video_task/detail'), {
        token,
        query: { id: String(taskId) },
        headers: EN,
      });
      expect(task.body.code, task.raw).toBe(1);
    });

    if (!limits) return;

    it(`refuses a 7th preview within a minute (HTTP 429, Retry-After, both languages); a minute later it is allowed`, async () => {
      const groups = await putShotGroups(t, merchantId);
      const body = mixedBody(groups, { count: 1 });
      for (let i = 0; i < PREVIEW_LIMITS.perMinute; i += 1) {
        await asked(body);
        t.clock.advance(5_000);
      }
      const rows = async () =>
        (await t.db.selectFrom('video_previews').select('id').execute()).length;
      expect(await rows()).toBe(6);
      const refused = await post<null>('/video_task/preview', body);
      expect(refused.status).toBe(429);
      // The first of the six was asked 30 s ago: 30 s to wait.
      expect(refused.headers['retry-after']).toBe('30');
      expect(refused.body).toEqual({
        code: 0,
        msg: 'At most 6 previews a minute: try again in 30 s (previews are free)',
        data: null,
      });
      const zh = await post<null>('/video_task/preview', body, { lang: 'zh-CN' });
      expect(zh.status).toBe(429);
      expect(zh.body.msg).toBe('每分钟最多预览 6 次：请 30 秒后再试（预览免费）');
      expect(await rows()).toBe(6);
      t.clock.advance(30_000);
      await asked(body);
      expect(await rows()).toBe(7);
    });

    it('checks the body as add does, and shows a preview to its owner only', async () => {
      const groups = await putShotGroups(t, merchantId);
      const missing = await post<null>(
        '/video_task/preview',
        mixedBody([[groups[0][0], 999_999]], { count: 1 }),
      );
      expect(missing.status).toBe(200);
      expect(missing.body).toMatchObject({
        code: 0,
        msg: 'Material 999999 was not found or has been deleted',
      });
      const invalid = await post<null>('/video_task/preview', mixedBody(groups, { fps: 0 }));
      expect(invalid.body.code).toBe(0);
      expect(await t.db.selectFrom('video_previews').select('id').execute()).toEqual([]);
      const mine = await asked(mixedBody(groups, { count: 1 }));
      const other = await t.login('partner');
      const theirs = await t.call<null>('GET', api('/video_task/preview_detail'), {
        token: other,
        query: { id: String(mine.id) },
        headers: EN,
      });
      expect(theirs.body).toMatchObject({
        code: 0,
        msg: 'Preview not found (previews are removed after an hour)',
      });
      await t.db
        .updateTable('users')
        .set({ show_clip_menu: 0 })
        .where('id', '=', merchantId)
        .execute();
      const clip = await post<null>('/video_task/preview', {
        ...mixedBody([], { kind: 'clip' }),
        mode: undefined,
        count: undefined,
        shot_groups: undefined,
        resource_id: groups[0][0],
        trim: { start: 0, end: 1 },
      });
      expect(clip.body).toMatchObject({
        code: 0,
        msg: 'Smart clip is not available for this account',
      });
    });
  });
}

/** A 3 s black 1280×720 video without sound (subtitles show plainly on it). */
async function blackVideo(): Promise<Buffer> {
  const dir = await fs.mkdtemp('/tmp/preview-src-');
  const file = `${dir}/black.mp4`;
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=black:size=1280x720:rate=25:d=3'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file],
  ]);
  const bytes = await fs.readFile(file);
  await fs.rm(dir, { recursive: true, force: true });
  return bytes;
}

/** The file's mean loudness, dB (-100 for no sound). */
async function meanVolume(file: string): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-v', 'info', '-nostats', '-i', file, '-vn', '-af', 'volumedetect', '-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  return match?.[1] === '-inf' || !match ? -100 : Number(match[1]);
}

/** Whether the frame at `at` s shows text (a bright pixel) in the middle third of a 360×640 frame. */
async function brightInMiddle(file: string, at: number): Promise<boolean> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-an'],
      ...['-vf', 'crop=360:213:0:213', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer' },
  );
  return stdout.some((v) => v > 150);
}
