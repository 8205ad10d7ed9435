import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Engine } from '../../server/platform/db/dialect';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { seedDemo } from '../../server/modules/demo/seed';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import { sweepVideoTasks } from '../../server/modules/video-tasks/sweep';
import { api, createScratchDatabase, DEMO_PASSWORD, queueEngines, type TestApp } from './helpers';
import { mixedBody, putShotGroups } from './video-task-fixtures';
import { serverArgs } from './server-bundle';

/**
 * A render killed with its worker leaves nothing behind (docs/architecture.md §The path of a
 * job): a real worker process (`server/worker.ts`) is killed with SIGKILL while ffmpeg renders.
 * No ffmpeg of it keeps running (children die with their worker), the next worker's start sweeps
 * its work directory away, and every output is still made exactly once.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const STALL_MS = 2_000;

/** Pids of the processes whose command line names `dir` (the renders' inputs and outputs). */
function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(dir)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(queueEngines('embedded'))(
  'kill -9 of a worker mid-render on %s',
  (engine: Engine) => {
    let dataDir: string;
    let databaseUrl: string | undefined;
    let dropDatabase: (() => Promise<void>) | undefined;
    let handle: DbHandle;
    let app: FastifyInstance;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-render-kill-'));
      if (engine === 'postgres') {
        ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase('vkill'));
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
          videoTaskStallMs: STALL_MS,
        },
      });
    });

    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      for (const pid of dataDir ? processesUsing(dataDir) : []) process.kill(pid, 'SIGKILL');
      await app?.close();
      await handle?.close();
      await dropDatabase?.();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    function startWorker(preset = 'ultrafast'): ChildProcess {
      const child = spawn(process.execPath, serverArgs('worker'), {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl ?? '',
          REDIS_URL: '',
          LOG_LEVEL: 'error',
          VIDEO_RENDER_PRESET: preset,
          VIDEO_TASK_STALL_MS: String(STALL_MS),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    }

    it(
      'leaves no ffmpeg and no work directory behind, and the output is still made once',
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
          .select('id')
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
        const outputs = () =>
          handle.db.selectFrom('video_outputs').selectAll().where('task_id', '=', taskId).execute();
        const workRoot = path.join(dataDir, 'work', 'video-output');
        const workDirs = () => (existsSync(workRoot) ? readdirSync(workRoot) : []);

        // A slow preset: a render that outlived its worker would still be running for seconds.
        const first = startWorker('medium');
        await until('ffmpeg rendering an output', async () => {
          const rows = await outputs();
          return (
            rows.some((o) => o.status === 'rendering' && Number(o.progress) > 0) &&
            processesUsing(dataDir).length > 0
          );
        });
        const ffmpegs = processesUsing(dataDir);
        const left = workDirs();
        expect(left.length).toBeGreaterThan(0);
        // Its work directory lives under DATA_DIR, never in the OS temp dir.
        for (const name of left)
          expect(existsSync(path.join(workRoot, name, 'owner.json'))).toBe(true);

        const exited = new Promise((resolve) => first.once('exit', resolve));
        first.kill('SIGKILL');
        await exited;
        // Its ffmpeg dies with it (no render keeps writing into a dead worker's directory).
        await until(
          'the killed worker’s ffmpeg gone',
          () => processesUsing(dataDir).length === 0,
          500,
        ).catch(() => {});
        expect(processesUsing(dataDir), `ffmpeg ${ffmpegs.join(',')} still running`).toEqual([]);
        // Its work directory is still there until a worker starts again.
        expect(workDirs()).toEqual(expect.arrayContaining(left));

        const second = startWorker();
        await until(
          'the dead worker’s work directories swept',
          () => left.every((name) => !existsSync(path.join(workRoot, name))),
          30_000,
        );
        await until('the task finished', async () => {
          await sweepVideoTasks(app.ctx);
          const task = await handle.db
            .selectFrom('video_tasks')
            .select('status')
            .where('id', '=', taskId)
            .executeTakeFirstOrThrow();
          return task.status === 'done';
        });
        const closed = new Promise((resolve) => second.once('exit', resolve));
        second.kill('SIGTERM');
        await closed;

        const rows = await outputs();
        expect(rows.map((o) => [o.status, o.billing])).toEqual(Array(5).fill(['done', 'settled']));
        // One file and one poster per output: the killed render stored nothing.
        const files = await fs.readdir(
          path.join(dataDir, 'files', 'videos', `u${merchant.id}`, `t${taskId}`),
        );
        expect(files).toHaveLength(10);
        expect(workDirs()).toEqual([]);
        expect(processesUsing(dataDir)).toEqual([]);
      },
    );
  },
);
