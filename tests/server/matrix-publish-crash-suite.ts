import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUrlReply } from '../../src/api/contract/matrix';
import type { PlanPost } from '../../src/api/contract/matrix-plans';
import { buildApp } from '../../server/app';
import type { Engine } from '../../server/platform/db/dialect';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { seedDemo } from '../../server/modules/demo/seed';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import {
  api,
  createScratchDatabase,
  DEMO_PASSWORD,
  freePort,
  queueEngines,
  type TestApp,
} from './helpers';
import { putResource } from './resource-fixtures';
import { authoriseOnSandbox } from './matrix-fixtures';
import { fixtureBytes } from './media-fixtures';
import { serverArgs } from './server-bundle';

/**
 * Exactly once across a crash (docs/domain.md §20): a worker process (`server/worker.ts`) sends a
 * post's create to the sandbox platform, which makes the post and holds its answer; the worker is
 * killed with SIGKILL there. A second worker takes the post once its lease lapses, finds it among
 * the account's posts instead of creating it again: one post on the platform, under review here.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const LEASE_MS = 3_000;
const REDIS_URL = process.env.TEST_REDIS_URL;

export function defineMatrixCrashSuite(queue: 'embedded' | 'bullmq'): void {
  describe.each(queueEngines(queue))(
    `kill -9 of a worker after a post's create was sent, on %s with the ${queue} queue`,
    (engine: Engine) => {
      let dataDir: string;
      let databaseUrl: string | undefined;
      let dropDatabase: (() => Promise<void>) | undefined;
      let handle: DbHandle;
      let app: FastifyInstance;
      let base: string;
      const children: ChildProcess[] = [];
      const redisPrefix = `vc-mxcrash-${randomBytes(4).toString('hex')}`;
      const redisUrl = queue === 'bullmq' ? REDIS_URL : undefined;

      beforeAll(async () => {
        dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-matrix-crash-'));
        if (engine === 'postgres') {
          ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase('vmxcrash'));
        }
        handle = openDatabase({ dataDir, databaseUrl });
        await migrateToLatest(handle.db, handle.engine);
        await ensurePlatformDefaults(handle.db, Date.now());
        await seedDemo(handle.db, Date.now());
        const port = await freePort();
        base = `http://127.0.0.1:${port}`;
        app = await buildApp({
          logger: false,
          db: handle,
          config: {
            dataDir,
            databaseUrl,
            staticDir: path.join(dataDir, 'no-console'),
            redisUrl,
            redisPrefix,
            publicUrl: base,
            socialSandbox: true,
            matrixPublishLeaseMs: LEASE_MS,
          },
        });
        await app.listen({ port, host: '127.0.0.1' });
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
            PUBLIC_URL: base,
            SOCIAL_SANDBOX: '1',
            MATRIX_PUBLISH_LEASE_MS: String(LEASE_MS),
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        children.push(child);
        return child;
      }
      async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const call = async <T>(
        method: 'GET' | 'POST',
        url: string,
        token?: string,
        body?: unknown,
      ) => {
        const response = await app.inject({
          method,
          url: api(url),
          headers: token ? { token } : {},
          ...(body === undefined ? {} : { payload: body as object }),
          ...(method === 'GET' && body ? { query: body as Record<string, string> } : {}),
        });
        return response.json() as { code: number; msg: string; data: T };
      };
      const sandboxPosts = async (openId: string) =>
        (
          (await (
            await fetch(`${base}/sandbox-platform/__control/posts?open_id=${openId}`)
          ).json()) as {
            list: unknown[];
          }
        ).list.length;

      it('the restarted worker reconciles the post instead of posting it twice', async () => {
        const login = await call<{ userinfo: { token: string } }>(
          'POST',
          '/platform/login',
          undefined,
          {
            account: 'merchant',
            password: DEMO_PASSWORD,
          },
        );
        const token = login.data.userinfo.token;
        const { list } = (await (
          await fetch(`${base}/sandbox-platform/__control/accounts`)
        ).json()) as {
          list: { open_id: string }[];
        };
        const openId = list[0].open_id;
        // Bind through the platform's page, as a person would.
        const { url } = (
          await call<AuthUrlReply>('POST', '/matrix/auth_url', token, { platform: 'douyin' })
        ).data;
        const back = await authoriseOnSandbox(url, openId);
        const bound = await fetch(new URL(back, base), {
          redirect: 'manual',
        });
        const accountId = Number(
          new URL(bound.headers.get('location')!, base).searchParams.get('bound'),
        );
        expect(accountId).toBeGreaterThan(0);

        // A library video (a real file) and a one-post plan for tomorrow, published now.
        const owner = await handle.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'merchant')
          .executeTakeFirstOrThrow();
        const bytes = await fixtureBytes('clip.mp4');
        const world = { clock: () => Date.now(), app, db: handle.db } as unknown as TestApp;
        const resource = await putResource(world, Number(owner.id), { name: '开箱', bytes });
        const now = Date.now();
        const tomorrow = new Date(now + 8 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
        const plan = await call<{ id: number }>('POST', '/matrix/plan_add', token, {
          name: '崩溃测试',
          account_ids: [accountId],
          media: [{ type: 'resource', id: Number(resource.id) }],
          titles: ['开箱这个神器'],
          start_date: tomorrow,
          end_date: tomorrow,
          slots: ['12:00'],
          daily_max: 1,
        });
        expect(plan.code, plan.msg).toBe(1);
        const posts = await call<{ list: PlanPost[] }>('GET', '/matrix/post_list', token, {
          plan_id: String(plan.data.id),
        });
        const postId = posts.data.list[0].id;
        await fetch(`${base}/sandbox-platform/__control/hold_reply`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ open_id: openId, times: 1 }),
        });
        expect((await call('POST', '/matrix/post_publish_now', token, { id: postId })).code).toBe(
          1,
        );

        const post = () =>
          handle.db
            .selectFrom('matrix_posts')
            .selectAll()
            .where('id', '=', postId)
            .executeTakeFirstOrThrow();
        const first = startWorker();
        // The platform made the post and holds the answer: the worker waits for it. Kill it there.
        await until(
          'the create to reach the platform',
          async () => (await sandboxPosts(openId)) === 1,
        );
        const exited = new Promise((resolve) => first.once('exit', resolve));
        first.kill('SIGKILL');
        await exited;
        const left = await post();
        expect(left.status).toBe('publishing');
        expect(left.create_sent_at).not.toBeNull();

        startWorker();
        await until('the post reconciled', async () =>
          ['under_review', 'published'].includes((await post()).status),
        );
        const done = await post();
        expect(done.platform_post_id).not.toBeNull();
        expect(await sandboxPosts(openId)).toBe(1);
      });
    },
  );
}
