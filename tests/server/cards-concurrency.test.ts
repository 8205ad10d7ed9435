import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AddCardsReply } from '../../src/api/contract/cards';
import type { RechargeCardRow } from '../../server/platform/db/schema';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { createSession } from '../../server/modules/sessions/service';
import { api, createTestApp, engines, T0, type Reply, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const USED = 'This card has already been used';
const NOT_TRANSFERABLE = 'Only unused, unexpired cards you hold can be transferred';

describe.each(engines)('recharge cards under concurrency on %s', (engine) => {
  let t: TestApp;
  let ids: Record<string, number>;
  let tokens: Record<string, string>;
  const replies: Reply[] = [];

  beforeEach(async () => {
    t = await createTestApp(engine);
    ids = {};
    tokens = {};
    replies.length = 0;
    for (const name of ['admin', 'partner', 'partner2', 'merchant', 'merchant2']) {
      ids[name] = (await t.user(name)).id;
      tokens[name] = await t.login(name);
    }
  });
  afterEach(async () => {
    // No race reaches a client as a fault: every reply is a 200 with a readable message.
    for (const reply of replies) {
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.raw).not.toMatch(/deadlock|serializ|SQLITE_BUSY|database is locked|internal/i);
    }
    expect(await reconcile(t.db)).toEqual([]);
    await t.close();
  });

  async function call<T = unknown>(
    token: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const reply = await t.call<T>('POST', api(`/recharge_card${path}`), {
      token,
      body,
      headers: { ...EN, ...headers },
    });
    replies.push(reply);
    return reply;
  }

  /** Merchants written straight into the database, each with a session (no slow logins). */
  async function merchants(
    partner: string,
    count: number,
  ): Promise<{ id: number; token: string }[]> {
    const made: { id: number; token: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      const row = await t.db
        .insertInto('users')
        .values({
          user_type: 2,
          pid: ids[partner],
          service_id: ids[partner],
          agent_id: null,
          username: `${partner}-m${i}`,
          password_hash: 'not-a-hash',
          mobile: null,
          service_prefix_no: null,
          expire_at: null,
          last_login_at: null,
          last_login_ip: null,
          created_at: T0,
          updated_at: T0,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = await createSession(t.app.ctx, t.db, { userId: row.id, kind: 'login' });
      made.push({ id: row.id, token });
    }
    return made;
  }

  async function add(who: string, body: Record<string, unknown>): Promise<RechargeCardRow[]> {
    const reply = await call<AddCardsReply>(tokens[who], '/add', body);
    expect(reply.body.code, reply.raw).toBe(1);
    return t.db
      .selectFrom('recharge_cards')
      .selectAll()
      .where('batch_no', '=', reply.body.data.batch_no)
      .orderBy('id')
      .execute();
  }

  const redeem = (token: string, card: RechargeCardRow) =>
    call(token, '/use_card', { card_no: card.card_no, card_pwd: card.card_pwd });

  const tally = (list: Reply[]) => {
    const counts: Record<string, number> = {};
    for (const r of list) {
      const key = r.body.code === 1 ? 'ok' : r.body.msg;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };

  it('50 users redeeming one card at once: exactly one wins, the rest hear "already used"', async () => {
    const [card] = await add('admin', { asset: 'money', face_value: '88.00', quantity: 1 });
    const users = [
      ...(await merchants('partner', 25)),
      ...(await merchants('partner2', 24)),
      { id: ids.partner, token: tokens.partner },
    ];
    const results = await Promise.all(users.map((u) => redeem(u.token, card)));
    expect(tally(results)).toEqual({ ok: 1, [USED]: 49 });
    const winner = users[results.findIndex((r) => r.body.code === 1)];
    const row = await t.db
      .selectFrom('recharge_cards')
      .selectAll()
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 1, used_by: winner.id });
    const credits = await t.db
      .selectFrom('ledger')
      .selectAll()
      .where('type', '=', 'card_redeem')
      .execute();
    expect(credits.map((c) => [c.user_id, c.change])).toEqual([[winner.id, 8800]]);
    // Knowing the password is not guessing: no one's throttle counts a failure.
    const throttled = await t.db
      .selectFrom('login_throttle')
      .select('failures')
      .where('key', 'like', 'card:%')
      .execute();
    expect(throttled.every((r) => Number(r.failures) === 0)).toBe(true);
  });

  it('10 cards each raced by 10 users: every card is redeemed exactly once', async () => {
    const cards = await add('partner', { asset: 'digital_man', face_value: 10, quantity: 10 });
    const users = await merchants('partner', 10);
    const results = await Promise.all(
      cards.flatMap((card) => users.map((u) => redeem(u.token, card))),
    );
    expect(tally(results)).toEqual({ ok: 10, [USED]: 90 });
    const rows = await t.db.selectFrom('recharge_cards').selectAll().execute();
    expect(rows.every((r) => r.status === 1 && r.used_by !== null)).toBe(true);
    const credited = await t.db
      .selectFrom('ledger')
      .select((eb) => eb.fn.sum<number>('change').as('total'))
      .where('type', '=', 'card_redeem')
      .executeTakeFirstOrThrow();
    expect(Number(credited.total)).toBe(10 * 600);
  });

  it('a transfer racing redemptions moves all of its cards or none; every redemption stands', async () => {
    const users = await merchants('partner', 20);
    const outcomes = new Set<string>();
    for (let round = 0; round < 5; round += 1) {
      const cards = await add('partner', { asset: 'money', face_value: 1, quantity: 20 });
      const order = round % 2 === 0 ? 1 : -1;
      const work: Promise<Reply>[] = cards.map((card, i) => redeem(users[i].token, card));
      const transfer = call(tokens.partner, '/transfer_card', {
        ids: cards.map((c) => c.id),
        to_user_id: ids.merchant,
      });
      if (order > 0) work.unshift(transfer);
      else work.push(transfer);
      const results = await Promise.all(work);
      const moved = await transfer;
      const redemptions = results.filter((r) => r !== moved);
      expect(tally(redemptions)).toEqual({ ok: 20 });
      const rows = await t.db
        .selectFrom('recharge_cards')
        .select(['owner_id', 'status'])
        .where(
          'id',
          'in',
          cards.map((c) => c.id),
        )
        .execute();
      if (moved.body.code === 1) {
        expect(moved.body.data).toEqual({ count: 20 });
        expect(rows.every((r) => r.owner_id === ids.merchant)).toBe(true);
        outcomes.add('moved');
      } else {
        expect(moved.body.msg).toBe(NOT_TRANSFERABLE);
        expect(rows.every((r) => r.owner_id === ids.partner)).toBe(true);
        outcomes.add('refused');
      }
      expect(rows.every((r) => r.status === 1)).toBe(true);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('a deletion racing redemptions: deleted and refunded, or refused with nothing deleted', async () => {
    const users = await merchants('partner', 10);
    for (let round = 0; round < 4; round += 1) {
      const before = Number((await t.user('partner')).money);
      const cards = await add('partner', { asset: 'money', face_value: '2.50', quantity: 10 });
      const del = call(tokens.partner, '/batch_del', { ids: cards.map((c) => c.id) });
      const results = await Promise.all(cards.map((card, i) => redeem(users[i].token, card)));
      const deleted = await del;
      const rows = await t.db
        .selectFrom('recharge_cards')
        .select(['status', 'deleted_at'])
        .where(
          'id',
          'in',
          cards.map((c) => c.id),
        )
        .execute();
      const redeemed = results.filter((r) => r.body.code === 1).length;
      if (deleted.body.code === 1) {
        expect(redeemed).toBe(0);
        expect(tally(results)).toEqual({ 'Card not found': 10 });
        expect(rows.every((r) => r.deleted_at !== null && r.status === 0)).toBe(true);
        expect(Number((await t.user('partner')).money)).toBe(before);
      } else {
        expect(deleted.body.msg).toBe('Used cards cannot be deleted');
        expect(rows.every((r) => r.deleted_at === null)).toBe(true);
        expect(redeemed).toBeGreaterThan(0);
        expect(rows.filter((r) => r.status === 1)).toHaveLength(redeemed);
        expect(Number((await t.user('partner')).money)).toBe(before - 2_500);
      }
    }
  });

  it('many adds by one partner racing its balance: never below zero, numbers unique and gapless', async () => {
    // partner2 holds 19 voice clones (seed: 20, one given to merchant2).
    const start = Number((await t.user('partner2')).voice_clone_count);
    expect(start).toBe(19);
    const bodies = Array.from({ length: 40 }, (_, i) => ({
      asset: 'digital_voice',
      face_value: 1,
      quantity: i % 4 === 0 ? 2 : 1,
    }));
    const results = await Promise.all(bodies.map((b) => call(tokens.partner2, '/add', b)));
    const counts = tally(results);
    expect(Object.keys(counts).sort()).toEqual(['Insufficient balance', 'ok']);
    const paid = results.reduce(
      (sum, r, i) => sum + (r.body.code === 1 ? bodies[i].quantity : 0),
      0,
    );
    const balance = Number((await t.user('partner2')).voice_clone_count);
    expect(balance).toBe(start - paid);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBeLessThanOrEqual(1);
    const rows = await t.db
      .selectFrom('recharge_cards')
      .select('card_no')
      .orderBy('card_no')
      .execute();
    expect(rows.map((r) => r.card_no)).toEqual(
      Array.from({ length: paid }, (_, i) => `PB260302${String(i + 1).padStart(6, '0')}`),
    );
  });

  it('admin and prefix-less partners share the P sequence without collisions', async () => {
    await t.db
      .updateTable('users')
      .set({ service_prefix_no: null })
      .where('id', 'in', [ids.partner, ids.partner2])
      .execute();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(tokens[['admin', 'partner', 'partner2'][i % 3]], '/add', {
          asset: 'money',
          face_value: '0.01',
          quantity: 1 + (i % 5),
        }),
      ),
    );
    expect(tally(results)).toEqual({ ok: 30 });
    const rows = await t.db.selectFrom('recharge_cards').select('card_no').execute();
    const total = Array.from({ length: 30 }, (_, i) => 1 + (i % 5)).reduce((a, b) => a + b, 0);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.card_no)).size).toBe(total);
    expect(rows.map((r) => r.card_no).sort()).toEqual(
      Array.from({ length: total }, (_, i) => `P260302${String(i + 1).padStart(6, '0')}`),
    );
  });

  it('twins with one Idempotency-Key make one batch', async () => {
    const body = { asset: 'money', face_value: '1.00', quantity: 3 };
    const before = Number((await t.user('partner2')).money);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call<AddCardsReply>(tokens.partner2, '/add', body, { 'idempotency-key': 'twin-add-0001' }),
      ),
    );
    expect(tally(results)).toEqual({ ok: 10 });
    expect(new Set(results.map((r) => r.body.data.batch_no)).size).toBe(1);
    expect(Number((await t.user('partner2')).money)).toBe(before - 300);
    expect(await t.db.selectFrom('recharge_cards').select('id').execute()).toHaveLength(3);
  });
});
