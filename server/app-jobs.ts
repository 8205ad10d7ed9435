import type { AppContext } from './context';
import { digitalHumanJobs } from './modules/digital-human';
import { matrixJobs } from './modules/matrix';
import { rechargeJobs } from './modules/recharge';
import { resourceJobs } from './modules/resources';
import { uploadJobs } from './modules/uploads';
import { videoTaskJobs } from './modules/video-tasks';
import type { JobHandler } from './platform/jobs/define-job';
import type { JobWorker } from './platform/jobs/queue';
import { sweepWorkDirs } from './platform/jobs/work-dirs';

export interface KindOptions {
  /** Every recurring kind's interval instead of its own (tests run them often). */
  everyMs?: number;
}

/**
 * Every kind of job the app runs, each declared by its module: what a worker (`npm start`'s
 * in-process one or `npm run worker`) takes on (docs/architecture.md §The path of a job).
 */
export const APP_JOBS: readonly JobHandler<AppContext>[] = [
  ...rechargeJobs,
  ...resourceJobs,
  ...uploadJobs,
  ...videoTaskJobs,
  ...digitalHumanJobs,
  ...matrixJobs,
];

/**
 * Starts a worker for every kind of the app on the app's queue, and sweeps the work directories
 * a dead worker left behind (its children stopped first; docs/architecture.md §The path of a job).
 */
export function startAppWorker(ctx: AppContext, options: KindOptions = {}): JobWorker {
  sweepWorkDirs(ctx.config.dataDir).then(
    ({ removed, killed }) => {
      if (removed.length > 0) ctx.log.warn({ removed, killed }, 'left-over work removed');
    },
    (error: unknown) => ctx.log.warn({ err: error }, 'work directories not swept'),
  );
  return ctx.jobs.work(APP_JOBS.map((job) => job.bind(ctx, options)));
}
