import { sql } from 'kysely';
import { formatUnits } from '../../../src/api/contract/money';
import type { OutputStatus, TaskStatus } from '../../../src/api/contract/video-tasks';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { lockUsers, post, postSystem, runMoney, type Trx } from '../ledger';
import { notifyVideoTaskStatus } from '../notifications';

/**
 * The money of video tasks (DOMAIN.md §12), each movement in the transaction of the status change
 * that causes it:
 * - freeze (add, retry): user `task_freeze` −price of the outputs, `task_hold` + (system row typed
 *   `task_freeze`);
 * - settle (an output done): `task_hold` − and `revenue` + (system rows typed `task_settle`; the
 *   user's balance does not move: the money left it at the freeze);
 * - refund (an output failed or cancelled): user `task_refund` +price, `task_hold` −.
 * Outputs move with conditional updates (`status … AND billing = 'held'`): an output settles or
 * is refunded once per freeze, whatever runs twice. A zero price writes no ledger row.
 */

export const RELATED = 'video_task';

/** Freezes `amount` cents of the owner's money for a task; refuses with the amount needed. */
export async function freeze(
  ctx: AppContext,
  trx: Trx,
  task: { id: number; ownerId: number; name: string },
  count: number,
  amount: number,
): Promise<void> {
  await lockUsers(ctx, trx, [task.ownerId]);
  const user = await trx
    .selectFrom('users')
    .select('money')
    .where('id', '=', task.ownerId)
    .executeTakeFirstOrThrow();
  const balance = Number(user.money);
  if (balance < amount) {
    throw refuse('videoTask.insufficient', {
      amount: formatUnits('money', amount),
      balance: formatUnits('money', balance),
    });
  }
  if (amount === 0) return;
  const now = ctx.now();
  await post(trx, {
    userId: task.ownerId,
    asset: 'money',
    type: 'task_freeze',
    change: -amount,
    memo: { id: 'memo.taskFreeze', params: { name: task.name, count: String(count) } },
    relatedType: RELATED,
    relatedId: task.id,
    now,
  });
  await postSystem(trx, {
    account: 'task_hold',
    asset: 'money',
    type: 'task_freeze',
    change: amount,
    relatedType: RELATED,
    relatedId: task.id,
    now,
  });
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
      .returning(['task_id', 'price'])
      .executeTakeFirst();
    if (!updated) return false;
    const taskId = Number(updated.task_id);
    const price = Number(updated.price);
    if (price > 0) {
      const common = { asset: 'money' as const, type: 'task_settle' as const, now };
      await postSystem(trx, {
        ...common,
        account: 'task_hold',
        change: -price,
        relatedType: RELATED,
        relatedId: taskId,
      });
      await postSystem(trx, {
        ...common,
        account: 'revenue',
        change: price,
        relatedType: RELATED,
        relatedId: taskId,
      });
      await trx
        .updateTable('video_tasks')
        .set({ settled: sql`settled + ${price}` })
        .where('id', '=', taskId)
        .execute();
    }
    await refreshTask(trx, taskId, now);
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
      .returning(['task_id', 'price', 'idx'])
      .executeTakeFirst();
    if (!updated) continue;
    count += 1;
    const taskId = Number(updated.task_id);
    const price = Number(updated.price);
    touched.add(taskId);
    if (price === 0) continue;
    amount += price;
    const task = await trx
      .selectFrom('video_tasks')
      .select('name')
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    await post(trx, {
      userId: ownerId,
      asset: 'money',
      type: 'task_refund',
      change: price,
      memo: { id: 'memo.taskRefund', params: { name: task.name, index: String(updated.idx) } },
      relatedType: RELATED,
      relatedId: taskId,
      now,
    });
    await postSystem(trx, {
      account: 'task_hold',
      asset: 'money',
      type: 'task_refund',
      change: -price,
      relatedType: RELATED,
      relatedId: taskId,
      now,
    });
    await trx
      .updateTable('video_tasks')
      .set({ refunded: sql`refunded + ${price}` })
      .where('id', '=', taskId)
      .execute();
  }
  for (const taskId of touched) await refreshTask(trx, taskId, now);
  return { count, amount };
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

/** A task's status from its outputs' (issue 13 §Rules). */
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
