import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../platform/jobs/define-job';

/** Runs of one output's job: transient failures are retried, then the output fails (refunded). */
export const OUTPUT_ATTEMPTS = 3;

/** The job that renders one output (its handler: ./jobs.ts). */
export const videoOutputJob = defineJob(
  'video-output',
  z.strictObject({ outputId: z.number().int().positive() }),
  { attempts: OUTPUT_ATTEMPTS, backoffMs: 2_000 },
);
export type VideoOutputJob = z.infer<typeof videoOutputJob.data>;

/**
 * Enqueues a render job for each output and records its id (`onlyNew`: only the queued outputs
 * without a job yet, as after an add or retry, whose replay must not enqueue twice). A failed enqueue is logged, not
 * thrown: the output stays queued and the sweep (server/platform/jobs/sweep-video-tasks.ts) enqueues it.
 */
export async function enqueueOutputs(
  ctx: AppContext,
  outputIds: readonly number[],
  options: { onlyNew?: boolean } = {},
): Promise<void> {
  let ids = outputIds;
  if (options.onlyNew && ids.length > 0) {
    const fresh = await ctx.db
      .selectFrom('video_outputs')
      .select('id')
      .where('id', 'in', ids)
      .where('job_id', 'is', null)
      .where('status', '=', 'queued')
      .execute();
    ids = fresh.map((r) => Number(r.id));
  }
  for (const outputId of ids) {
    try {
      const jobId = await ctx.jobs.enqueue(videoOutputJob, { outputId });
      await ctx.db
        .updateTable('video_outputs')
        .set({ job_id: jobId })
        .where('id', '=', outputId)
        .where('status', 'in', ['queued', 'rendering'])
        .execute();
    } catch (error) {
      ctx.log.warn({ err: error, outputId }, 'video output not enqueued (the sweep will)');
    }
  }
}
