import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Engine } from '../../server/platform/db/dialect';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { seedDemo } from '../../server/modules/demo/seed';
import { sweepDigitalHuman } from '../../server/modules/digital-human/video-sweep';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import { api, createScratchDatabase, DEMO_PASSWORD, queueEngines } from './helpers';
import { putThings, videoBody } from './dh-video-fixtures';
import { probeStreams } from './dh-videos-render-suite';
import { serverArgs } from './server-bundle';

/**
 * Crash safety of digital-human videos: a worker process (`server/worker.ts`)
 * is killed with SIGKILL while it renders a video; a second worker and the sweep (stall time
 * shortened) finish it. The video is made once (one file, settled once) and the ledger
 * reconciles.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const STALL_MS = 2_000;
const REDIS_URL = process.env.TEST_REDIS_URL;
/** About 8 s of speech: the render lasts long enough to be killed in the middle. */
const TEXT =
  'Welcome to our shop. Today we show the new spring collection, with fresh colours and light fabrics for every day.';

export function defineDhCrashSuite(queue: 'embedded' | 'bullmq'): void {
  describe.each(queueEngines(queue))(
    `kill -9 of a worker making a digital-human video on %s with the ${queue} queue`,
    (engine: Engine) => {
      let dataDir: string;
      let databaseUrl: string | undefined;
      let dropDatabase: (() => Promise<void>) | undefined;
      let handle: DbHandle;
      let app: FastifyInstance;
      const children: ChildProcess[] = [];
      const redisPrefix = `vc-dhcrash-${randomBytes(4).toString('hex')}`;
      const redisUrl = queue === 'bullmq' ? REDIS_URL : undefined;

      beforeAll(async () => {
        dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-dh-crash-'));
        if (engine === 'postgres') {
          ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase('vdhcrash'));
        }
        handle = openDatabase({ dataDir, databaseUrl });
        await migrateToLatest(handle.db, handle.engine);
        await ensurePlatformDefaults(handle.db, Date.now());
        await seedDemo(handle.db, Date.now());
        app = await buildApp({
          logger: false,
          db: handle,
          config: {
            dataDir,
            databaseUrl,
            staticDir: path.join(dataDir, 'no-console'),
            redisUrl,
            redisPrefix,
            videoTaskStallMs: STALL_MS,
            videoRenderPreset: 'ultrafast',
          },
        });
      });

      afterAll(async () => {
        for (const child of children) child.kill('SIGKILL');
        await app?.close();
        await handle?.close();
        await dropDatabase?.();
        await fs.rm(dataDir, { recursive: true, force: true });
        if (redisUrl) {
          const redis = new Redis(redisUrl);
          const keys = await redis.keys(`${redisPrefix}:*`);
          if (keys.length > 0) await redis.del(...keys);
          await redis.quit();
        }
      });

      function startWorker(): ChildProcess {
        const child = spawn(process.execPath, serverArgs('worker'), {
          cwd: ROOT,
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl ?? '',
            REDIS_URL: redisUrl ?? '',
            REDIS_PREFIX: redisPrefix,
            LOG_LEVEL: 'error',
            VIDEO_RENDER_PRESET: 'ultrafast',
            VIDEO_TASK_STALL_MS: String(STALL_MS),
            DH_PROVIDER: 'embedded',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        children.push(child);
        return child;
      }
      async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      }
      const video = (id: number) =>
        handle.db
          .selectFrom('dh_videos')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      async function until(what: string, check: () => Promise<boolean>, timeoutMs = 150_000) {
        const deadline = Date.now() + timeoutMs;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }

      it(
        'the video is made once and paid once after a worker dies mid-render',
        { timeout: 240_000 },
        async () => {
          const login = await app.inject({
            method: 'POST',
            url: api('/platform/login'),
            payload: { account: 'merchant', password: DEMO_PASSWORD },
          });
          const token = (login.json() as { data: { userinfo: { token: string } } }).data.userinfo
            .token;
          const merchant = await handle.db
            .selectFrom('users')
            .select(['id', 'digital_man_seconds'])
            .where('username', '=', 'merchant')
            .executeTakeFirstOrThrow();
          const things = await putThings(
            { ctx: app.ctx, db: handle.db, now: Date.now },
            merchant.id,
            { real: true },
          );
          const added = await app.inject({
            method: 'POST',
            url: api('/digital_human/video_add'),
            headers: { token },
            payload: videoBody(things, { text: TEXT }),
          });
          expect(added.json(), added.body).toMatchObject({ code: 1 });
          const id = (added.json() as { data: { id: number } }).data.id;

          const first = startWorker();
          // Killed while the video renders: its speech stored, its render's progress written.
          await until('a render under way', async () => {
            const row = await video(id);
            return (
              row.status === 'creating' && row.speech_key !== null && Number(row.progress) > 20
            );
          });
          await kill(first, 'SIGKILL');
          const killed = await video(id);
          expect(killed.status).toBe('creating');

          const second = startWorker();
          await until('the video finished', async () => {
            await sweepDigitalHuman(app.ctx);
            const row = await video(id);
            return row.status === 'done' || row.status === 'failed';
          });
          await kill(second, 'SIGTERM');

          const row = await video(id);
          expect([row.status, row.billing]).toEqual(['done', 'settled']);
          expect(Number(row.attempts)).toBeGreaterThanOrEqual(2);
          // The speech made before the kill was kept; one video file (and poster): the killed
          // run stored nothing.
          expect(row.speech_key).toBe(killed.speech_key);
          const dir = path.join(dataDir, 'files', 'dh', `u${merchant.id}`, `v${id}`);
          const files = (await fs.readdir(dir)).sort();
          expect(files).toEqual(
            [row.speech_key!, row.storage_key!, row.poster_key!]
              .map((k) => path.basename(k))
              .sort(),
          );
          const probed = await probeStreams(app.ctx.storage.localFiles!.path(row.storage_key!));
          expect(probed.video?.codec).toBe('h264');
          expect(probed.audio?.codec).toBe('aac');
          const used = Math.ceil(Number(row.duration_ms) / 1000);
          const settles = await handle.db
            .selectFrom('system_ledger')
            .select('change')
            .where('account', '=', 'revenue')
            .where('type', '=', 'task_settle')
            .where('related_type', '=', 'dh_video')
            .where('related_id', '=', id)
            .execute();
          expect(settles.map((r) => Number(r.change))).toEqual([used]);
          const after = await handle.db
            .selectFrom('users')
            .select('digital_man_seconds')
            .where('id', '=', merchant.id)
            .executeTakeFirstOrThrow();
          expect(Number(after.digital_man_seconds)).toBe(
            Number(merchant.digital_man_seconds) - used,
          );
          expect(await reconcile(handle.db)).toEqual([]);
        },
      );
    },
  );
}
