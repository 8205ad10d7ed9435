import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Asset } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { lockUsers, post, postSystem, type Trx } from '../ledger';
import { notifyDhFinished } from '../notifications';

/**
 * The billing of digital-human work (DOMAIN.md §12), shared by image clones (`image_clone`
 * units), voice clones (`digital_voice`) and videos (`digital_man` seconds). Every movement goes
 * through the platform's `task_hold` account, in the transaction of the status change that causes
 * it:
 * - freeze (submit): user `task_freeze` −units, `task_hold` +units; the row's `cost` grows;
 * - settle (done): `task_hold` −, `revenue` + (system rows typed `task_settle`), the row's
 *   `settled` grows; what was frozen and not used is given back (refund);
 * - refund (failed): user `task_refund` +units, `task_hold` −; the row's `refunded` grows.
 * A row moves from `billing = 'held'` exactly once (conditional update), so a crash, a retried
 * job or a repeated vendor callback settles or refunds it once. Per row: cost = settled +
 * refunded while held is 0 (reconcile checks it). A zero amount writes no ledger row.
 */

export type DhTable = 'dh_image_clones' | 'dh_voice_clones' | 'dh_videos';

/** Each table's ledger asset and the `related_type` of its ledger rows. */
export const DH_BILLING: Record<DhTable, { asset: Asset; related: string }> = {
  dh_image_clones: { asset: 'image_clone', related: 'dh_image_clone' },
  dh_voice_clones: { asset: 'digital_voice', related: 'dh_voice_clone' },
  dh_videos: { asset: 'digital_man', related: 'dh_video' },
};

const BALANCE = {
  image_clone: 'image_clone_count',
  digital_voice: 'voice_clone_count',
  digital_man: 'digital_man_seconds',
  money: 'money',
} as const satisfies Record<Asset, string>;

export interface Work {
  table: DhTable;
  id: number;
  ownerId: number;
  /** The row's name (ledger memos show it). */
  name: string;
}

/** The caller's balance of an asset. */
export async function balanceOf(trx: Trx | AppContext['db'], userId: number, asset: Asset) {
  const column = BALANCE[asset];
  const row = await trx
    .selectFrom('users')
    .select(sql<number>`${sql.ref(column)}`.as('balance'))
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
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
  if (amount === 0) return;
  const now = ctx.now();
  await post(trx, {
    userId: work.ownerId,
    asset,
    type: 'task_freeze',
    change: -amount,
    memo: { id: 'memo.dhFreeze', params: { name: work.name } },
    relatedType: related,
    relatedId: work.id,
    now,
  });
  await postSystem(trx, {
    account: 'task_hold',
    asset,
    type: 'task_freeze',
    change: amount,
    relatedType: related,
    relatedId: work.id,
    now,
  });
  await trx
    .updateTable(work.table)
    .set({ cost: sql`cost + ${amount}` })
    .where('id', '=', work.id)
    .execute();
}

/**
 * Settles a held row that is done: `used` units go to revenue. When `used` is less than what was
 * frozen the rest is given back; when more, the extra is frozen (up to the balance) and settled
 * too. Call after the conditional status update that moved the row from `billing = 'held'` to
 * `'settled'` succeeded (see {@link finishHeld}). Answers the units settled and refunded.
 */
async function settleHeld(
  ctx: AppContext,
  trx: Trx,
  work: Work,
  cost: number,
  used: number,
): Promise<{ settled: number; refunded: number }> {
  const { asset, related } = DH_BILLING[work.table];
  const now = ctx.now();
  let frozen = cost;
  if (used > cost) {
    const extra = Math.min(used - cost, await balanceOf(trx, work.ownerId, asset));
    if (extra > 0) {
      await post(trx, {
        userId: work.ownerId,
        asset,
        type: 'task_freeze',
        change: -extra,
        memo: { id: 'memo.dhExtra', params: { name: work.name } },
        relatedType: related,
        relatedId: work.id,
        now,
      });
      await postSystem(trx, {
        account: 'task_hold',
        asset,
        type: 'task_freeze',
        change: extra,
        relatedType: related,
        relatedId: work.id,
        now,
      });
      frozen += extra;
    }
  }
  const settled = Math.min(used, frozen);
  const refunded = frozen - settled;
  if (settled > 0) {
    const common = {
      asset,
      type: 'task_settle' as const,
      relatedType: related,
      relatedId: work.id,
      now,
    };
    await postSystem(trx, { ...common, account: 'task_hold', change: -settled });
    await postSystem(trx, { ...common, account: 'revenue', change: settled });
  }
  if (refunded > 0) await refundUnits(trx, work, refunded, 'memo.dhUnused', now);
  await trx
    .updateTable(work.table)
    .set({
      cost: frozen,
      settled: sql`settled + ${settled}`,
      refunded: sql`refunded + ${refunded}`,
    })
    .where('id', '=', work.id)
    .execute();
  return { settled, refunded };
}

async function refundUnits(
  trx: Trx,
  work: Work,
  amount: number,
  memoId: 'memo.dhRefund' | 'memo.dhUnused',
  now: number,
) {
  const { asset, related } = DH_BILLING[work.table];
  await post(trx, {
    userId: work.ownerId,
    asset,
    type: 'task_refund',
    change: amount,
    memo: { id: memoId, params: { name: work.name } },
    relatedType: related,
    relatedId: work.id,
    now,
  });
  await postSystem(trx, {
    account: 'task_hold',
    asset,
    type: 'task_refund',
    change: -amount,
    relatedType: related,
    relatedId: work.id,
    now,
  });
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
    .select(['owner_id', 'name', 'cost'])
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
    .returning('cost')
    .executeTakeFirst();
  if (!updated) return false;
  await notifyDhFinished(trx, finish.table, finish.id, finish.set.status); // docs/domain.md §18
  const work: Work = { table: finish.table, id: finish.id, ownerId, name: row.name };
  const cost = Number(updated.cost);
  if (finish.bill === 'refund') {
    if (cost > 0) {
      await refundUnits(trx, work, cost, 'memo.dhRefund', now);
      await trx
        .updateTable(finish.table)
        .set({ refunded: sql`refunded + ${cost}` })
        .where('id', '=', finish.id)
        .execute();
    }
  } else {
    await settleHeld(ctx, trx, work, cost, finish.bill.settle);
  }
  return true;
}
