import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  DhAddReply,
  VoiceClonePage,
  VoicePreviewReply,
} from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { addMedia, cloneFixture, waitImageClone, waitVoiceClone } from './dh-clone-fixtures';
import { api, createTestApp, queueEngines, type Reply, type TestApp } from './helpers';
import { ffprobe } from './video-task-fixtures';

/**
 * The clone jobs with the embedded provider, on every engine with one queue
 * adapter (a file per adapter): an image clone and a voice clone trained and settled once, the
 * voice previewed (cached), a two-shot source failing the one-take check and refunded; the ledger
 * reconciles after each.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const EN = { lang: 'en-US' };

export function defineCloneJobSuite(queue: 'embedded' | 'bullmq'): void {
  vi.setConfig({ testTimeout: 120_000 });
  beforeAll(async () => {
    for (const name of ['take.mp4', 'two-shots.mp4', 'consent.mp4', 'sample.mp3'] as const) {
      await cloneFixture(name);
    }
  });

  describe.each(queueEngines(queue))(
    `clone jobs on %s with the ${queue} queue`,
    (engine: Engine) => {
      let t: TestApp;
      let token: string;
      let merchantId: number;
      let prefix: string | undefined;

      beforeEach(async () => {
        prefix = queue === 'bullmq' ? `vc-dhc-${randomBytes(4).toString('hex')}` : undefined;
        t = await createTestApp(engine, {
          config: {
            videoRenderPreset: 'ultrafast',
            ...(queue === 'bullmq' ? { redisUrl: REDIS_URL } : {}),
          },
          jobs: { timing: { pollMs: 20 }, ...(prefix ? { prefix } : {}) },
        });
        merchantId = Number((await t.user('merchant')).id);
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

      const post = <T>(url: string, body: unknown, who = token): Promise<Reply<T>> =>
        t.call<T>('POST', api(url), { token: who, body, headers: EN });
      const balances = async () => {
        const user = await t.user('merchant');
        return { image: Number(user.image_clone_count), voice: Number(user.voice_clone_count) };
      };
      const pathOfUrl = (url: string) =>
        t.app.ctx.storage.localFiles!.path(
          decodeURIComponent(new URL(url, 'http://x').pathname.replace(/^.*\/files\//, '')),
        );
      const work = () => startAppWorker(t.app.ctx, { everyMs: 200 }); // closed by t.close()

      it('trains an image clone and a voice clone (settled once), previews the voice (cached) and lists public voices in the caller’s language', async () => {
        const video = await addMedia(t, merchantId, 'take.mp4');
        const consent = await addMedia(t, merchantId, 'consent.mp4');
        const sample = await addMedia(t, merchantId, 'sample.mp3');
        const before = await balances();
        const image = await post<DhAddReply>('/digital_human/image_clone_add', {
          name: 'Host',
          video_id: video,
          consent_video_id: consent,
          tier: 'standard',
        });
        expect(image.body.code, image.raw).toBe(1);
        const voice = await post<DhAddReply>('/digital_human/voice_clone_add', {
          name: 'Host voice',
          gender: 'female',
          audio_id: sample,
        });
        expect(voice.body.code, voice.raw).toBe(1);
        work();
        const clone = await waitImageClone(t, token, image.body.data.id);
        expect(clone, JSON.stringify(clone)).toMatchObject({
          status: 'ready',
          progress: 100,
          reason: null,
          cost: 1,
          refunded: 0,
          demonstration: true,
        });
        expect(clone.cover).toMatch(/\/files\//);
        expect(clone.preview_url).toMatch(/\/files\//);
        const loop = await ffprobe(pathOfUrl(clone.preview_url!));
        expect(loop.codec).toBe('h264');
        const voiced = await waitVoiceClone(t, token, voice.body.data.id);
        expect(voiced, JSON.stringify(voiced)).toMatchObject({
          status: 'ready',
          cost: 1,
          refunded: 0,
        });
        expect(voiced.demo_url).toMatch(/\/files\//);
        expect(await balances()).toEqual({ image: before.image - 1, voice: before.voice - 1 });
        const rows = await t.db
          .selectFrom('dh_image_clones')
          .select(['billing', 'settled', 'attempts'])
          .executeTakeFirstOrThrow();
        expect([rows.billing, Number(rows.settled), Number(rows.attempts)]).toEqual([
          'settled',
          1,
          1,
        ]);
        expect(await reconcile(t.db)).toEqual([]);

        // The preview: synthesized once, then answered from the cache.
        const text = { voice_id: voice.body.data.id, text: 'Hello there, welcome to our shop.' };
        const first = await post<VoicePreviewReply>('/digital_human/voice_preview', text);
        expect(first.body.code, first.raw).toBe(1);
        expect(first.body.data.duration).toBeGreaterThan(0.5);
        expect(first.body.data.demonstration).toBe(true);
        const file = pathOfUrl(first.body.data.url);
        const made = (await import('node:fs')).statSync(file).mtimeMs;
        const second = await post<VoicePreviewReply>('/digital_human/voice_preview', text);
        expect(second.body.data.duration).toBe(first.body.data.duration);
        expect(pathOfUrl(second.body.data.url)).toBe(file);
        expect((await import('node:fs')).statSync(file).mtimeMs).toBe(made);

        // Public voices: free, ready, named in the caller's language, previewable by anyone.
        const list = async (lang: string) =>
          (
            await t.call<VoiceClonePage>('GET', api('/digital_human/voice_clone_list'), {
              token,
              query: { scope: 'public' },
              headers: { lang },
            })
          ).body.data;
        const en = await list('en-US');
        const zh = await list('zh-CN');
        const voices = t.app.ctx.integrations.digitalHuman.publicVoices();
        expect(en.total).toBe(voices.length);
        expect(en.total).toBeGreaterThan(0);
        expect(
          en.list.every((v) => v.scope === 'public' && v.status === 'ready' && v.owner_id === null),
        ).toBe(true);
        expect(en.list.map((v) => v.name).sort()).toEqual(
          voices.map((v) => v.name['en-US']).sort(),
        );
        expect(zh.list.map((v) => v.name).sort()).toEqual(
          voices.map((v) => v.name['zh-CN']).sort(),
        );
        const partner2 = await t.login('partner2');
        const pub = await post<VoicePreviewReply>(
          '/digital_human/voice_preview',
          { voice_id: en.list[0].id, text: '你好' },
          partner2,
        );
        expect(pub.body.code, pub.raw).toBe(1);
        // Another's clone answers like a missing one.
        const theirs = await post('/digital_human/voice_preview', text, partner2);
        expect(theirs.body.msg).toBe('Voice not found');
        expect(await reconcile(t.db)).toEqual([]);
      });

      it('fails a two-shot source on the one-take check and refunds it once', async () => {
        const video = await addMedia(t, merchantId, 'two-shots.mp4');
        const consent = await addMedia(t, merchantId, 'consent.mp4');
        const before = await balances();
        const reply = await post<DhAddReply>('/digital_human/image_clone_add', {
          name: 'Two shots',
          video_id: video,
          consent_video_id: consent,
          tier: 'standard',
        });
        expect(reply.body.code, reply.raw).toBe(1);
        expect((await balances()).image).toBe(before.image - 1);
        work();
        const clone = await waitImageClone(t, token, reply.body.data.id);
        expect(clone).toMatchObject({
          status: 'failed',
          reason:
            'The source video is not one continuous take (1 scene changes found): record it without cuts',
          cost: 1,
          refunded: 1,
          cover: null,
        });
        expect(await balances()).toEqual(before);
        const refunds = await t.db
          .selectFrom('ledger')
          .select('change')
          .where('related_type', '=', 'dh_image_clone')
          .where('type', '=', 'task_refund')
          .execute();
        expect(refunds.map((r) => Number(r.change))).toEqual([1]);
        expect(await reconcile(t.db)).toEqual([]);
        // A failed clone can be deleted.
        const deleted = await post('/digital_human/image_clone_delete', { ids: [clone.id] });
        expect(deleted.body.code, deleted.raw).toBe(1);
      });
    },
  );
}
