import type { AppContext } from '../context';
import { imageCloneJob, voiceCloneJob } from '../modules/digital-human/clone-jobs';
import { closeRechargeOrders } from './close-recharge-orders';
import { expireUploadsJob } from './expire-uploads';
import type { JobKind, JobWorker } from './queue';
import { sweepResourceFilesJob } from './sweep-resource-files';
import { sweepVideoTasksJob } from './sweep-video-tasks';
import { videoOutputJob } from './video-output';

export interface KindOptions {
  /** Every recurring kind's interval instead of its own (tests run them often). */
  everyMs?: number;
}

/**
 * Every kind of job the app runs, with its handler: what a worker (`npm start`'s in-process one
 * or `npm run worker`) takes on. New kinds are added here.
 * `sweep-video-tasks` is the "mark stalled tasks" sweep of issue 12 §1 for video tasks.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
export function appJobKinds(ctx: AppContext, options: KindOptions = {}): JobKind<any>[] {
  return [
    closeRechargeOrders(ctx, options.everyMs),
    sweepResourceFilesJob(ctx, options.everyMs),
    expireUploadsJob(ctx, options.everyMs),
    videoOutputJob(ctx),
    sweepVideoTasksJob(ctx, options.everyMs),
    imageCloneJob(ctx),
    voiceCloneJob(ctx),
  ];
}

/** Starts a worker for every kind of the app on the app's queue. */
export function startAppWorker(ctx: AppContext, options: KindOptions = {}): JobWorker {
  return ctx.jobs.work(appJobKinds(ctx, options));
}
