import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../platform/jobs/define-job';

/** Runs of one output's job: transient failures are retried, then the output fails (refunded). */
export const OUTPUT_ATTEMPTS = 3;

/**
 * The render lane: one job kind for the renders that share a worker's render slots
 * (VIDEO_RENDER_CONCURRENCY), a paid output (`outputId`, its handler ./render-output.ts) or a free
 * preview (`previewId`, ./preview.ts). One kind, so that the queue's priority orders them: a
 * preview asked after paid outputs are queued runs before them (docs/decisions.md "Preview
 * before paying"). The kind keeps its first name (jobs queued before previews existed run on).
 */
export const videoOutputJob = defineJob(
  'video-output',
  z.union([
    z.strictObject({ outputId: z.number().int().positive() }),
    z.strictObject({ previewId: z.number().int().positive() }),
  ]),
  { attempts: OUTPUT_ATTEMPTS, backoffMs: 2_000 },
);
export type VideoRenderJob = z.infer<typeof videoOutputJob.data>;
export type VideoOutputJob = Extract<VideoRenderJob, { outputId: number }>;
export type VideoPreviewJob = Extract<VideoRenderJob, { previewId: number }>;

/**
 * Priorities in the render lane (lower runs first, as in BullMQ; the embedded queue claims in the
 * same order). Paid outputs are prioritised too: BullMQ runs a job without a priority (0) before
 * every prioritised one, so a preview could not pass them otherwise.
 */
export const PREVIEW_PRIORITY = 1;
export const OUTPUT_PRIORITY = 10;

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
      const jobId = await ctx.jobs.enqueue(
        videoOutputJob,
        { outputId },
        { priority: OUTPUT_PRIORITY },
      );
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
