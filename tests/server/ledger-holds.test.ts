import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import {
  closeHold,
  extendHold,
  findHold,
  openHold,
  refundPart,
  runMoney,
  settlePart,
} from '../../server/modules/ledger';
import { reconcile } from '../../server/modules/ledger/reconcile';
import * as ledgerHolds from '../../server/platform/db/migrations/0013-ledger-holds';
import { createTestApp, engines, underMigrationLock, type TestApp } from './helpers';

/**
 * The ledger's holds of paid work (docs/domain.md §9), through the ledger's own calls and
 * whatever feature uses them: a part settles or refunds once, also when raced; the
 * reconciliation checks every hold from its own rows and catches one settled twice; the
 * migration's backfill rebuilds the holds of work billed before it.
 */
describe.each(engines)('ledger holds on %s', (engine) => {
  let t: TestApp;
  let ctx: AppContext;
  let merchant: number;

  beforeEach(async () => {
    t = await createTestApp(engine);
    ctx = t.app.ctx;
    merchant = (await t.user('merchant')).id;
  });
  afterEach(async () => {
    await t.close();
  });

  const money = async () => Number((await t.user('merchant')).money);
  const counts = async () => ({
    ledger: Number(
      (
        await t.db
          .selectFrom('ledger')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    system: Number(
      (
        await t.db
          .selectFrom('system_ledger')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const hold = (amount: number, relatedId = 9001) =>
    runMoney(ctx, (trx) =>
      openHold(ctx, trx, {
        userId: merchant,
        asset: 'money',
        relatedType: 'test_work',
        relatedId,
        amount,
        memo: 'held for a test',
      }),
    );

  it('a second settle of the same part moves no money and answers "already done"', async () => {
    const before = await money();
    const id = await hold(300);
    expect(await money()).toBe(before - 300);
    const first = await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'output:1', 100));
    expect(first).toEqual({ done: true, amount: 100 });
    const rows = await counts();
    const again = await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'output:1', 100));
    expect(again).toEqual({ done: false, already: 'settle', amount: 100 });
    // A refund of the settled part is "already done" too.
    const refund = await runMoney(ctx, (trx) =>
      refundPart(ctx, trx, id, 'output:1', 100, 'refund'),
    );
    expect(refund).toEqual({ done: false, already: 'settle', amount: 100 });
    expect(await counts()).toEqual(rows);
    expect(await findHold(t.db, id)).toMatchObject({
      amount: 300,
      settled: 100,
      refunded: 0,
      held: 200,
      closed: false,
    });
    expect(await reconcile(t.db)).toEqual([]);

    await runMoney(ctx, (trx) => refundPart(ctx, trx, id, 'output:2', 100, 'refund'));
    expect(await money()).toBe(before - 200);
    // Closing gives back what is still held, once; a closed hold holds nothing.
    const closed = await runMoney(ctx, (trx) => closeHold(ctx, trx, id, 'unused'));
    expect(closed).toEqual({ closed: true, refunded: 100 });
    expect(await runMoney(ctx, (trx) => closeHold(ctx, trx, id, 'unused'))).toEqual({
      closed: false,
      refunded: 0,
    });
    expect(await money()).toBe(before - 100);
    expect(await findHold(t.db, id)).toMatchObject({ held: 0, closed: true });
    await expect(runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'output:3', 1))).rejects.toThrow();
    await expect(runMoney(ctx, (trx) => extendHold(ctx, trx, id, 5, 'more'))).rejects.toThrow(
      /closed/,
    );
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('settles more than it holds never: the move is refused and nothing changes', async () => {
    const id = await hold(100);
    await expect(runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'all', 101))).rejects.toThrow();
    expect(await findHold(t.db, id)).toMatchObject({ settled: 0, held: 100 });
    await runMoney(ctx, (trx) => extendHold(ctx, trx, id, 1, 'extra'));
    expect(await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'all', 101))).toEqual({
      done: true,
      amount: 101,
    });
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('eight racing settles of one part move it once', async () => {
    const before = await money();
    const id = await hold(500);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'all', 500))),
    );
    expect(results.filter((r) => r.done)).toHaveLength(1);
    expect(await findHold(t.db, id)).toMatchObject({ settled: 500, held: 0 });
    const revenue = await t.db
      .selectFrom('system_ledger')
      .select('change')
      .where('hold_id', '=', id)
      .where('account', '=', 'revenue')
      .execute();
    expect(revenue.map((r) => Number(r.change))).toEqual([500]);
    expect(await money()).toBe(before - 500);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('the database refuses a second row for a part', async () => {
    const id = await hold(200);
    await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'output:1', 100));
    await expect(
      t.db
        .insertInto('ledger_hold_moves')
        .values({ hold_id: id, part: 'output:1', kind: 'refund', amount: 100, created_at: 1 })
        .execute(),
    ).rejects.toThrow();
  });

  it('a hold settled twice (rows tampered in the database) fails the reconciliation', async () => {
    const id = await hold(300);
    await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'output:1', 100));
    expect(await reconcile(t.db)).toEqual([]);
    // The settle's two platform rows written again, the accounts moved to match: every balance
    // still equals its ledger and the platform still sums to zero, but the hold was paid twice.
    const settles = await t.db
      .selectFrom('system_ledger')
      .selectAll()
      .where('hold_id', '=', id)
      .where('type', '=', 'task_settle')
      .execute();
    expect(settles).toHaveLength(2);
    for (const { id: _id, ...row } of settles) {
      const account = await t.db
        .updateTable('system_accounts')
        .set({ balance: sql`balance + ${row.change}` })
        .where('account', '=', row.account)
        .where('asset', '=', 'money')
        .returning('balance')
        .executeTakeFirstOrThrow();
      const after = Number(account.balance);
      await t.db
        .insertInto('system_ledger')
        .values({ ...row, before: after - Number(row.change), after })
        .execute();
    }
    const problems = await reconcile(t.db);
    expect(problems).toEqual([
      `hold ${id} (test_work 9001, money): ledger freeze/settle/refund/held 300/200/0/100 ≠ 300/100/0/200`,
      'money: task_hold 100 ≠ still held by open holds 200',
    ]);
  });

  it('a closed hold that still holds, or a move the hold does not count, fails the reconciliation', async () => {
    const id = await hold(300);
    await runMoney(ctx, (trx) => settlePart(ctx, trx, id, 'all', 300));
    await runMoney(ctx, (trx) => closeHold(ctx, trx, id));
    expect(await reconcile(t.db)).toEqual([]);
    // The table's check refuses a closed hold that holds something.
    await expect(
      t.db.updateTable('ledger_holds').set({ settled: 200 }).where('id', '=', id).execute(),
    ).rejects.toThrow();
    await t.db
      .updateTable('ledger_hold_moves')
      .set({ amount: 250 })
      .where('hold_id', '=', id)
      .execute();
    expect(await reconcile(t.db)).toEqual([
      `hold ${id} (test_work 9001, money): parts settle/refund 250/0 ≠ 300/0`,
    ]);
  });

  it('the migration rebuilds the holds of work billed before it (backfill)', async () => {
    // Work billed before the holds (the holds' tables dropped, as before migration 0013): a
    // running video task that froze 3 outputs, settled one, refunded one and holds one, written
    // as the old billing wrote it.
    await underMigrationLock(engine, () => ledgerHolds.down(t.db));
    const now = t.clock();
    const task = await t.db
      .insertInto('video_tasks')
      .values({
        owner_id: merchant,
        kind: 'mixed',
        name: 'old task',
        status: 'running',
        params: '{}',
        total: 3,
        unit_price: 10,
        frozen: 30,
        settled: 10,
        refunded: 10,
        progress_at: now,
        created_at: now,
        updated_at: now,
        finished_at: null,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const taskId = Number(task.id);
    const outputs = [
      ['done', 'settled'],
      ['failed', 'refunded'],
      ['rendering', 'held'],
    ] as const;
    for (const [i, [status, billing]] of outputs.entries()) {
      await sql`insert into video_outputs (task_id, idx, status, combination, planned_ms, billing,
        price, updated_at) values (${taskId}, ${i + 1}, ${status}, '{}', 1000, ${billing}, 10,
        ${now})`.execute(t.db);
    }
    const userRow = async (type: 'task_freeze' | 'task_refund', change: number) => {
      const user = await t.db
        .updateTable('users')
        .set({ money: sql`money + ${change}` })
        .where('id', '=', merchant)
        .returning('money')
        .executeTakeFirstOrThrow();
      const after = Number(user.money);
      await sql`insert into ledger (user_id, asset, type, change, before, after, memo,
        related_type, related_id, operator_id, created_at) values (${merchant}, 'money', ${type},
        ${change}, ${after - change}, ${after}, 'old', 'video_task', ${taskId}, null,
        ${now})`.execute(t.db);
    };
    const systemRow = async (type: string, account: string, change: number) => {
      const row = await t.db
        .updateTable('system_accounts')
        .set({ balance: sql`balance + ${change}` })
        .where('account', '=', account as 'task_hold')
        .where('asset', '=', 'money')
        .returning('balance')
        .executeTakeFirstOrThrow();
      const after = Number(row.balance);
      await sql`insert into system_ledger (account, asset, type, change, before, after,
        related_type, related_id, created_at) values (${account}, 'money', ${type}, ${change},
        ${after - change}, ${after}, 'video_task', ${taskId}, ${now})`.execute(t.db);
    };
    await userRow('task_freeze', -30);
    await systemRow('task_freeze', 'task_hold', 30);
    await systemRow('task_settle', 'task_hold', -10);
    await systemRow('task_settle', 'revenue', 10);
    await userRow('task_refund', 10);
    await systemRow('task_refund', 'task_hold', -10);

    await underMigrationLock(engine, () => ledgerHolds.up(t.db, engine));
    const holds = await t.db
      .selectFrom('ledger_holds')
      .selectAll()
      .where('related_type', '=', 'video_task')
      .execute();
    expect(
      holds.map((h) => [Number(h.amount), Number(h.settled), Number(h.refunded), h.closed_at]),
    ).toEqual([[30, 10, 10, null]]);
    expect(await reconcile(t.db)).toEqual([]);
    // The held output settles through its backfilled hold, which then closes empty.
    const held = await t.db
      .selectFrom('video_outputs')
      .select(['id', 'hold_id'])
      .where('task_id', '=', taskId)
      .where('billing', '=', 'held')
      .executeTakeFirstOrThrow();
    const holdId = Number(held.hold_id);
    expect(holdId).toBe(Number(holds[0].id));
    await runMoney(ctx, async (trx) => {
      await settlePart(ctx, trx, holdId, `output:${held.id}`, 10);
      await closeHold(ctx, trx, holdId);
    });
    expect(await findHold(t.db, holdId)).toMatchObject({ settled: 20, held: 0, closed: true });
    expect(await reconcile(t.db)).toEqual([]);
  });
});
