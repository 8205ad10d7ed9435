import type { AppContext } from '../../context';
import type { DhTable } from './billing';
import { DH_JOB } from './job-kinds';

/** The statuses of each table's rows that its job still works on (queued first). */
export const DH_ACTIVE: Record<DhTable, readonly [string, string]> = {
  dh_image_clones: ['queued', 'training'],
  dh_voice_clones: ['queued', 'training'],
  dh_videos: ['queued', 'creating'],
};

/**
 * Enqueues the job of each row (its table's kind, data `{id}`) and records the job's id
 * (`onlyNew`: only the queued rows without a job yet, as after an add, whose replay must not
 * enqueue twice). A failed enqueue is logged, not thrown: the row stays as it is and the sweep
 * (video-sweep.ts) enqueues it.
 */
export async function enqueueDh(
  ctx: AppContext,
  table: DhTable,
  ids: readonly number[],
  options: { onlyNew?: boolean } = {},
): Promise<void> {
  let todo = ids;
  if (options.onlyNew && todo.length > 0) {
    const fresh = await ctx.db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', todo)
      .where('job_id', 'is', null)
      .where('status', '=', DH_ACTIVE[table][0])
      .execute();
    todo = fresh.map((r) => Number(r.id));
  }
  for (const id of todo) {
    try {
      const jobId = await ctx.jobs.enqueue(DH_JOB[table], { id });
      await ctx.db
        .updateTable(table)
        .set({ job_id: jobId })
        .where('id', '=', id)
        .where('status', 'in', DH_ACTIVE[table])
        .execute();
    } catch (error) {
      ctx.log.warn({ err: error, table, id }, 'digital-human job not enqueued (the sweep will)');
    }
  }
}
