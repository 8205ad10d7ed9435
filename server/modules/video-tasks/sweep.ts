import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { failOutput, refreshTask } from './billing';
import { enqueueOutputs, OUTPUT_ATTEMPTS } from './queue';

/** Job states after which a job no longer runs its output. */
const ENDED = ['completed', 'failed', 'cancelled'];
/** A queued output gets this long (at most) to be claimed before its job is looked at. */
const GRACE_MS = 60_000;
/**
 * Runs of one output (each job has OUTPUT_ATTEMPTS) after which the sweep gives up instead of
 * re-queueing it: an output that kills or hangs every worker fails (refunded) in the end.
 */
export const MAX_RUNS = 3 * OUTPUT_ATTEMPTS;

/** Re-queues outputs, or fails (refunds) those that have had MAX_RUNS runs. */
async function requeue(ctx: AppContext, outputs: { id: number; attempts: number }[]) {
  const again: number[] = [];
  for (const output of outputs) {
    if (output.attempts < MAX_RUNS) again.push(output.id);
    else {
      await failOutput(ctx, output.id, {
        reasonId: 'videoTask.reason.renderFailed',
        reasonDetail: `no render finished in ${output.attempts} runs (the worker stopped or hung)`,
      });
    }
  }
  await enqueueOutputs(ctx, again);
}

/**
 * The video tasks' sweep (a recurring job): nothing acknowledged is lost, nothing hangs.
 * 1. Queued or rendering outputs untouched for a while whose job is missing or ended (the
 *    enqueue after `add` failed, the queue lost it, or a crash used up its attempts) are
 *    enqueued again.
 * 2. Tasks with a rendering output and no progress for `videoTaskStallMs` are marked stalled and
 *    their rendering outputs' jobs re-queued (the old job is cancelled: a stuck ffmpeg stops).
 * Settling and refunding are conditional, so a duplicate run never moves money twice.
 */
export async function sweepVideoTasks(
  ctx: AppContext,
): Promise<{ requeued: number; stalled: number }> {
  const now = ctx.now();
  const stallMs = ctx.config.videoTaskStallMs;
  const idle = await ctx.db
    .selectFrom('video_outputs')
    .select(['id', 'job_id', 'attempts'])
    .where('status', 'in', ['queued', 'rendering'])
    .where('updated_at', '<', now - Math.min(GRACE_MS, stallMs))
    .orderBy('id')
    .limit(500)
    .execute();
  const lost: { id: number; attempts: number }[] = [];
  for (const output of idle) {
    const info = output.job_id ? await ctx.jobs.get(output.job_id) : undefined;
    if (!info || ENDED.includes(info.state)) {
      lost.push({ id: Number(output.id), attempts: Number(output.attempts) });
    }
  }
  await requeue(ctx, lost);

  const stuck = await ctx.db
    .selectFrom('video_tasks as t')
    .select('t.id')
    .where('t.status', '=', 'running')
    .where('t.deleted_at', 'is', null)
    .where('t.progress_at', '<', now - stallMs)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('video_outputs as o')
          .select(sql`1`.as('one'))
          .whereRef('o.task_id', '=', 't.id')
          .where('o.status', '=', 'rendering'),
      ),
    )
    .limit(100)
    .execute();
  for (const task of stuck) {
    const taskId = Number(task.id);
    await ctx.db
      .updateTable('video_tasks')
      .set({ stalled: 1, progress_at: now, updated_at: now })
      .where('id', '=', taskId)
      .execute();
    const rendering = await ctx.db
      .selectFrom('video_outputs')
      .select(['id', 'job_id', 'attempts'])
      .where('task_id', '=', taskId)
      .where('status', '=', 'rendering')
      .execute();
    for (const output of rendering) {
      if (output.job_id) await ctx.jobs.cancel(output.job_id).catch(() => false);
    }
    await requeue(
      ctx,
      rendering.map((o) => ({ id: Number(o.id), attempts: Number(o.attempts) })),
    );
    await refreshTask(ctx.db, taskId, now);
    ctx.log.warn({ taskId, outputs: rendering.length }, 'stalled video task: jobs re-queued');
  }
  return { requeued: lost.length, stalled: stuck.length };
}
