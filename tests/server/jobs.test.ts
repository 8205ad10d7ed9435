import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderCreateReply } from '../../src/api/contract/recharge';
import { startSweep } from '../../server/jobs/schedule';
import { api, createTestApp, engines, MINUTE, type TestApp } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `ms` pass. */
async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

const quietLog = { info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

describe('a scheduled sweep', () => {
  it('runs again and again, one pass at a time, and stop() waits for the pass under way', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    let finished = 0;
    const sweep = startSweep(
      {
        name: 'slow',
        everyMs: 5,
        run: async () => {
          running += 1;
          passes += 1;
          most = Math.max(most, running);
          await sleep(30);
          running -= 1;
          finished += 1;
          return 0;
        },
      },
      quietLog,
    );
    await sleep(150);
    await sweep.stop();
    expect(passes).toBeGreaterThanOrEqual(2);
    expect(most).toBe(1);
    expect(finished).toBe(passes);
    await sleep(30);
    expect(passes).toBe(finished);
  });

  it('keeps going after a failed pass', async () => {
    let passes = 0;
    const sweep = startSweep(
      {
        name: 'flaky',
        everyMs: 5,
        run: async () => {
          passes += 1;
          if (passes === 1) throw new Error('first pass fails');
          return 1;
        },
      },
      quietLog,
    );
    await eventually(async () => passes >= 3, 1_000);
    await sweep.stop();
    expect(passes).toBeGreaterThanOrEqual(3);
  });
});

describe.each(engines)('the recharge-order sweep on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { sweepEveryMs: 20 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes an unpaid order past its 30 minutes without anyone reading it', async () => {
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
    const stored = () =>
      t.db
        .selectFrom('recharge_orders')
        .select(['pay_status', 'closed_at'])
        .where('order_no', '=', created.body.data.order_no)
        .executeTakeFirstOrThrow();

    await sleep(100); // several sweeps: the order is not due yet
    expect((await stored()).pay_status).toBe('pending');

    t.clock.advance(31 * MINUTE);
    expect(await eventually(async () => (await stored()).pay_status === 'closed')).toBe(true);
    expect(Number((await stored()).closed_at)).toBe(created.body.data.expires_at);
  });
});
