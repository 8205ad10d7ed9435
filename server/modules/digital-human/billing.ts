import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Asset } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import {
  balanceOf as ledgerBalanceOf,
  closeHold,
  extendHold,
  holdsOf,
  lockUsers,
  openHold,
  refundPart,
  settlePart,
  type Trx,
} from '../ledger';
import { notifyDhFinished } from '../notifications';

/**
 * The billing of digital-human work (docs/domain.md §9, §10), shared by image clones
 * (`image_clone` units), voice clones (`digital_voice`) and videos (`digital_man` seconds),
 * through the ledger's holds: one hold per row, each movement in the transaction of the status
 * change that causes it:
 * - freeze (submit): a hold of the estimate (`openHold`: user `task_freeze`, `task_hold` +); the
 *   row's `cost` grows;
 * - settle (done): a video that ran longer holds the extra (up to the balance, `extendHold`); the
 *   part `all` (units used) goes to `revenue`, and closing the hold gives back what was not used;
 * - refund (failed): the part `all` (everything held) goes back to the owner; the hold closes.
 * A row moves from `billing = 'held'` exactly once (conditional update) and its part once (the
 * ledger's unique part), so a crash, a retried job or a repeated vendor callback moves units
 * once. The row's `cost`, `settled` and `refunded` are what its reply shows; the reconciliation
 * reads the holds. A zero amount writes no ledger row.
 */

export type DhTable = 'dh_image_clones' | 'dh_voice_clones' | 'dh_videos';

/** Each table's ledger asset and the `related_type` of its holds and ledger rows. */
export const DH_BILLING: Record<DhTable, { asset: Asset; related: string }> = {
  dh_image_clones: { asset: 'image_clone', related: 'dh_image_clone' },
  dh_voice_clones: { asset: 'digital_voice', related: 'dh_voice_clone' },
  dh_videos: { asset: 'digital_man', related: 'dh_video' },
};

export interface Work {
  table: DhTable;
  id: number;
  ownerId: number;
  /** The row's name (ledger memos show it). */
  name: string;
}

/** The caller's balance of an asset. */
export function balanceOf(trx: Trx | AppContext['db'], userId: number, asset: Asset) {
  return ledgerBalanceOf(trx, userId, asset);
}

/**
 * Freezes `amount` units for a row just inserted (in the caller's transaction). Refuses
 * (`digitalHuman.insufficient.<asset>`, with the amount needed and the balance) when the balance is short.
 */
export async function freezeWork(
  ctx: AppContext,
  trx: Trx,
  work: Work,
  amount: number,
): Promise<void> {
  const { asset, related } = DH_BILLING[work.table];
  await lockUsers(ctx, trx, [work.ownerId]);
  const balance = await balanceOf(trx, work.ownerId, asset);
  if (balance < amount) {
    throw refuse(`digitalHuman.insufficient.${asset as Exclude<Asset, 'money'>}`, {
      amount: String(amount),
      balance: String(balance),
    });
  }
  await openHold(ctx, trx, {
    userId: work.ownerId,
    asset,
    relatedType: related,
    relatedId: work.id,
    amount,
    memo: { id: 'memo.dhFreeze', params: { name: work.name } },
  });
  if (amount === 0) return;
  await trx
    .updateTable(work.table)
    .set({ cost: sql`cost + ${amount}` })
    .where('id', '=', work.id)
    .execute();
}

/** The row's hold (the one its submit opened). */
async function holdOfRow(trx: Trx, work: Work) {
  const holds = await holdsOf(trx, DH_BILLING[work.table].related, work.id);
  const hold = holds.at(-1);
  if (!hold) throw new Error(`${work.table} ${work.id} has no hold`);
  return hold;
}

/**
 * Settles a held row that is done: `used` units go to revenue. When `used` is less than what was
 * frozen the rest is given back; when more, the extra is held (up to the balance) and settled
 * too. Call after the conditional status update that moved the row from `billing = 'held'` to
 * `'settled'` succeeded (see {@link finishHeld}). Answers the units settled and refunded.
 */
async function settleHeld(
  ctx: AppContext,
  trx: Trx,
  work: Work,
  used: number,
): Promise<{ settled: number; refunded: number }> {
  const { asset } = DH_BILLING[work.table];
  const hold = await holdOfRow(trx, work);
  let frozen = hold.held;
  if (used > frozen) {
    const extra = Math.min(used - frozen, await balanceOf(trx, work.ownerId, asset));
    if (extra > 0) {
      await extendHold(ctx, trx, hold.id, extra, {
        id: 'memo.dhExtra',
        params: { name: work.name },
      });
      frozen += extra;
    }
  }
  const settled = Math.min(used, frozen);
  await settlePart(ctx, trx, hold.id, 'all', settled);
  const closed = await closeHold(ctx, trx, hold.id, {
    id: 'memo.dhUnused',
    params: { name: work.name },
  });
  await trx
    .updateTable(work.table)
    .set({
      cost: hold.amount + (frozen - hold.held),
      settled: sql`settled + ${settled}`,
      refunded: sql`refunded + ${closed.refunded}`,
    })
    .where('id', '=', work.id)
    .execute();
  return { settled, refunded: closed.refunded };
}

export interface Finish {
  table: DhTable;
  id: number;
  /** The statuses the row may leave (e.g. ['queued', 'training']). */
  from: readonly string[];
  /** Columns to set with the new status (files, duration, reason…); `billing` is set here. */
  set: Record<string, unknown> & { status: string };
  /**
   * `settle`: units used (a clone: its cost; a video: its real seconds × unit cost);
   * `refund`: give everything frozen back (a failure).
   */
  bill: { settle: number } | 'refund';
}

/**
 * Moves a held row to its final status and settles or refunds it, in one transaction of the
 * caller's: a conditional update (`id`, status in `from`, `billing = 'held'`). False — nothing
 * moved — when the row is gone, no longer in `from`, or already settled or refunded.
 */
export async function finishHeld(ctx: AppContext, trx: Trx, finish: Finish): Promise<boolean> {
  const row = await trx
    .selectFrom(finish.table)
    .select(['owner_id', 'name'])
    .where('id', '=', finish.id)
    .executeTakeFirst();
  if (!row || row.owner_id === null) return false;
  const ownerId = Number(row.owner_id);
  await lockUsers(ctx, trx, [ownerId]);
  const now = ctx.now();
  const updated = await trx
    .updateTable(finish.table)
    .set({
      ...finish.set,
      billing: finish.bill === 'refund' ? 'refunded' : 'settled',
      updated_at: now,
      finished_at: now,
    })
    .where('id', '=', finish.id)
    .where('status', 'in', finish.from)
    .where('billing', '=', 'held')
    .returning('id')
    .executeTakeFirst();
  if (!updated) return false;
  await notifyDhFinished(trx, finish.table, finish.id, finish.set.status); // docs/domain.md §18
  const work: Work = { table: finish.table, id: finish.id, ownerId, name: row.name };
  if (finish.bill === 'refund') {
    const hold = await holdOfRow(trx, work);
    const memo = { id: 'memo.dhRefund' as const, params: { name: work.name } };
    const moved = await refundPart(ctx, trx, hold.id, 'all', hold.held, memo);
    await closeHold(ctx, trx, hold.id);
    if (moved.done && moved.amount > 0) {
      await trx
        .updateTable(finish.table)
        .set({ refunded: sql`refunded + ${moved.amount}` })
        .where('id', '=', finish.id)
        .execute();
    }
  } else {
    await settleHeld(ctx, trx, work, finish.bill.settle);
  }
  return true;
}
