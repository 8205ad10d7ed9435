import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DhTemplateList } from '../../src/api/contract/dh-templates';
import {
  estimateSpeechSeconds,
  type DhAddReply,
  type DhVideoPage,
} from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, queueEngines, type Reply, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { expectReadableDetail } from './readable-detail';
import { putResource } from './resource-fixtures';
import { fixtureApp, putThings, videoBody, waitVideo, type DhThings } from './dh-video-fixtures';

const run = promisify(execFile);

/**
 * Digital-human videos that really render with the embedded provider, on
 * every engine with one queue (a file per queue). Speech is 2–5 s; x264 `ultrafast`.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const EN = { lang: 'en-US' };

/** Estimated 1 s (one "word"), spoken for several seconds: longer than estimated. */
export const LONGER_TEXT = '1234567';
/** Many short sentences: the estimate's pauses make it longer than the speech. */
export const SHORTER_TEXT = 'Hi. Hi. Hi. Hi. Hi. Hi.';

interface Streams {
  video?: { codec: string; width: number; height: number };
  audio?: { codec: string };
  duration: number;
}

export async function probeStreams(file: string): Promise<Streams> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  const data = JSON.parse(stdout) as {
    streams: { codec_type: string; codec_name: string; width: number; height: number }[];
    format: { duration: string };
  };
  const video = data.streams.find((s) => s.codec_type === 'video');
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  return {
    video: video && { codec: video.codec_name, width: video.width, height: video.height },
    audio: audio && { codec: audio.codec_name },
    duration: Number(data.format.duration),
  };
}

export function defineDhRenderSuite(queue: 'embedded' | 'bullmq'): void {
  vi.setConfig({ testTimeout: 180_000 });
  describe.each(queueEngines(queue))(
    `digital-human videos on %s with the ${queue} queue`,
    (engine: Engine) => {
      let t: TestApp;
      let token: string;
      let merchantId: number;
      let things: DhThings;
      let prefix: string | undefined;

      beforeEach(async () => {
        prefix = queue === 'bullmq' ? `vc-dhv-${randomBytes(4).toString('hex')}` : undefined;
        t = await createTestApp(engine, {
          config: {
            videoRenderPreset: 'ultrafast',
            ...(queue === 'bullmq' ? { redisUrl: REDIS_URL } : {}),
          },
          jobs: { timing: { pollMs: 20 }, ...(prefix ? { prefix } : {}) },
        });
        merchantId = (await t.user('merchant')).id;
        token = await t.login('merchant');
        things = await putThings(fixtureApp(t), merchantId, { real: true });
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
      const seconds = async () => Number((await t.user('merchant')).digital_man_seconds);
      const pathOf = (key: string) => t.app.ctx.storage.localFiles!.path(key);
      const row = (id: number) =>
        t.db.selectFrom('dh_videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      async function add(body: unknown): Promise<number> {
        const reply = await post<DhAddReply>('/digital_human/video_add', body);
        expect(reply.body.code, reply.raw).toBe(1);
        return reply.body.data.id;
      }
      const work = () => startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()
      const settles = async (id: number) =>
        (
          await t.db
            .selectFrom('system_ledger')
            .select('change')
            .where('account', '=', 'revenue')
            .where('type', '=', 'task_settle')
            .where('related_type', '=', 'dh_video')
            .where('related_id', '=', id)
            .execute()
        ).map((r) => Number(r.change));

      it('makes a video shorter than estimated: H.264 + AAC of the speech’s length, the unused seconds returned', async () => {
        const body = videoBody(things, { text: SHORTER_TEXT });
        const estimated = estimateSpeechSeconds(SHORTER_TEXT, 1);
        const id = await add(body);
        expect(await seconds()).toBe(7200 - estimated);
        work();
        const video = await waitVideo(t, token, id);
        expect(video.status, JSON.stringify(video)).toBe('done');
        const stored = await row(id);
        const probed = await probeStreams(pathOf(stored.storage_key!));
        expect(probed.video).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
        expect(probed.audio?.codec).toBe('aac');
        expect(Math.abs(probed.duration - Number(stored.speech_ms) / 1000)).toBeLessThanOrEqual(
          0.2,
        );
        const used = Math.ceil(Number(stored.duration_ms) / 1000);
        expect(used, 'speech shorter than the estimate').toBeLessThan(estimated);
        expect([video.frozen, video.settled, video.refunded]).toEqual([
          estimated,
          used,
          estimated - used,
        ]);
        expect(await seconds()).toBe(7200 - used);
        expect(await settles(id)).toEqual([used]);
        expect(video).toMatchObject({ progress: 100, queue_position: null, demonstration: true });
        expect(video.url).toMatch(/\/files\//);
        expect(video.cover).toMatch(/\/files\//);
        expect(await t.app.ctx.storage.exists(stored.poster_key!)).toBe(true);
        const list = await t.call<DhVideoPage>('GET', api('/digital_human/video_list'), {
          token,
          query: { status: 'done' },
        });
        expect(list.body.data.list.map((v) => [v.id, v.status])).toEqual([[id, 'done']]);
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('makes a video longer than estimated: the extra charged, up to the balance', async () => {
        const estimated = estimateSpeechSeconds(LONGER_TEXT, 1);
        const id = await add(videoBody(things, { text: LONGER_TEXT }));
        work();
        const video = await waitVideo(t, token, id);
        expect(video.status, JSON.stringify(video)).toBe('done');
        const used = Math.ceil(Number((await row(id)).duration_ms) / 1000);
        expect(used, 'speech longer than the estimate').toBeGreaterThan(estimated);
        expect([video.frozen, video.settled, video.refunded]).toEqual([used, used, 0]);
        expect(await seconds()).toBe(7200 - used);
        expect(await reconcile(t.db)).toEqual([]);

        // A unit cost that freezes the whole balance: the extra is charged up to it (nothing more).
        const left = await seconds();
        await t.db
          .updateTable('platform_config')
          .set({ value: String(left / estimated) })
          .where('name', '=', 'digital_man_cost')
          .execute();
        expect(Number.isInteger(left / estimated)).toBe(true);
        const second = await add(videoBody(things, { text: LONGER_TEXT }));
        expect(await seconds()).toBe(0);
        const capped = await waitVideo(t, token, second);
        expect(capped.status).toBe('done');
        expect([capped.frozen, capped.settled, capped.refunded]).toEqual([left, left, 0]);
        expect(await seconds()).toBe(0);
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('renders music and a landscape template', async () => {
        const song = await putResource(t, merchantId, {
          type: 'bgm',
          name: 'tone',
          bytes: await fixtureBytes('tone.mp3'),
          durationMs: 1500,
        });
        const templates = await t.call<DhTemplateList>('GET', api('/digital_human/template_list'), {
          token,
        });
        const landscape = templates.body.data.list.find((x) => x.ratio === '16:9')!;
        const id = await add(
          videoBody(things, { music_id: song.id, template_id: landscape.id, subtitles: false }),
        );
        work();
        const video = await waitVideo(t, token, id);
        expect(video.status, JSON.stringify(video)).toBe('done');
        const probed = await probeStreams(pathOf((await row(id)).storage_key!));
        expect(probed.video).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
        expect(probed.audio?.codec).toBe('aac');
        expect([video.width, video.height]).toEqual([1280, 720]);
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('fails a video whose avatar cannot be read (refunded in full); resubmitted once fixed, it is made', async () => {
        const avatar = await t.db
          .selectFrom('dh_image_clones')
          .select(['loop_key', 'poster_key'])
          .where('id', '=', things.avatar)
          .executeTakeFirstOrThrow();
        const storage = t.app.ctx.storage;
        const loop = await storage.localFiles!.path(avatar.loop_key!);
        const good = await import('node:fs/promises').then((fs) => fs.readFile(loop));
        await storage.put(avatar.loop_key!, randomBytes(4096), { contentType: 'video/mp4' });
        const body = videoBody(things);
        const estimated = estimateSpeechSeconds(body.text, 1);
        const id = await add(body);
        work();
        const failed = await waitVideo(t, token, id);
        expect(failed.status).toBe('failed');
        expect(failed.reason).toBeTruthy();
        expectReadableDetail(failed.reason_detail, t);
        expect(failed.url).toBeNull();
        expect([failed.frozen, failed.settled, failed.refunded]).toEqual([estimated, 0, estimated]);
        expect(await seconds()).toBe(7200);
        expect(await reconcile(t.db)).toEqual([]);

        await storage.put(avatar.loop_key!, good, { contentType: 'video/mp4' });
        const again = await post<DhAddReply>('/digital_human/video_resubmit', { id });
        expect(again.body.code, again.raw).toBe(1);
        const made = await waitVideo(t, token, again.body.data.id);
        expect(made.status, JSON.stringify(made)).toBe('done');
        expect(made.resubmitted_from).toBe(id);
        expect(await seconds()).toBe(7200 - made.settled);
        expect(await reconcile(t.db)).toEqual([]);
      });
    },
  );
}
