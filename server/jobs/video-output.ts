import type { AppContext } from '../context';
import { VIDEO_OUTPUT_JOB, type VideoOutputJob } from '../modules/video-tasks/queue';
import { renderOutput } from '../modules/video-tasks/render-output';
import { cjkFont } from '../render/fonts';
import type { JobKind } from './queue';

/** Renders one output of a video task (server/modules/video-tasks/render-output.ts). */
export function videoOutputJob(ctx: AppContext): JobKind<VideoOutputJob> {
  // The CJK font is looked up (fc-match, once per process) when the worker starts, not by the
  // first render: a task's first output does not wait for it.
  cjkFont().catch(() => undefined);
  return {
    kind: VIDEO_OUTPUT_JOB,
    // ffmpeg already uses every core: one render at a time per worker unless configured.
    concurrency: ctx.config.videoRenderConcurrency,
    handler: (job) => renderOutput(ctx, job),
  };
}
