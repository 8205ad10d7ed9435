import { sql } from 'kysely';
import { formatUnits } from '../../../src/api/contract/money';
import type { OutputStatus, TaskStatus } from '../../../src/api/contract/video-tasks';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import {
  balanceOf,
  closeHold,
  holdsOf,
  lockUsers,
  openHold,
  refundPart,
  runMoney,
  settlePart,
  type Trx,
} from '../ledger';
import { notifyVideoTaskStatus } from '../notifications';
import { addWork } from '../resources';
import { settleNarration } from './narration';

/**
 * The money of video tasks (docs/domain.md §9) through the ledger's holds, each movement in the
 * transaction of the status change that causes it:
 * - freeze (add, retry): a hold of the outputs' price for the task (`openHold`: user
 *   `task_freeze`, `task_hold` +); each output keeps the id of the hold that paid it;
 * - settle (an output done): its part `output:<id>` of that hold goes to `revenue`;
 * - refund (an output failed or cancelled): its part goes back to the owner (`task_refund`);
 * - close: once the task is finished its holds (each now empty) are closed; a narration's
 *   `digital_man` hold is settled or returned first (narration.ts).
 * Outputs move with conditional updates (`status … AND billing = 'held'`) and each part moves
 * once per hold (the ledger's unique part), so whatever runs twice moves money once. The task's
 * `frozen`, `settled` and `refunded` columns are what its list shows; the reconciliation reads the
 * holds. A zero price writes no ledger row.
 */

export const RELATED = 'video_task';
/** A CSV batch's one hold for all its tasks (batch.ts): closed when its last output moved. */
export const BATCH_RELATED = 'video_task_batch';

const partOf = (outputId: number) => `output:${outputId}`;

/**
 * Freezes `amount` cents of the owner's money for the task's `outputIds` (one hold, its id on each
 * output); refuses with the amount needed.
 */
export async function freeze(
  ctx: AppContext,
  trx: Trx,
  task: { id: number; ownerId: number; name: string },
  outputIds: readonly number[],
  amount: number,
): Promise<void> {
  await lockUsers(ctx, trx, [task.ownerId]);
  const balance = await balanceOf(trx, task.ownerId, 'money');
  if (balance < amount) {
    throw refuse('videoTask.insufficient', {
      amount: formatUnits('money', amount),
      balance: formatUnits('money', balance),
    });
  }
  const holdId = await openHold(ctx, trx, {
    userId: task.ownerId,
    asset: 'money',
    relatedType: RELATED,
    relatedId: task.id,
    amount,
    memo: { id: 'memo.taskFreeze', params: { name: task.name, count: String(outputIds.length) } },
  });
  await trx
    .updateTable('video_outputs')
    .set({ hold_id: holdId })
    .where('id', 'in', [...outputIds])
    .execute();
  if (amount === 0) return;
  await trx
    .updateTable('video_tasks')
    .set({ frozen: sql`frozen + ${amount}` })
    .where('id', '=', task.id)
    .execute();
}

/** What a finished output's file is. */
export interface OutputFile {
  storageKey: string;
  posterKey: string | null;
  durationMs: number;
  size: number;
  /** The file's CRC-32, computed when it was stored (absent: not known). */
  crc32?: number;
  width: number;
  height: number;
}

/**
 * Marks a rendering output done with its file and settles its price, in one transaction. False
 * (nothing changed) when the output is no longer rendering and held: another run finished it, or
 * it was refunded.
 */
export function settleOutput(
  ctx: AppContext,
  outputId: number,
  file: OutputFile,
): Promise<boolean> {
  return runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const updated = await trx
      .updateTable('video_outputs')
      .set({
        status: 'done',
        billing: 'settled',
        progress: 100,
        storage_key: file.storageKey,
        poster_key: file.posterKey,
        duration_ms: file.durationMs,
        size: file.size,
        crc32: file.crc32 ?? null,
        width: file.width,
        height: file.height,
        reason_id: null,
        reason_params: null,
        reason_detail: null,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', outputId)
      .where('status', '=', 'rendering')
      .where('billing', '=', 'held')
      .returning(['task_id', 'price', 'hold_id', 'idx'])
      .executeTakeFirst();
    if (!updated) return false;
    const taskId = Number(updated.task_id);
    const price = Number(updated.price);
    const task = await trx
      .selectFrom('video_tasks')
      .select(['owner_id', 'name'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    // The output enters its owner's library as a work (docs/domain.md §8 "Works").
    await addWork(trx, {
      ownerId: Number(task.owner_id),
      source: 'video_output',
      sourceId: outputId,
      ref: { kind: RELATED, id: taskId },
      name: `${task.name}-${updated.idx}`,
      storageKey: file.storageKey,
      posterKey: file.posterKey,
      size: file.size,
      durationMs: file.durationMs,
      width: file.width,
      height: file.height,
      now,
    });
    const moved = await settlePart(ctx, trx, holdIdOf(updated), partOf(outputId), price);
    if (moved.done && price > 0) {
      await trx
        .updateTable('video_tasks')
        .set({ settled: sql`settled + ${price}` })
        .where('id', '=', taskId)
        .execute();
    }
    await finishTask(ctx, trx, taskId, now);
    return true;
  });
}

export interface Refusal {
  to: Extract<OutputStatus, 'failed' | 'cancelled'>;
  /** The statuses it may leave (cancel: queued only). */
  from: readonly OutputStatus[];
  reasonId?: string;
  reasonParams?: Record<string, string | number>;
  reasonDetail?: string;
}

/**
 * Fails or cancels held outputs of one owner and gives their price back (in the caller's
 * transaction); answers the outputs moved and the cents given back.
 */
export async function refundOutputs(
  ctx: AppContext,
  trx: Trx,
  ownerId: number,
  outputIds: readonly number[],
  refusal: Refusal,
): Promise<{ count: number; amount: number }> {
  await lockUsers(ctx, trx, [ownerId]);
  const now = ctx.now();
  let count = 0;
  let amount = 0;
  const touched = new Set<number>();
  const names = new Map<number, string>();
  for (const outputId of outputIds) {
    const updated = await trx
      .updateTable('video_outputs')
      .set({
        status: refusal.to,
        billing: 'refunded',
        reason_id: refusal.reasonId ?? null,
        reason_params: refusal.reasonParams ? JSON.stringify(refusal.reasonParams) : null,
        reason_detail: refusal.reasonDetail ?? null,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', outputId)
      .where('status', 'in', refusal.from)
      .where('billing', '=', 'held')
      .returning(['task_id', 'price', 'idx', 'hold_id'])
      .executeTakeFirst();
    if (!updated) continue;
    count += 1;
    const taskId = Number(updated.task_id);
    const price = Number(updated.price);
    touched.add(taskId);
    if (!names.has(taskId)) {
      const task = await trx
        .selectFrom('video_tasks')
        .select('name')
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      names.set(taskId, task.name);
    }
    const memo = {
      id: 'memo.taskRefund' as const,
      params: { name: names.get(taskId)!, index: String(updated.idx) },
    };
    const moved = await refundPart(ctx, trx, holdIdOf(updated), partOf(outputId), price, memo);
    if (!moved.done || price === 0) continue;
    amount += price;
    await trx
      .updateTable('video_tasks')
      .set({ refunded: sql`refunded + ${price}` })
      .where('id', '=', taskId)
      .execute();
  }
  for (const taskId of touched) await finishTask(ctx, trx, taskId, now);
  return { count, amount };
}

function holdIdOf(output: { hold_id: number | null }): number {
  if (output.hold_id === null) throw new Error('a held output without its hold');
  return Number(output.hold_id);
}

/** Sets the task's status after an output moved; once it is finished its holds are closed. */
async function finishTask(ctx: AppContext, trx: Trx, taskId: number, now: number) {
  const status = await refreshTask(trx, taskId, now);
  if (!FINISHED.includes(status)) return;
  await settleNarration(ctx, trx, taskId);
  for (const hold of await holdsOf(trx, RELATED, taskId)) {
    if (hold.closed) continue;
    // Every output moved, so each hold is empty; one that is not stays open (and is logged).
    if (hold.held !== 0) {
      ctx.log.error({ holdId: hold.id, taskId, held: hold.held }, 'finished task still holds');
      continue;
    }
    await closeHold(ctx, trx, hold.id);
  }
  // The batch's hold (docs/domain.md §9 "Presets, batches and previews"): once no output it paid
  // is still held — the batch's last task finished — it is empty, and closed.
  const batchHolds = await trx
    .selectFrom('video_outputs as o')
    .innerJoin('ledger_holds as h', 'h.id', 'o.hold_id')
    .select('h.id')
    .distinct()
    .where('o.task_id', '=', taskId)
    .where('h.related_type', '=', BATCH_RELATED)
    .where('h.closed_at', 'is', null)
    .where(
      sql<boolean>`not exists (select 1 from video_outputs x where x.hold_id = h.id and x.billing = 'held')`,
    )
    .execute();
  for (const hold of batchHolds) await closeHold(ctx, trx, Number(hold.id));
}

/** Fails one output (refunded) in its own transaction; false when it was no longer held. */
export async function failOutput(
  ctx: AppContext,
  outputId: number,
  refusal: Omit<Refusal, 'to' | 'from'>,
): Promise<boolean> {
  const owner = await ctx.db
    .selectFrom('video_outputs as o')
    .innerJoin('video_tasks as t', 't.id', 'o.task_id')
    .select('t.owner_id')
    .where('o.id', '=', outputId)
    .executeTakeFirst();
  if (!owner) return false;
  const { count } = await runMoney(ctx, (trx) =>
    refundOutputs(ctx, trx, Number(owner.owner_id), [outputId], {
      ...refusal,
      to: 'failed',
      from: ['queued', 'rendering'],
    }),
  );
  return count === 1;
}

/** A task's status from its outputs'. */
export function taskStatusOf(counts: Partial<Record<OutputStatus, number>>): TaskStatus {
  const n = (s: OutputStatus) => counts[s] ?? 0;
  const total = n('queued') + n('rendering') + n('done') + n('failed') + n('cancelled');
  if (n('queued') + n('rendering') > 0) {
    return n('queued') === total ? 'pending' : 'running';
  }
  if (n('done') === total) return 'done';
  if (n('done') > 0) return 'partly_done';
  if (n('failed') > 0) return 'failed';
  return 'cancelled';
}

const FINISHED: readonly TaskStatus[] = ['done', 'partly_done', 'failed', 'cancelled'];

/** Sets a task's status from its outputs (and its finish time once nothing is left to run). */
export async function refreshTask(db: Executor, taskId: number, now: number): Promise<TaskStatus> {
  const rows = await db
    .selectFrom('video_outputs')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('task_id', '=', taskId)
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const status = taskStatusOf(counts);
  const finished = FINISHED.includes(status);
  await db
    .updateTable('video_tasks')
    .set({
      status,
      updated_at: now,
      progress_at: now,
      finished_at: finished ? sql`coalesce(finished_at, ${now})` : null,
    })
    .where('id', '=', taskId)
    .execute();
  await notifyVideoTaskStatus(db, taskId, status); // docs/domain.md §18
  return status;
}
