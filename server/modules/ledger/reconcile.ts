import { sql } from 'kysely';
import { rowCount } from '../../platform/db/conditions';
import { ASSETS, type Executor } from '../../platform/db/schema';
import { BALANCE_COLUMN } from './repo';

/**
 * Checks the money invariants (docs/architecture.md rule 6) and returns what is wrong (empty: all
 * hold): per asset, users' balances and the platform's accounts sum to zero; every balance equals
 * the sum of its ledger; every ledger row's after = before + change; no balance is negative; every
 * transfer has its ledger rows; the cards account holds exactly the face value of the cards not yet
 * redeemed or deleted; and the holds of paid work agree with their moves and ledger rows
 * (`reconcileHolds`).
 */
export async function reconcile(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  for (const asset of ASSETS) {
    const column = BALANCE_COLUMN[asset];
    const users = await db
      .selectFrom('users')
      .select(sql<number>`coalesce(sum(${sql.ref(column)}), 0)`.as('total'))
      .executeTakeFirstOrThrow();
    const system = await db
      .selectFrom('system_accounts')
      .select(sql<number>`coalesce(sum(balance), 0)`.as('total'))
      .where('asset', '=', asset)
      .executeTakeFirstOrThrow();
    const sum = Number(users.total) + Number(system.total);
    if (sum !== 0) problems.push(`${asset}: users + platform accounts = ${sum}, not 0`);

    const mismatched = await db
      .selectFrom('users')
      .leftJoin(
        db
          .selectFrom('ledger')
          .select(['user_id', sql<number>`sum(change)`.as('total')])
          .where('asset', '=', asset)
          .groupBy('user_id')
          .as('l'),
        'l.user_id',
        'users.id',
      )
      .select(['users.id', sql<number>`${sql.ref(`users.${column}`)}`.as('balance'), 'l.total'])
      .where(sql<boolean>`${sql.ref(`users.${column}`)} <> coalesce(l.total, 0)`)
      .limit(rowCount(10))
      .execute();
    for (const row of mismatched) {
      problems.push(`${asset}: user ${row.id} balance ${row.balance} ≠ ledger ${row.total ?? 0}`);
    }
    const negative = await db
      .selectFrom('users')
      .select('id')
      .where(sql<boolean>`${sql.ref(column)} < 0`)
      .limit(rowCount(10))
      .execute();
    for (const row of negative) problems.push(`${asset}: user ${row.id} is negative`);

    const accounts = await db
      .selectFrom('system_accounts')
      .leftJoin(
        db
          .selectFrom('system_ledger')
          .select(['account', sql<number>`sum(change)`.as('total')])
          .where('asset', '=', asset)
          .groupBy('account')
          .as('l'),
        'l.account',
        'system_accounts.account',
      )
      .select(['system_accounts.account', 'system_accounts.balance', 'l.total'])
      .where('system_accounts.asset', '=', asset)
      .execute();
    for (const row of accounts) {
      if (Number(row.balance) !== Number(row.total ?? 0)) {
        problems.push(`${asset}: account ${row.account} ${row.balance} ≠ ledger ${row.total ?? 0}`);
      }
    }
  }
  const broken = await db
    .selectFrom('ledger')
    .select('id')
    .where(sql<boolean>`"after" <> "before" + change`)
    .limit(rowCount(10))
    .execute();
  for (const row of broken) problems.push(`ledger row ${row.id}: after ≠ before + change`);

  // Every transfer has its two ledger rows (one when a side is the platform: an admin's).
  const unmatched = await db
    .selectFrom('transfers as t')
    .innerJoin('users as f', 'f.id', 't.from_user_id')
    .innerJoin('users as r', 'r.id', 't.to_user_id')
    .leftJoin(
      db
        .selectFrom('ledger')
        .select(['related_id', sql<number>`count(*)`.as('n')])
        .where('related_type', '=', 'transfer')
        .groupBy('related_id')
        .as('l'),
      'l.related_id',
      't.id',
    )
    .select('t.id')
    .where(
      sql<boolean>`coalesce(l.n, 0) <> case when f.user_type = 0 or r.user_type = 0 then 1 else 2 end`,
    )
    .limit(rowCount(10))
    .execute();
  for (const row of unmatched) problems.push(`transfer ${row.id}: ledger rows do not match`);

  const held = await db
    .selectFrom('recharge_cards')
    .select(['asset', sql<number>`coalesce(sum(face_value), 0)`.as('total')])
    .where('status', 'in', [0, 2])
    .where('deleted_at', 'is', null)
    .groupBy('asset')
    .execute();
  const cardAccounts = await db
    .selectFrom('system_accounts')
    .select(['asset', 'balance'])
    .where('account', '=', 'cards')
    .execute();
  for (const asset of ASSETS) {
    const expected = Number(held.find((r) => r.asset === asset)?.total ?? 0);
    const actual = Number(cardAccounts.find((r) => r.asset === asset)?.balance ?? 0);
    if (expected !== actual) {
      problems.push(`${asset}: cards account ${actual} ≠ face value of live cards ${expected}`);
    }
  }
  problems.push(...(await reconcileHolds(db)));
  return problems;
}

/**
 * The holds of paid work (docs/domain.md §9), whatever feature opened them: per hold, held in =
 * settled + refunded + still held (still held ≥ 0), its settled and refunded parts sum to its
 * totals, and its ledger rows agree (the owner's `task_freeze` rows = held in, `task_refund` rows
 * = refunded, `revenue` settle rows = settled, its `task_hold` rows = still held, all of its
 * owner and asset); a closed hold holds nothing; per asset the `task_hold` account = the sum still
 * held, and every `task_hold` row belongs to a hold.
 */
async function reconcileHolds(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const sumOf = (expression: string) => sql<number>`coalesce(sum(${sql.raw(expression)}), 0)`;
  const holds = await db
    .selectFrom('ledger_holds as h')
    .leftJoin(
      db
        .selectFrom('ledger_hold_moves')
        .select([
          'hold_id',
          sumOf("case when kind = 'settle' then amount else 0 end").as('settled'),
          sumOf("case when kind = 'refund' then amount else 0 end").as('refunded'),
        ])
        .groupBy('hold_id')
        .as('m'),
      'm.hold_id',
      'h.id',
    )
    .leftJoin(
      db
        .selectFrom('ledger')
        .select([
          'hold_id',
          sumOf("case when type = 'task_freeze' then -change else 0 end").as('frozen'),
          sumOf("case when type = 'task_refund' then change else 0 end").as('refunded'),
          sumOf("case when type not in ('task_freeze', 'task_refund') then 1 else 0 end").as(
            'other',
          ),
          sql<number>`min(user_id)`.as('user_min'),
          sql<number>`max(user_id)`.as('user_max'),
          sql<string>`min(asset)`.as('asset_min'),
          sql<string>`max(asset)`.as('asset_max'),
        ])
        .where('hold_id', 'is not', null)
        .groupBy('hold_id')
        .as('l'),
      'l.hold_id',
      'h.id',
    )
    .leftJoin(
      db
        .selectFrom('system_ledger')
        .select([
          'hold_id',
          sumOf("case when account = 'task_hold' then change else 0 end").as('held'),
          sumOf("case when account = 'revenue' and type = 'task_settle' then change else 0 end").as(
            'settled',
          ),
          sumOf("case when account not in ('task_hold', 'revenue') then 1 else 0 end").as('other'),
          sql<string>`min(asset)`.as('asset_min'),
          sql<string>`max(asset)`.as('asset_max'),
        ])
        .where('hold_id', 'is not', null)
        .groupBy('hold_id')
        .as('s'),
      's.hold_id',
      'h.id',
    )
    .select([
      'h.id',
      'h.user_id',
      'h.asset',
      'h.related_type',
      'h.related_id',
      'h.amount',
      'h.settled',
      'h.refunded',
      'h.closed_at',
      'm.settled as move_settled',
      'm.refunded as move_refunded',
      'l.frozen as ledger_frozen',
      'l.refunded as ledger_refunded',
      'l.other as ledger_other',
      'l.user_min',
      'l.user_max',
      'l.asset_min as ledger_asset_min',
      'l.asset_max as ledger_asset_max',
      's.held as ledger_held',
      's.settled as ledger_settled',
      's.other as system_other',
      's.asset_min as system_asset_min',
      's.asset_max as system_asset_max',
    ])
    .orderBy('h.id')
    .execute();
  const stillHeld = new Map<string, number>();
  for (const hold of holds) {
    const name = `hold ${hold.id} (${hold.related_type} ${hold.related_id}, ${hold.asset})`;
    const [amount, settled, refunded] = [hold.amount, hold.settled, hold.refunded].map(Number);
    const held = amount - settled - refunded;
    stillHeld.set(hold.asset, (stillHeld.get(hold.asset) ?? 0) + held);
    if (held < 0 || settled < 0 || refunded < 0) {
      problems.push(
        `${name}: held ${amount} ≠ settled ${settled} + refunded ${refunded} + ${held}`,
      );
    }
    if (hold.closed_at !== null && held !== 0) problems.push(`${name}: closed but holds ${held}`);
    const moves = [hold.move_settled, hold.move_refunded].map((v) => Number(v ?? 0));
    if (moves[0] !== settled || moves[1] !== refunded) {
      problems.push(`${name}: parts settle/refund ${moves.join('/')} ≠ ${settled}/${refunded}`);
    }
    const ledger = [
      hold.ledger_frozen,
      hold.ledger_settled,
      hold.ledger_refunded,
      hold.ledger_held,
    ].map((v) => Number(v ?? 0));
    const expected = [amount, settled, refunded, held];
    if (ledger.some((v, i) => v !== expected[i])) {
      problems.push(
        `${name}: ledger freeze/settle/refund/held ${ledger.join('/')} ≠ ${expected.join('/')}`,
      );
    }
    const strangers =
      Number(hold.ledger_other ?? 0) > 0 ||
      Number(hold.system_other ?? 0) > 0 ||
      (hold.user_min !== null && Number(hold.user_min) !== Number(hold.user_id)) ||
      (hold.user_max !== null && Number(hold.user_max) !== Number(hold.user_id)) ||
      [
        hold.ledger_asset_min,
        hold.ledger_asset_max,
        hold.system_asset_min,
        hold.system_asset_max,
      ].some((a) => a !== null && a !== hold.asset);
    if (strangers) problems.push(`${name}: ledger rows of another user, asset or kind`);
  }
  const accounts = await db
    .selectFrom('system_accounts')
    .select(['asset', 'balance'])
    .where('account', '=', 'task_hold')
    .execute();
  for (const asset of ASSETS) {
    const balance = Number(accounts.find((a) => a.asset === asset)?.balance ?? 0);
    const expected = stillHeld.get(asset) ?? 0;
    if (balance !== expected) {
      problems.push(`${asset}: task_hold ${balance} ≠ still held by open holds ${expected}`);
    }
  }
  const orphans = await db
    .selectFrom('system_ledger')
    .select('id')
    .where('account', '=', 'task_hold')
    .where('hold_id', 'is', null)
    .limit(rowCount(10))
    .execute();
  for (const row of orphans) problems.push(`task_hold row ${row.id} belongs to no hold`);
  return problems;
}
