import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  VideoTaskAddReply,
  VideoTaskCancelReply,
  VideoTaskDetail,
  VideoTaskRetryReply,
} from '../../src/api/contract/video-tasks';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, queueEngines, type Reply, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { expectReadableDetail } from './readable-detail';
import { putResource } from './resource-fixtures';
import { ffprobe, mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';

/**
 * Video tasks that really render, on every engine with one queue (a file per
 * queue, so that they run in parallel). Outputs are 2.4 s of 720×1280 at 25 fps, x264 `ultrafast`.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const EN = { lang: 'en-US' };
const PRICE = 10; // cents: the default video_output_cost 0.10

export function defineRenderSuite(queue: 'embedded' | 'bullmq'): void {
  // Renders share 2 cores with the other test files: more time than the server suites' 30 s.
  vi.setConfig({ testTimeout: 120_000 });
  describe.each(queueEngines(queue))(
    `video tasks on %s with the ${queue} queue`,
    (engine: Engine) => {
      let t: TestApp;
      let token: string;
      let merchantId: number;
      let prefix: string | undefined;

      beforeEach(async () => {
        prefix = queue === 'bullmq' ? `vc-vt-${randomBytes(4).toString('hex')}` : undefined;
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

      const post = <T>(url: string, body: unknown): Promise<Reply<T>> =>
        t.call<T>('POST', api(url), { token, body, headers: EN });
      const balance = async () => Number((await t.user('merchant')).money);
      const pathOf = (key: string) => t.app.ctx.storage.localFiles!.path(key);
      async function keyOf(outputId: number): Promise<string> {
        const row = await t.db
          .selectFrom('video_outputs')
          .select('storage_key')
          .where('id', '=', outputId)
          .executeTakeFirstOrThrow();
        return row.storage_key!;
      }
      async function add(body: unknown): Promise<number> {
        const reply = await post<VideoTaskAddReply>('/video_task/add', body);
        expect(reply.body.code, reply.raw).toBe(1);
        return reply.body.data.id;
      }
      const work = () => startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()

      it('renders a 3-group × 3-shot task of count 5: five H.264 MP4s as planned, pairwise different, paid once each', async () => {
        const groups = await putShotGroups(t, merchantId);
        const before = await balance();
        const id = await add(
          mixedBody(groups, { mode: engine === 'sqlite' ? 'sequential' : 'random' }),
        );
        expect(await balance()).toBe(before - 5 * PRICE);
        work();
        const task = await waitFinished(t, token, id);
        expect(task.status, JSON.stringify(task)).toBe('done');
        expect([task.total, task.done, task.failed]).toEqual([5, 5, 0]);
        expect([task.cost, task.settled, task.refunded]).toEqual(['0.50', '0.50', '0.00']);
        const combos = task.outputs.map((o) => o.combination.map((c) => c.resource_id).join(','));
        expect(new Set(combos).size).toBe(5);
        for (const output of task.outputs) {
          expect(output.combination.map((c) => c.group)).toEqual([1, 2, 3]);
          output.combination.forEach((c, g) => expect(groups[g]).toContain(c.resource_id));
          const probed = await ffprobe(pathOf(await keyOf(output.id)));
          expect(probed.codec).toBe('h264');
          expect([probed.width, probed.height]).toEqual([720, 1280]);
          expect(probed.fps).toBeCloseTo(25, 3);
          expect(
            Math.abs(probed.duration - 2.4),
            `duration ${probed.duration}`,
          ).toBeLessThanOrEqual(0.1);
          expect(output.url).toMatch(/\/files\//);
          expect(output.poster).toMatch(/\/files\//);
          expect(output.attempts).toBe(1);
        }
        expect(await balance()).toBe(before - 5 * PRICE);
        expect(await reconcile(t.db)).toEqual([]);
        const settles = await t.db
          .selectFrom('system_ledger')
          .select(['account', 'change'])
          .where('type', '=', 'task_settle')
          .where('related_id', '=', id)
          .execute();
        expect(settles.filter((r) => r.account === 'revenue').map((r) => Number(r.change))).toEqual(
          Array(5).fill(PRICE),
        );
      });

      it('fails an output whose input cannot be read (refunded, the rest done), and retry re-makes only it', async () => {
        const groups = await putShotGroups(t, merchantId);
        // One shot per group for the first two groups: the outputs differ only by the third group's shot.
        const body = mixedBody([[groups[0][0]], [groups[1][0]], groups[2]], { count: 3 });
        const broken = groups[2][1];
        const brokenKey = (
          await t.db
            .selectFrom('resources')
            .select('storage_key')
            .where('id', '=', broken)
            .executeTakeFirstOrThrow()
        ).storage_key;
        const good = await fixtureBytes('tall-sound.mp4');
        await t.app.ctx.storage.put(brokenKey, randomBytes(4096), { contentType: 'video/mp4' });
        const before = await balance();
        const id = await add(body);
        work();
        let task = await waitFinished(t, token, id);
        expect(task.status).toBe('partly_done');
        expect(task.outputs.map((o) => o.status)).toEqual(['done', 'failed', 'done']);
        const failed = task.outputs[1];
        expect(failed.combination[2].resource_id).toBe(broken);
        expect(failed.reason).toBe('A material could not be read (its file is damaged or missing)');
        // The detail names the material, never the server's file (its path, DATA_DIR, tmp).
        expectReadableDetail(failed.reason_detail, t, ['g3 shot 2']);
        expect(failed.url).toBeNull();
        expect([task.cost, task.settled, task.refunded]).toEqual(['0.30', '0.20', '0.10']);
        expect(await balance()).toBe(before - 2 * PRICE);
        expect(await reconcile(t.db)).toEqual([]);
        const doneKeys = [await keyOf(task.outputs[0].id), await keyOf(task.outputs[2].id)];

        // The file is fixed; retry makes the failed output only, charged once more for it.
        await t.app.ctx.storage.put(brokenKey, good, { contentType: 'video/mp4' });
        const retried = await post<VideoTaskRetryReply>('/video_task/retry', { id });
        expect(retried.body.data).toEqual({ count: 1, cost: '0.10' });
        expect(await balance()).toBe(before - 3 * PRICE);
        task = await waitFinished(t, token, id);
        expect(task.status).toBe('done');
        expect(task.outputs.map((o) => o.attempts)).toEqual([1, 2, 1]);
        expect([await keyOf(task.outputs[0].id), await keyOf(task.outputs[2].id)]).toEqual(
          doneKeys,
        );
        const probed = await ffprobe(pathOf(await keyOf(task.outputs[1].id)));
        expect(Math.abs(probed.duration - 2.4)).toBeLessThanOrEqual(0.1);
        expect([task.cost, task.settled, task.refunded]).toEqual(['0.40', '0.30', '0.10']);
        expect(await balance()).toBe(before - 3 * PRICE);
        expect(await reconcile(t.db)).toEqual([]);
        // Nothing left to retry.
        const again = await post('/video_task/retry', { id });
        expect(again.body).toMatchObject({
          code: 0,
          msg: 'This task has no failed videos to make again',
        });
      });

      it('renders a clip: the trimmed part with a CJK title, subtitles, music and a sticker', async () => {
        const video = await putResource(t, merchantId, {
          type: 'video',
          name: 'wide',
          bytes: await fixtureBytes('wide-sound.mp4'),
          durationMs: 3000,
        });
        const song = await putResource(t, merchantId, {
          type: 'bgm',
          name: 'tone',
          bytes: await fixtureBytes('tone.mp3'),
          durationMs: 1500,
        });
        const sticker = await putResource(t, merchantId, {
          type: 'sticker',
          name: 'red',
          bytes: await fixtureBytes('sticker.png'),
        });
        const id = await add({
          kind: 'clip',
          name: '春季上新',
          ratio: '16:9',
          resolution: '720p',
          fps: 24,
          bitrate: 600,
          music_ids: [song.id],
          music_volume: 4,
          keep_original_sound: false,
          resource_id: video.id,
          trim: { start: 0.5, end: 2.5 },
          titles: [{ text: '春季上新 Spring', size: 48, color: '#FFCC00', position: 'top' }],
          subtitles: { text: '第一句话。第二句话！' },
          stickers: [{ resource_id: sticker.id, x: 0.8, y: 0.05, width: 0.1 }],
        });
        work();
        const task = await waitFinished(t, token, id);
        expect(task.status, JSON.stringify(task.outputs[0])).toBe('done');
        const probed = await ffprobe(pathOf(await keyOf(task.outputs[0].id)));
        expect([probed.codec, probed.width, probed.height]).toEqual(['h264', 1280, 720]);
        expect(probed.fps).toBeCloseTo(24, 3);
        expect(Math.abs(probed.duration - 2)).toBeLessThanOrEqual(0.1);
        expect(task.outputs[0].combination).toEqual([
          { group: 1, resource_id: video.id, name: 'wide' },
        ]);
        // Deleting the finished task keeps its files while its work is in the library
        // (docs/domain.md §8 "Works"): the work reads the very same stored file.
        const keys = await t.db
          .selectFrom('video_outputs')
          .select(['storage_key', 'poster_key'])
          .where('task_id', '=', id)
          .executeTakeFirstOrThrow();
        expect(await t.app.ctx.storage.exists(keys.storage_key!)).toBe(true);
        expect((await post('/video_task/delete', { ids: [id] })).body).toMatchObject({ code: 1 });
        const libraryRow = await t.db
          .selectFrom('resources')
          .select(['storage_key', 'deleted_at'])
          .where('storage_key', '=', keys.storage_key!)
          .executeTakeFirstOrThrow();
        expect(libraryRow.deleted_at).toBeNull();
        expect(await t.app.ctx.storage.exists(keys.storage_key!)).toBe(true);
        expect(await t.app.ctx.storage.exists(keys.poster_key!)).toBe(true);
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('the sweep enqueues queued outputs whose job was lost', async () => {
        const groups = await putShotGroups(t, merchantId);
        const id = await add(mixedBody(groups, { count: 2 }));
        // The queue loses the jobs (cancelled behind the task's back).
        const jobs = await t.db
          .selectFrom('video_outputs')
          .select('job_id')
          .where('task_id', '=', id)
          .execute();
        for (const { job_id } of jobs) expect(await t.app.ctx.jobs.cancel(job_id!)).toBe(true);
        t.clock.advance(2 * 60_000);
        work();
        const task = await waitFinished(t, token, id);
        expect(task.status).toBe('done');
        expect(task.stalled).toBe(false);
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('cancel refunds the queued outputs; their jobs make nothing', async () => {
        const groups = await putShotGroups(t, merchantId);
        const before = await balance();
        const id = await add(mixedBody(groups));
        const cancelled = await post<VideoTaskCancelReply>('/video_task/cancel', { id });
        expect(cancelled.body.data).toEqual({ count: 5, refunded: '0.50' });
        expect(await balance()).toBe(before);
        work();
        await new Promise((r) => setTimeout(r, 1500));
        const reply = await t.call<VideoTaskDetail>('GET', api('/video_task/detail'), {
          token,
          query: { id: String(id) },
        });
        const task = reply.body.data;
        expect(task.status).toBe('cancelled');
        expect(task.outputs.every((o) => o.status === 'cancelled' && o.attempts === 0)).toBe(true);
        expect([task.cost, task.settled, task.refunded]).toEqual(['0.50', '0.00', '0.50']);
        expect(await reconcile(t.db)).toEqual([]);
      });
    },
  );
}
