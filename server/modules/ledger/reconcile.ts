import { sql } from 'kysely';
import { rowCount } from '../../platform/db/conditions';
import { ASSETS, type Asset, type Executor } from '../../platform/db/schema';
import { BALANCE_COLUMN } from './repo';

/**
 * Checks the money invariants (ARCHITECTURE.md rule 6) and returns what is wrong (empty: all
 * hold): per asset, users' balances and the platform's accounts sum to zero; every balance equals
 * the sum of its ledger; every ledger row's after = before + change; no balance is negative; every
 * transfer has its ledger rows; the cards account holds exactly the face value of the cards not yet
 * redeemed or deleted; the task-hold account holds exactly the price of the video outputs still
 * held, and per video task frozen = settled + refunded + held (its ledger rows agree), and a
 * finished task holds nothing; per digital-human asset the task-hold account holds exactly the
 * cost of the held rows of its table, and every digital-human row agrees with its ledger rows
 * (cost = settled + refunded once it no longer holds).
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
  problems.push(...(await reconcileTasks(db)));
  problems.push(...(await reconcileDigitalHuman(db)));
  return problems;
}

/** The video tasks' money (DOMAIN.md §12): see `reconcile`. */
async function reconcileTasks(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const held = await db
    .selectFrom('video_outputs')
    .select(sql<number>`coalesce(sum(price), 0)`.as('total'))
    .where('billing', '=', 'held')
    .executeTakeFirstOrThrow();
  const hold = await db
    .selectFrom('system_accounts')
    .select('balance')
    .where('account', '=', 'task_hold')
    .where('asset', '=', 'money')
    .executeTakeFirst();
  if (Number(hold?.balance ?? 0) !== Number(held.total)) {
    problems.push(`money: task_hold ${hold?.balance ?? 0} ≠ price of held outputs ${held.total}`);
  }
  const tasks = await db
    .selectFrom('video_tasks as t')
    .leftJoin(
      db
        .selectFrom('video_outputs')
        .select(['task_id', sql<number>`sum(price)`.as('held')])
        .where('billing', '=', 'held')
        .groupBy('task_id')
        .as('h'),
      'h.task_id',
      't.id',
    )
    .leftJoin(
      db
        .selectFrom('ledger')
        .select([
          'related_id',
          sql<number>`sum(case when type = 'task_freeze' then -change else 0 end)`.as('frozen'),
          sql<number>`sum(case when type = 'task_refund' then change else 0 end)`.as('refunded'),
        ])
        .where('related_type', '=', 'video_task')
        .groupBy('related_id')
        .as('l'),
      'l.related_id',
      't.id',
    )
    .leftJoin(
      db
        .selectFrom('system_ledger')
        .select(['related_id', sql<number>`sum(change)`.as('settled')])
        .where('related_type', '=', 'video_task')
        .where('account', '=', 'revenue')
        .where('type', '=', 'task_settle')
        .groupBy('related_id')
        .as('s'),
      's.related_id',
      't.id',
    )
    .select(['t.id', 't.status', 't.frozen', 't.settled', 't.refunded', 'h.held'])
    .select([
      'l.frozen as ledger_frozen',
      'l.refunded as ledger_refunded',
      's.settled as ledger_settled',
    ])
    .execute();
  const finished = ['done', 'partly_done', 'failed', 'cancelled'];
  for (const task of tasks) {
    const [frozen, settled, refunded] = [task.frozen, task.settled, task.refunded].map(Number);
    const heldNow = Number(task.held ?? 0);
    if (frozen !== settled + refunded + heldNow) {
      problems.push(
        `video task ${task.id}: frozen ${frozen} ≠ settled ${settled} + refunded ${refunded} + held ${heldNow}`,
      );
    }
    if (finished.includes(task.status) && heldNow !== 0) {
      problems.push(`video task ${task.id}: ${task.status} but holds ${heldNow}`);
    }
    const ledger = [task.ledger_frozen, task.ledger_settled, task.ledger_refunded].map((v) =>
      Number(v ?? 0),
    );
    if (ledger[0] !== frozen || ledger[1] !== settled || ledger[2] !== refunded) {
      problems.push(
        `video task ${task.id}: ledger freeze/settle/refund ${ledger.join('/')} ≠ ${frozen}/${settled}/${refunded}`,
      );
    }
  }
  return problems;
}

/**
 * The digital human's units (DOMAIN.md §12, server/modules/digital-human/billing.ts): per table
 * (its asset), `task_hold` = Σ cost of its held rows; per row, its ledger rows agree with its
 * columns (frozen = cost, settled to revenue = settled, refunded = refunded) and a row that no
 * longer holds has cost = settled + refunded (a held one has settled and refunded nothing).
 */
const DH_BILLING = {
  dh_image_clones: { asset: 'image_clone', related: 'dh_image_clone' },
  dh_voice_clones: { asset: 'digital_voice', related: 'dh_voice_clone' },
  dh_videos: { asset: 'digital_man', related: 'dh_video' },
} as const satisfies Record<string, { asset: Asset; related: string }>;
type DhTable = keyof typeof DH_BILLING;

async function reconcileDigitalHuman(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  for (const table of Object.keys(DH_BILLING) as DhTable[]) {
    const { asset, related } = DH_BILLING[table];
    const held = await db
      .selectFrom(table)
      .select(sql<number>`coalesce(sum(cost), 0)`.as('total'))
      .where('billing', '=', 'held')
      .executeTakeFirstOrThrow();
    const hold = await db
      .selectFrom('system_accounts')
      .select('balance')
      .where('account', '=', 'task_hold')
      .where('asset', '=', asset)
      .executeTakeFirst();
    if (Number(hold?.balance ?? 0) !== Number(held.total)) {
      problems.push(
        `${asset}: task_hold ${hold?.balance ?? 0} ≠ cost of held ${table} ${held.total}`,
      );
    }
    const rows = await db
      .selectFrom(`${table} as w` as 'dh_videos as w')
      .leftJoin(
        db
          .selectFrom('ledger')
          .select([
            'related_id',
            sql<number>`sum(case when type = 'task_freeze' then -change else 0 end)`.as('frozen'),
            sql<number>`sum(case when type = 'task_refund' then change else 0 end)`.as('refunded'),
          ])
          .where('related_type', '=', related)
          .groupBy('related_id')
          .as('l'),
        'l.related_id',
        'w.id',
      )
      .leftJoin(
        db
          .selectFrom('system_ledger')
          .select(['related_id', sql<number>`sum(change)`.as('settled')])
          .where('related_type', '=', related)
          .where('account', '=', 'revenue')
          .where('type', '=', 'task_settle')
          .groupBy('related_id')
          .as('s'),
        's.related_id',
        'w.id',
      )
      .select(['w.id', 'w.billing', 'w.cost', 'w.settled', 'w.refunded'])
      .select([
        'l.frozen as ledger_frozen',
        'l.refunded as ledger_refunded',
        's.settled as ledger_settled',
      ])
      .execute();
    for (const row of rows) {
      const [cost, settled, refunded] = [row.cost, row.settled, row.refunded].map(Number);
      const name = `${related} ${row.id}`;
      if (row.billing === 'held' ? settled + refunded !== 0 : cost !== settled + refunded) {
        problems.push(
          `${name} (${row.billing}): cost ${cost}, settled ${settled}, refunded ${refunded}`,
        );
      }
      const ledger = [row.ledger_frozen, row.ledger_settled, row.ledger_refunded].map((v) =>
        Number(v ?? 0),
      );
      if (ledger[0] !== cost || ledger[1] !== settled || ledger[2] !== refunded) {
        problems.push(
          `${name}: ledger freeze/settle/refund ${ledger.join('/')} ≠ ${cost}/${settled}/${refunded}`,
        );
      }
    }
  }
  return problems;
}
