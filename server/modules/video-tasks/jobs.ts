import type { AppContext } from '../../context';
import { handleJob, recurringJob } from '../../platform/jobs/define-job';
import { cjkFont } from '../../platform/render/fonts';
import { videoOutputJob } from './queue';
import { renderOutput } from './render-output';
import { sweepVideoTasks } from './sweep';

/** How often the video tasks' sweep runs. */
export const SWEEP_VIDEO_TASKS_MS = 30_000;

/** The video tasks' jobs: rendering an output, and the sweep of lost and stalled outputs. */
export const videoTaskJobs = [
  handleJob(videoOutputJob, renderOutput, {
    // ffmpeg already uses every core: one render at a time per worker unless configured.
    concurrency: (ctx: AppContext) => ctx.config.videoRenderConcurrency,
    // The CJK font is looked up (fc-match, once per process) when the worker starts, not by the
    // first render: a task's first output does not wait for it.
    start: () => void cjkFont().catch(() => undefined),
  }),
  recurringJob<AppContext>('sweep-video-tasks', SWEEP_VIDEO_TASKS_MS, async (ctx) => {
    const { requeued, stalled } = await sweepVideoTasks(ctx);
    if (requeued + stalled > 0) ctx.log.info({ requeued, stalled }, 'video tasks swept');
  }),
];
