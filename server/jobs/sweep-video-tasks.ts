import type { AppContext } from '../context';
import { sweepVideoTasks } from '../modules/video-tasks/sweep';
import type { JobKind } from './queue';

/** How often the video tasks' sweep runs. */
export const SWEEP_VIDEO_TASKS_MS = 30_000;

/** A recurring job: re-enqueues lost outputs and re-queues stalled tasks' renders. */
export function sweepVideoTasksJob(
  ctx: AppContext,
  everyMs = SWEEP_VIDEO_TASKS_MS,
): JobKind<unknown> {
  return {
    kind: 'sweep-video-tasks',
    everyMs,
    handler: async () => {
      const { requeued, stalled } = await sweepVideoTasks(ctx);
      if (requeued + stalled > 0) ctx.log.info({ requeued, stalled }, 'video tasks swept');
    },
  };
}
