import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Asset, Executor } from '../../platform/db/schema';
import type { Memo } from './memo';
import { BALANCE_COLUMN } from './repo';
import { lockUsers, post, postSystem, type Trx } from './service';

/**
 * Holds of paid work (docs/domain.md §9, docs/architecture.md "The path of paid work"): the
 * estimate of a unit of work moves from its owner's balance to the platform's `task_hold` account
 * (`openHold`, `extendHold`); each finished part of it goes on to `revenue` (`settlePart`), each
 * failed or cancelled part back to the owner (`refundPart`); when the unit finishes the hold is
 * closed (`closeHold`: what it still holds goes back). Every call runs in the caller's
 * transaction and writes its ledger rows through `post`/`postSystem` with the hold's related row
 * and id. A part (a key such as an output id, or 'all') moves once: its row in
 * `ledger_hold_moves` is unique per hold, so a second settle or refund of it does nothing and
 * answers `already`. The database refuses moving more than is held and closing a hold that still
 * holds something. An amount of 0 writes no ledger row.
 */

export interface Hold {
  id: number;
  userId: number;
  asset: Asset;
  relatedType: string;
  relatedId: number;
  /** Held in: the freeze and any extension. */
  amount: number;
  settled: number;
  refunded: number;
  /** What it still holds: amount − settled − refunded. */
  held: number;
  closed: boolean;
}

/** A part's move: `done` when this call moved it, else `already` (the part's earlier move). */
export type PartMove =
  { done: true; amount: number } | { done: false; already: 'settle' | 'refund'; amount: number };

export interface NewHold {
  userId: number;
  asset: Asset;
  relatedType: string;
  relatedId: number;
  amount: number;
  /** The owner's `task_freeze` row's memo. */
  memo: Memo;
}

/** A user's balance of an asset (what a hold may take). */
export async function balanceOf(db: Executor, userId: number, asset: Asset): Promise<number> {
  const column = BALANCE_COLUMN[asset];
  const row = await db
    .selectFrom('users')
    .select(sql<number>`${sql.ref(column)}`.as('balance'))
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/**
 * Holds `amount` of the user's asset for a related row: `task_freeze` −amount on the user,
 * +amount on `task_hold`. Refuses (`money.insufficient`) when the balance is short; callers check
 * first to refuse with their own message.
 */
export async function openHold(ctx: AppContext, trx: Trx, hold: NewHold): Promise<number> {
  checkAmount(hold.amount);
  await lockUsers(ctx, trx, [hold.userId]);
  const now = ctx.now();
  const row = await trx
    .insertInto('ledger_holds')
    .values({
      user_id: hold.userId,
      asset: hold.asset,
      related_type: hold.relatedType,
      related_id: hold.relatedId,
      amount: hold.amount,
      created_at: now,
      updated_at: now,
      closed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await freezeRows(trx, holdOf(id, hold), hold.amount, hold.memo, now);
  return id;
}

/** Holds `amount` more in an open hold (a unit that turned out dearer); throws when closed. */
export async function extendHold(
  ctx: AppContext,
  trx: Trx,
  holdId: number,
  amount: number,
  memo: Memo,
): Promise<void> {
  checkAmount(amount);
  const hold = await findHold(trx, holdId);
  await lockUsers(ctx, trx, [hold.userId]);
  if (amount === 0) return;
  const now = ctx.now();
  const updated = await trx
    .updateTable('ledger_holds')
    .set({ amount: sql`amount + ${amount}`, updated_at: now })
    .where('id', '=', holdId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new Error(`hold ${holdId} is closed`);
  await freezeRows(trx, hold, amount, memo, now);
}

/** Settles a part: `amount` of the hold goes to `revenue` (the user's balance does not move). */
export function settlePart(
  ctx: AppContext,
  trx: Trx,
  holdId: number,
  part: string,
  amount: number,
): Promise<PartMove> {
  return movePart(ctx, trx, holdId, part, amount, { kind: 'settle' });
}

/** Refunds a part: `amount` of the hold goes back to its owner (`task_refund`, with `memo`). */
export function refundPart(
  ctx: AppContext,
  trx: Trx,
  holdId: number,
  part: string,
  amount: number,
  memo: Memo,
): Promise<PartMove> {
  return movePart(ctx, trx, holdId, part, amount, { kind: 'refund', memo });
}

/**
 * Closes a hold whose unit finished. What it still holds goes back to the owner with
 * `refundMemo` (a digital-human video's unused seconds); without one it must hold nothing (a
 * programming error otherwise). Answers whether this call closed it (false: closed before) and
 * what it gave back.
 */
export async function closeHold(
  ctx: AppContext,
  trx: Trx,
  holdId: number,
  refundMemo?: Memo,
): Promise<{ closed: boolean; refunded: number }> {
  const hold = await findHold(trx, holdId);
  if (hold.closed) return { closed: false, refunded: 0 };
  let refunded = 0;
  if (hold.held > 0) {
    if (refundMemo === undefined) throw new Error(`hold ${holdId} still holds ${hold.held}`);
    const move = await refundPart(ctx, trx, holdId, 'close', hold.held, refundMemo);
    refunded = move.done ? move.amount : 0;
  }
  const now = ctx.now();
  const updated = await trx
    .updateTable('ledger_holds')
    .set({ closed_at: now, updated_at: now })
    .where('id', '=', holdId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  return { closed: Number(updated.numUpdatedRows) === 1, refunded };
}

/** The holds of a related row, oldest first. */
export async function holdsOf(
  db: Executor,
  relatedType: string,
  relatedId: number,
): Promise<Hold[]> {
  const rows = await db
    .selectFrom('ledger_holds')
    .selectAll()
    .where('related_type', '=', relatedType)
    .where('related_id', '=', relatedId)
    .orderBy('id')
    .execute();
  return rows.map(toHold);
}

/** One hold by id (throws when missing: a caller's id always comes from `openHold`). */
export async function findHold(db: Executor, holdId: number): Promise<Hold> {
  const row = await db
    .selectFrom('ledger_holds')
    .selectAll()
    .where('id', '=', holdId)
    .executeTakeFirst();
  if (!row) throw new Error(`hold ${holdId} not found`);
  return toHold(row);
}

async function movePart(
  ctx: AppContext,
  trx: Trx,
  holdId: number,
  part: string,
  amount: number,
  how: { kind: 'settle' } | { kind: 'refund'; memo: Memo },
): Promise<PartMove> {
  checkAmount(amount);
  const hold = await findHold(trx, holdId);
  if (how.kind === 'refund') await lockUsers(ctx, trx, [hold.userId]);
  const now = ctx.now();
  // The part's row first: of two moves of one part the second inserts nothing (on PostgreSQL it
  // waits for the first to commit, then finds the row).
  const inserted = await trx
    .insertInto('ledger_hold_moves')
    .values({ hold_id: holdId, part, kind: how.kind, amount, created_at: now })
    .onConflict((oc) => oc.columns(['hold_id', 'part']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const earlier = await trx
      .selectFrom('ledger_hold_moves')
      .select(['kind', 'amount'])
      .where('hold_id', '=', holdId)
      .where('part', '=', part)
      .executeTakeFirstOrThrow();
    return { done: false, already: earlier.kind, amount: Number(earlier.amount) };
  }
  const column = how.kind === 'settle' ? 'settled' : 'refunded';
  // Conditional: an open hold that holds at least `amount` (the table's checks back it).
  const updated = await trx
    .updateTable('ledger_holds')
    .set({ [column]: sql`${sql.ref(column)} + ${amount}`, updated_at: now })
    .where('id', '=', holdId)
    .where('closed_at', 'is', null)
    .where(sql<boolean>`settled + refunded + ${amount} <= amount`)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    throw new Error(`hold ${holdId} cannot ${how.kind} ${amount} (closed or holds less)`);
  }
  if (amount === 0) return { done: true, amount };
  const common = {
    asset: hold.asset,
    relatedType: hold.relatedType,
    relatedId: hold.relatedId,
    holdId,
    now,
  };
  if (how.kind === 'settle') {
    await postSystem(trx, {
      ...common,
      account: 'task_hold',
      type: 'task_settle',
      change: -amount,
    });
    await postSystem(trx, { ...common, account: 'revenue', type: 'task_settle', change: amount });
  } else {
    await post(trx, {
      ...common,
      userId: hold.userId,
      type: 'task_refund',
      change: amount,
      memo: how.memo,
    });
    await postSystem(trx, {
      ...common,
      account: 'task_hold',
      type: 'task_refund',
      change: -amount,
    });
  }
  return { done: true, amount };
}

async function freezeRows(
  trx: Trx,
  hold: Pick<Hold, 'id' | 'userId' | 'asset' | 'relatedType' | 'relatedId'>,
  amount: number,
  memo: Memo,
  now: number,
): Promise<void> {
  if (amount === 0) return;
  const common = {
    asset: hold.asset,
    type: 'task_freeze' as const,
    relatedType: hold.relatedType,
    relatedId: hold.relatedId,
    holdId: hold.id,
    now,
  };
  await post(trx, { ...common, userId: hold.userId, change: -amount, memo });
  await postSystem(trx, { ...common, account: 'task_hold', change: amount });
}

function holdOf(id: number, hold: NewHold) {
  return { id, ...hold };
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new Error(`a hold's amount must be a whole number ≥ 0, got ${amount}`);
  }
}

function toHold(row: {
  id: number;
  user_id: number;
  asset: Asset;
  related_type: string;
  related_id: number;
  amount: number;
  settled: number;
  refunded: number;
  closed_at: number | null;
}): Hold {
  const [amount, settled, refunded] = [row.amount, row.settled, row.refunded].map(Number);
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    asset: row.asset,
    relatedType: row.related_type,
    relatedId: Number(row.related_id),
    amount,
    settled,
    refunded,
    held: amount - settled - refunded,
    closed: row.closed_at !== null,
  };
}
