import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DhAddReply } from '../../src/api/contract/digital-human';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, freePort, type TestApp } from './helpers';
import { fixtureApp, putThings, videoBody, waitVideo, type DhThings } from './dh-video-fixtures';
import { startFakeVendor, type FakeVendor } from './fake-dh-vendor';
import { probeStreams } from './dh-videos-render-suite';

/**
 * Digital-human videos through the HTTP vendor adapter (`DH_PROVIDER=http`) against the fake
 * vendor of tests/server/fake-dh-vendor.ts (real HTTP; every callback sent twice): the app listens
 * on its PUBLIC_URL, so the vendor fetches our signed file URLs and calls back
 * `POST /digital_human/vendor_callback`. Each video is made once at the vendor (one speech job, one
 * video job), finished once, settled once, whatever callbacks repeat or runs are lost.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const queues = REDIS_URL ? (['embedded', 'bullmq'] as const) : (['embedded'] as const);

// Each test clones an avatar and makes a video at the vendor: minutes on a loaded machine.
vi.setConfig({ testTimeout: 300_000 });

describe.each(engines.flatMap((e) => queues.map((q) => [e, q] as const)))(
  'digital-human videos through the HTTP vendor on %s with the %s queue',
  (engine: Engine, queue) => {
    let t: TestApp;
    let vendor: FakeVendor;
    let token: string;
    let things: DhThings;
    let prefix: string | undefined;

    beforeEach(async () => {
      vendor = await startFakeVendor({ callbackCopies: 2, stepMs: 40, steps: 3 });
      const port = await freePort();
      prefix = queue === 'bullmq' ? `vc-dhvendor-${randomBytes(4).toString('hex')}` : undefined;
      t = await createTestApp(engine, {
        config: {
          publicUrl: `http://127.0.0.1:${port}`,
          digitalHuman: {
            provider: 'http',
            baseUrl: vendor.url,
            apiKey: vendor.apiKey,
            callbackSecret: vendor.callbackSecret,
          },
          ...(queue === 'bullmq' ? { redisUrl: REDIS_URL } : {}),
        },
        // A short lease: a cancelled run notices soon.
        jobs: { timing: { pollMs: 20, leaseMs: 1_500 }, ...(prefix ? { prefix } : {}) },
      });
      await t.app.listen({ port, host: '127.0.0.1' });
      const merchantId = (await t.user('merchant')).id;
      token = await t.login('merchant');
      things = await putThings(fixtureApp(t), merchantId, {
        real: true,
        profile: { voice_id: 'stock-voice-1' },
      });
    });
    afterEach(async () => {
      await t.close();
      await vendor.stop();
      if (prefix && REDIS_URL) {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    });

    const seconds = async () => Number((await t.user('merchant')).digital_man_seconds);
    const row = (id: number) =>
      t.db.selectFrom('dh_videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    async function add(): Promise<number> {
      const reply = await t.call<DhAddReply>('POST', api('/digital_human/video_add'), {
        token,
        body: videoBody(things),
      });
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data.id;
    }
    const submits = () =>
      [...vendor.jobs.values()].filter((j) => j.type === 'speech' || j.type === 'video');
    const settlesOf = async (id: number) =>
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

    it('makes a video at the vendor once; the duplicated callbacks change nothing more', async () => {
      const before = await seconds();
      const id = await add();
      startAppWorker(t.app.ctx, { everyMs: 200 });
      const video = await waitVideo(t, token, id);
      expect(video.status, JSON.stringify(video)).toBe('done');
      expect(video.demonstration).toBe(false);
      await vendor.idle();
      expect(submits().map((j) => [j.type, j.state])).toEqual([
        ['speech', 'done'],
        ['video', 'done'],
      ]);
      // Every job's callback came twice and was answered.
      const ours = vendor.callbacks.filter((c) => c.url.endsWith('/digital_human/vendor_callback'));
      expect(ours.length).toBeGreaterThanOrEqual(4);
      expect(ours.every((c) => c.status === 200)).toBe(true);
      const stored = await row(id);
      const probed = await probeStreams(t.app.ctx.storage.localFiles!.path(stored.storage_key!));
      expect(probed.video?.codec).toBe('h264');
      expect(probed.audio).toBeTruthy();
      const used = Math.ceil(Number(stored.duration_ms) / 1000);
      expect(await settlesOf(id)).toEqual([used]);
      expect(await seconds()).toBe(before - used);
      expect(await reconcile(t.db)).toEqual([]);

      // The same callbacks again, later: still nothing changes.
      const snapshot = JSON.stringify(await row(id));
      for (const callback of ours) {
        const reply = await t.call('POST', api('/digital_human/vendor_callback'), {
          payload: callback.body,
          headers: callback.headers,
        });
        expect(reply.status).toBe(200);
        // The speech job is no longer recorded (kind null); the video job's row is done.
        expect(reply.body).toMatchObject({ code: 1, data: { resumed: false } });
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(JSON.stringify(await row(id))).toBe(snapshot);
      expect(await settlesOf(id)).toEqual([used]);
      // A forged one is refused.
      const forged = await t.call('POST', api('/digital_human/vendor_callback'), {
        payload: `${ours[0]!.body} `, // one byte more: the signature no longer matches
        headers: ours[0]!.headers,
      });
      expect(forged.status).toBe(401);
      expect(JSON.stringify(await row(id))).toBe(snapshot);
      expect(await reconcile(t.db)).toEqual([]);
    });

    it('a lost run is resumed by the vendor’s callback: nothing submitted twice, settled once', async () => {
      vendor.hold();
      const id = await add();
      startAppWorker(t.app.ctx, { everyMs: 60_000 });
      // The speech job is submitted (its id recorded), then our run is lost.
      const deadline = Date.now() + 30_000;
      while ((await row(id)).vendor_job_id === null) {
        if (Date.now() > deadline) throw new Error('no vendor job recorded');
        await new Promise((r) => setTimeout(r, 50));
      }
      const lost = await row(id);
      expect(await t.app.ctx.jobs.cancel(lost.job_id!)).toBe(true);
      const until = Date.now() + 20_000;
      while ((await t.app.ctx.jobs.get(lost.job_id!))?.state !== 'cancelled') {
        if (Date.now() > until) throw new Error('the run did not stop');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await row(id)).status).toBe('creating');
      vendor.release();
      // The speech job's callback (twice) enqueues one new run, which resumes the vendor's job.
      const video = await waitVideo(t, token, id);
      expect(video.status, JSON.stringify(video)).toBe('done');
      await vendor.idle();
      expect(submits().map((j) => j.type)).toEqual(['speech', 'video']);
      const done = await row(id);
      expect(done.job_id).not.toBe(lost.job_id);
      expect(Number(done.attempts)).toBe(2);
      expect(await settlesOf(id)).toEqual([Math.ceil(Number(done.duration_ms) / 1000)]);
      expect(await reconcile(t.db)).toEqual([]);
    });
  },
);
