import type { AppContext } from '../../context';
import { handleJob, recurringJob } from '../../platform/jobs/define-job';
import { cjkFont } from '../../platform/render/fonts';
import { renderPreview, sweepPreviews } from './preview';
import { videoOutputJob, type VideoRenderJob } from './queue';
import type { RunningJob } from '../../platform/jobs/queue';
import { renderOutput } from './render-output';
import { sweepVideoTasks } from './sweep';

/** How often the video tasks' sweep runs. */
export const SWEEP_VIDEO_TASKS_MS = 30_000;

/** A job of the render lane: a paid output's render, or a preview's (./queue.ts). */
function renderJob(ctx: AppContext, job: RunningJob<VideoRenderJob>): Promise<void> {
  const { data } = job;
  return 'previewId' in data
    ? renderPreview(ctx, { ...job, data })
    : renderOutput(ctx, { ...job, data });
}

/**
 * The video tasks' jobs: the render lane (outputs and previews), and the sweep of lost and
 * stalled outputs and of expired previews.
 */
export const videoTaskJobs = [
  handleJob(videoOutputJob, renderJob, {
    // ffmpeg already uses every core: one render at a time per worker unless configured.
    concurrency: (ctx: AppContext) => ctx.config.videoRenderConcurrency,
    // The CJK font is looked up (fc-match, once per process) when the worker starts, not by the
    // first render: a task's first output does not wait for it.
    start: () => void cjkFont().catch(() => undefined),
  }),
  recurringJob<AppContext>('sweep-video-tasks', SWEEP_VIDEO_TASKS_MS, async (ctx) => {
    const { requeued, stalled } = await sweepVideoTasks(ctx);
    if (requeued + stalled > 0) ctx.log.info({ requeued, stalled }, 'video tasks swept');
    const { removed } = await sweepPreviews(ctx);
    if (removed > 0) ctx.log.info({ removed }, 'expired video previews removed');
  }),
];
