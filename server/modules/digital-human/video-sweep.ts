import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { runMoney } from '../ledger';
import { DH_BILLING, finishHeld, type DhTable } from './billing';
import { DH_ATTEMPTS } from './job-kinds';
import { DH_ACTIVE, enqueueDh } from './requeue';

/** Job states after which a job no longer runs its row. */
const ENDED = ['completed', 'failed', 'cancelled'];
/** A queued row gets this long (at most) to be claimed before its job is looked at. */
const GRACE_MS = 60_000;
/** Runs of one row after which the sweep fails (refunds) it instead of enqueueing it again. */
export const DH_MAX_RUNS = 3 * DH_ATTEMPTS;
/** How often the sweep runs. */
export const SWEEP_DH_MS = 30_000;

/** A failed row's status per table. */
const FAILED = 'failed';

async function requeue(ctx: AppContext, table: DhTable, rows: { id: number; attempts: number }[]) {
  const again: number[] = [];
  for (const row of rows) {
    if (row.attempts < DH_MAX_RUNS) again.push(row.id);
    else {
      await runMoney(ctx, (trx) =>
        finishHeld(ctx, trx, {
          table,
          id: row.id,
          from: DH_ACTIVE[table],
          set: {
            status: FAILED,
            queue_position: null,
            reason_id: 'dhVideo.reason.stalled',
            reason_params: JSON.stringify({ runs: row.attempts }),
            reason_detail: `no run finished in ${row.attempts} runs (the worker stopped or hung)`,
          },
          bill: 'refund',
        }),
      );
    }
  }
  await enqueueDh(ctx, table, again);
}

/**
 * The digital human's sweep (a recurring job), for image clones, voice clones and videos alike:
 * 1. a queued or working row untouched for a while whose job is missing or ended (the enqueue
 *    after `add` failed, the queue lost it, a crash used up its attempts) is enqueued again;
 * 2. a working row whose job is active but that has written nothing for `videoTaskStallMs` (a
 *    worker killed or hung) has that job cancelled and a new one enqueued.
 * A row that has had DH_MAX_RUNS runs fails instead (refunded). Finishing is conditional, so a
 * duplicate run never moves units twice.
 */
export async function sweepDigitalHuman(
  ctx: AppContext,
): Promise<{ requeued: number; stalled: number }> {
  const now = ctx.now();
  const stallMs = ctx.config.videoTaskStallMs;
  let requeued = 0;
  let stalled = 0;
  for (const table of Object.keys(DH_BILLING) as DhTable[]) {
    const idle = await ctx.db
      .selectFrom(table)
      .select(['id', 'job_id', 'attempts', 'status', 'updated_at'])
      .where('status', 'in', DH_ACTIVE[table])
      .where('deleted_at', 'is', null)
      .where('updated_at', '<', now - Math.min(GRACE_MS, stallMs))
      .orderBy('id')
      .limit(500)
      .execute();
    const lost: { id: number; attempts: number }[] = [];
    const stuck: { id: number; attempts: number }[] = [];
    for (const row of idle) {
      const info = row.job_id ? await ctx.jobs.get(row.job_id) : undefined;
      const entry = { id: Number(row.id), attempts: Number(row.attempts) };
      if (!info || ENDED.includes(info.state)) lost.push(entry);
      else if (
        info.state === 'active' &&
        row.status === DH_ACTIVE[table][1] &&
        Number(row.updated_at) < now - stallMs
      ) {
        await ctx.jobs.cancel(row.job_id!).catch(() => false);
        stuck.push(entry);
      }
    }
    await requeue(ctx, table, [...lost, ...stuck]);
    requeued += lost.length;
    stalled += stuck.length;
  }
  return { requeued, stalled };
}

/** The recurring job of the sweep. */
export const sweepDigitalHumanJob = recurringJob<AppContext>(
  'sweep-digital-human',
  SWEEP_DH_MS,
  async (ctx) => {
    const { requeued, stalled } = await sweepDigitalHuman(ctx);
    if (requeued + stalled > 0) ctx.log.info({ requeued, stalled }, 'digital human swept');
  },
);
