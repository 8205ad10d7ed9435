import type { AppContext } from './context';
import { digitalHumanJobs } from './modules/digital-human';
import { rechargeJobs } from './modules/recharge';
import { resourceJobs } from './modules/resources';
import { uploadJobs } from './modules/uploads';
import { videoTaskJobs } from './modules/video-tasks';
import type { JobHandler } from './platform/jobs/define-job';
import type { JobWorker } from './platform/jobs/queue';

export interface KindOptions {
  /** Every recurring kind's interval instead of its own (tests run them often). */
  everyMs?: number;
}

/**
 * Every kind of job the app runs, each declared by its module: what a worker (`npm start`'s
 * in-process one or `npm run worker`) takes on (docs/architecture.md §Jobs).
 */
export const APP_JOBS: readonly JobHandler<AppContext>[] = [
  ...rechargeJobs,
  ...resourceJobs,
  ...uploadJobs,
  ...videoTaskJobs,
  ...digitalHumanJobs,
];

/** Starts a worker for every kind of the app on the app's queue. */
export function startAppWorker(ctx: AppContext, options: KindOptions = {}): JobWorker {
  return ctx.jobs.work(APP_JOBS.map((job) => job.bind(ctx, options)));
}
