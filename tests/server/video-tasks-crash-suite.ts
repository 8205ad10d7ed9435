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
import { reconcile } from '../../server/modules/ledger/reconcile';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import { sweepVideoTasks } from '../../server/modules/video-tasks/sweep';
import { api, createScratchDatabase, DEMO_PASSWORD, queueEngines, type TestApp } from './helpers';
import { ffprobe, mixedBody, putShotGroups } from './video-task-fixtures';
import { serverArgs } from './server-bundle';

/**
 * Crash safety of rendering: a worker process (`server/worker.ts`) is killed
 * with SIGKILL while it renders; a second worker and the sweep (stall time shortened) finish the
 * task. Every output is made exactly once (one file each, settled once) and the ledger
 * reconciles (freeze = settle + refund).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const STALL_MS = 2_000;
const REDIS_URL = process.env.TEST_REDIS_URL;

export function defineCrashSuite(queue: 'embedded' | 'bullmq'): void {
  describe.each(queueEngines(queue))(
    `kill -9 of a rendering worker on %s with the ${queue} queue`,
    (engine: Engine) => {
      let dataDir: string;
      let databaseUrl: string | undefined;
      let dropDatabase: (() => Promise<void>) | undefined;
      let handle: DbHandle;
      let app: FastifyInstance;
      const children: ChildProcess[] = [];
      const redisPrefix = `vc-crash-${randomBytes(4).toString('hex')}`;
      const redisUrl = queue === 'bullmq' ? REDIS_URL : undefined;

      beforeAll(async () => {
        dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-render-crash-'));
        if (engine === 'postgres') {
          ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase('vcrash'));
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
      const outputs = (taskId: number) =>
        handle.db
          .selectFrom('video_outputs')
          .selectAll()
          .where('task_id', '=', taskId)
          .orderBy('idx')
          .execute();
      async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000) {
        const deadline = Date.now() + timeoutMs;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }

      it(
        'every output is made once and paid once after a worker dies mid-render',
        { timeout: 180_000 },
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
            .select(['id', 'money'])
            .where('username', '=', 'merchant')
            .executeTakeFirstOrThrow();
          const groups = await putShotGroups(
            { app, db: handle.db, clock: Date.now } as unknown as TestApp,
            merchant.id,
          );
          const added = await app.inject({
            method: 'POST',
            url: api('/video_task/add'),
            headers: { token },
            payload: mixedBody(groups),
          });
          expect(added.json(), added.body).toMatchObject({ code: 1 });
          const taskId = (added.json() as { data: { id: number } }).data.id;

          const first = startWorker();
          // Killed while ffmpeg renders an output (its progress written), after one is done.
          await until('a render under way', async () => {
            const rows = await outputs(taskId);
            return (
              rows.some((o) => o.status === 'done') &&
              rows.some((o) => o.status === 'rendering' && Number(o.progress) > 0)
            );
          });
          await kill(first, 'SIGKILL');
          const killed = (await outputs(taskId))
            .filter((o) => o.status === 'rendering')
            .map((o) => o.id);
          expect(killed.length).toBeGreaterThan(0);

          const second = startWorker();
          // The sweep (as the recurring job runs it) re-queues the stalled task's render.
          await until('the task finished', async () => {
            await sweepVideoTasks(app.ctx);
            const task = await handle.db
              .selectFrom('video_tasks')
              .select('status')
              .where('id', '=', taskId)
              .executeTakeFirstOrThrow();
            return task.status === 'done';
          });
          await kill(second, 'SIGTERM');

          const rows = await outputs(taskId);
          expect(rows.map((o) => [o.status, o.billing])).toEqual(
            Array(5).fill(['done', 'settled']),
          );
          for (const id of killed)
            expect(Number(rows.find((o) => o.id === id)!.attempts)).toBeGreaterThanOrEqual(2);
          const task = await handle.db
            .selectFrom('video_tasks')
            .selectAll()
            .where('id', '=', taskId)
            .executeTakeFirstOrThrow();
          expect(Number(task.stalled)).toBe(1);
          // One file (and poster) per output: the killed run stored nothing.
          const dir = path.join(dataDir, 'files', 'videos', `u${merchant.id}`, `t${taskId}`);
          const files = (await fs.readdir(dir)).sort();
          expect(files).toEqual(
            rows
              .flatMap((o) => [path.basename(o.storage_key!), path.basename(o.poster_key!)])
              .sort(),
          );
          for (const o of rows) {
            const probed = await ffprobe(app.ctx.storage.localFiles!.path(o.storage_key!));
            expect(probed.codec).toBe('h264');
            expect(Math.abs(probed.duration - 2.4)).toBeLessThanOrEqual(0.1);
          }
          const settles = await handle.db
            .selectFrom('system_ledger')
            .select('change')
            .where('account', '=', 'revenue')
            .where('type', '=', 'task_settle')
            .where('related_id', '=', taskId)
            .execute();
          expect(settles.map((r) => Number(r.change))).toEqual(Array(5).fill(10));
          const after = await handle.db
            .selectFrom('users')
            .select('money')
            .where('id', '=', merchant.id)
            .executeTakeFirstOrThrow();
          expect(Number(after.money)).toBe(Number(merchant.money) - 50);
          expect([Number(task.frozen), Number(task.settled), Number(task.refunded)]).toEqual([
            50, 50, 0,
          ]);
          expect(await reconcile(handle.db)).toEqual([]);
        },
      );
    },
  );
}
