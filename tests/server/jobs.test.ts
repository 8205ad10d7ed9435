import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobStats } from '../../src/api/contract/jobs';
import type { OrderCreateReply } from '../../src/api/contract/recharge';
import { loadConfig } from '../../server/platform/config';
import { startAppWorker } from '../../server/app-jobs';
import { api, createTestApp, engines, MINUTE, type TestApp } from './helpers';
import { eventually, sleep } from './job-queue-suite';
import { serverArgs } from './server-bundle';
import { publishPostJob } from '../../server/modules/matrix/publish';
import { startWorkerProcess, type WorkerProcess } from '../../server/worker-process';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function createOrder(t: TestApp): Promise<string> {
  const merchant = await t.login('merchant');
  const pkg = await t.db
    .selectFrom('recharge_packages')
    .select('id')
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  const created = await t.call<OrderCreateReply>('POST', api('/recharge_order/create'), {
    token: merchant,
    body: { package_id: pkg.id, pay_way: 'sandbox' },
  });
  expect(created.body.code, created.raw).toBe(1);
  return created.body.data.order_no;
}

function orderOf(t: TestApp, orderNo: string) {
  return t.db
    .selectFrom('recharge_orders')
    .select(['pay_status', 'closed_at', 'expires_at'])
    .where('order_no', '=', orderNo)
    .executeTakeFirstOrThrow();
}

describe('WORKER and REDIS_URL', () => {
  it('run a worker in `npm start` unless WORKER=0; the queue is embedded unless REDIS_URL is set', () => {
    expect(loadConfig({}).worker).toBe(true);
    expect(loadConfig({ WORKER: '0' }).worker).toBe(false);
    expect(loadConfig({ WORKER: '1' }).worker).toBe(true);
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
  });
});

describe.each(engines)('the recharge-order sweep, a recurring job, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { jobs: { timing: { pollMs: 20 } } });
    startAppWorker(t.app.ctx, { everyMs: 50 }); // stopped by t.close()
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes an unpaid order past its 30 minutes without anyone reading it', async () => {
    const orderNo = await createOrder(t);
    await sleep(200); // several ticks: the order is not due yet
    expect((await orderOf(t, orderNo)).pay_status).toBe('pending');

    t.clock.advance(31 * MINUTE);
    expect(await eventually(async () => (await orderOf(t, orderNo)).pay_status === 'closed')).toBe(
      true,
    );
    const order = await orderOf(t, orderNo);
    expect(Number(order.closed_at)).toBe(order.expires_at);
  });

  it('GET /jobs/stats counts the jobs per kind and state, for admin only', async () => {
    const admin = await t.login('admin');
    const completed = () =>
      t.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'close-recharge-orders')
        .where('state', '=', 'completed')
        .execute()
        .then((rows) => rows.length);
    const before = await completed();
    const reply = await t.get<JobStats>('/jobs/stats', undefined, admin);
    const after = await completed(); // the sweep keeps running meanwhile
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.data.adapter).toBe('embedded');
    const sweep = reply.body.data.kinds.find((k) => k.kind === 'close-recharge-orders');
    expect(before).toBeGreaterThanOrEqual(2);
    expect(sweep?.completed).toBeGreaterThanOrEqual(before);
    expect(sweep?.completed).toBeLessThanOrEqual(after);
    expect(sweep?.failed).toBe(0);

    // Everyone else: the refusal of any other admin-only call.
    for (const account of ['partner', 'merchant', 'agent']) {
      const token = await t.login(account);
      const refused = await t.get('/jobs/stats', undefined, token);
      const other = await t.post('/recharge_package/add', {}, token);
      expect(refused.status).toBe(other.status);
      expect(refused.body).toEqual(other.body);
      expect(refused.status).toBe(403);
    }
    const anonymous = await t.get('/jobs/stats');
    expect(anonymous.status).toBe(401);
  });
});

describe('`npm run worker`: a worker process without HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs the recurring jobs on the same database and stops cleanly on SIGTERM', async () => {
    // The test clock is in the past: the order is long expired for the worker's real clock.
    const orderNo = await createOrder(t);
    expect((await orderOf(t, orderNo)).pay_status).toBe('pending');
    const child = spawn(process.execPath, serverArgs('worker'), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      expect(
        await eventually(async () => (await orderOf(t, orderNo)).pay_status === 'closed', 40_000),
      ).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

describe("`npm start`'s worker process", () => {
  let t: TestApp;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { jobs: { onEnqueue: () => worker?.wake() } });
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('looks for jobs as soon as the API adds some, not at its next poll', async () => {
    const log = { info: () => undefined, warn: () => undefined };
    // Its polls 30 s apart: a job it runs sooner was announced by the API's message.
    worker = startWorkerProcess(log, {
      ...process.env,
      DATA_DIR: t.dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'error',
      JOBS_POLL_MS: '30000',
    });
    const finished = (id: string) =>
      t.db
        .selectFrom('jobs')
        .select(['state', 'created_at', 'finished_at'])
        .where('id', '=', Number(id))
        .executeTakeFirstOrThrow();
    // Its first look, at its start, finds the ticks of the recurring kinds: then it idles.
    expect(
      await eventually(async () => {
        const done = await t.db
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'completed')
          .executeTakeFirst();
        return done !== undefined;
      }, 40_000),
    ).toBe(true);
    for (let i = 0; i < 3; i += 1) {
      await sleep(300);
      // A publish of no post (it finds nothing to do), added through the API's queue.
      const id = await t.app.ctx.jobs.enqueue(publishPostJob, { post_id: 999_999, dispatch: i });
      expect(await eventually(async () => (await finished(id)).state === 'completed', 10_000)).toBe(
        true,
      );
      const job = await finished(id);
      expect(job.finished_at! - job.created_at).toBeLessThan(5_000);
    }
    // The worker process's own start (tsx, migrations) takes its time on a busy machine.
  }, 60_000);
});
