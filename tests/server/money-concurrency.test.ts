import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferRecord } from '../../src/api/contract/money';
import { ASSETS } from '../../server/platform/db/schema';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, type TestApp } from './helpers';

/** A small deterministic PRNG, so a failing mix can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(engines)('concurrent money movements on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  it('600 concurrent transfers in both directions: no deadlock reaches a client, every invariant holds', async () => {
    const tokens = { admin: await t.login('admin'), partner: await t.login('partner') };
    const ids = {
      partner: (await t.user('partner')).id,
      merchant: (await t.user('merchant')).id,
      agent: (await t.user('agent')).id,
    };
    const totalsBefore = await platformTotals(t);
    const seeded = await t.db.selectFrom('transfers').select('transfer_no').execute();
    const random = prng(20261122);
    type Op = { who: 'admin' | 'partner'; body: Record<string, unknown>; key?: string };
    const ops: Op[] = [];
    for (let i = 0; i < 600; i += 1) {
      const r = random();
      const asset = random() < 0.75 ? 'money' : 'digital_man';
      const amount =
        asset === 'money'
          ? (1 + Math.floor(random() * 40_000)) / 100 // 0.01 – 400.00
          : String(60 * (1 + Math.floor(random() * 30)));
      const direction = random() < 0.5 ? 'give' : 'take';
      if (r < 0.45) {
        ops.push({ who: 'partner', body: { to_user_id: ids.merchant, asset, amount, direction } });
      } else if (r < 0.75) {
        ops.push({ who: 'partner', body: { to_user_id: ids.agent, asset, amount, direction } });
      } else {
        const to = random() < 0.5 ? ids.partner : ids.merchant;
        ops.push({ who: 'admin', body: { to_user_id: to, asset, amount, direction } });
      }
      // Every tenth operation is sent twice at once with the same idempotency key (a retry).
      if (i % 10 === 0) {
        const last = ops[ops.length - 1];
        last.key = `concurrent-retry-${i}`;
        ops.push({ ...last });
      }
    }

    const replies = await Promise.all(
      ops.map((op) =>
        t.call<TransferRecord>('POST', api('/platform/transfer'), {
          token: tokens[op.who],
          body: op.body,
          headers: { lang: 'en-US', ...(op.key ? { 'idempotency-key': op.key } : {}) },
        }),
      ),
    );

    const outcomes = new Map<string, number>();
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.raw).not.toMatch(/deadlock|serializ|SQLITE_BUSY|database is locked/i);
      const outcome = reply.body.code === 1 ? 'ok' : reply.body.msg;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect([...outcomes.keys()].sort()).toEqual(
      outcomes.has('Insufficient balance') ? ['Insufficient balance', 'ok'] : ['ok'],
    );
    expect(outcomes.get('ok')).toBeGreaterThan(400);

    // Twins with one key that both succeeded got the same reply (one transfer); a refusal stores
    // nothing, so its twin may run after it. Every success is exactly one transfer row.
    const byKey = new Map<string, string>();
    ops.forEach((op, i) => {
      if (!op.key || replies[i].body.code !== 1) return;
      const body = JSON.stringify(replies[i].body);
      if (byKey.has(op.key)) expect(body).toBe(byKey.get(op.key));
      else byKey.set(op.key, body);
    });
    const succeeded = new Set(
      replies.filter((r) => r.body.code === 1).map((r) => r.body.data.transfer_no),
    );
    const rows = await t.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where(
        'transfer_no',
        'not in',
        seeded.map((r) => r.transfer_no),
      )
      .execute();
    expect(rows.length).toBe(succeeded.size);
    expect(new Set(rows.map((r) => r.transfer_no))).toEqual(succeeded);
    const ledgerRows = await t.db
      .selectFrom('ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('related_type', '=', 'transfer')
      .executeTakeFirstOrThrow();
    const adminRows = replies.filter(
      (r, i) =>
        r.body.code === 1 && ops[i].who === 'admin' && (!ops[i].key || ops.indexOf(ops[i]) === i),
    );
    expect(Number(ledgerRows.n)).toBe(2 * (rows.length + seeded.length) - countDistinct(adminRows));

    expect(await reconcile(t.db)).toEqual([]);
    // Transfers between users move value; only the admin's side touches the platform's issuance.
    const totalsAfter = await platformTotals(t);
    for (const asset of ASSETS) {
      expect(totalsAfter[asset].users + totalsAfter[asset].system).toBe(0);
      expect(totalsBefore[asset].users + totalsBefore[asset].system).toBe(0);
    }
  }, 120_000);
});

function countDistinct(replies: { body: { data: TransferRecord } }[]): number {
  return new Set(replies.map((r) => r.body.data.transfer_no)).size;
}

async function platformTotals(t: TestApp) {
  const users = await t.db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.sum<number>('money').as('money'),
      eb.fn.sum<number>('digital_man_seconds').as('digital_man'),
      eb.fn.sum<number>('voice_clone_count').as('digital_voice'),
      eb.fn.sum<number>('image_clone_count').as('image_clone'),
    ])
    .executeTakeFirstOrThrow();
  const system = await t.db.selectFrom('system_accounts').select(['asset', 'balance']).execute();
  return Object.fromEntries(
    ASSETS.map((asset) => [
      asset,
      {
        users: Number(users[asset] ?? 0),
        system: system.filter((r) => r.asset === asset).reduce((n, r) => n + Number(r.balance), 0),
      },
    ]),
  ) as Record<(typeof ASSETS)[number], { users: number; system: number }>;
}
