import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { sweepResourceFiles } from './sweep-files';

/** How often the files of deleted, unreferenced resources are removed. */
export const SWEEP_RESOURCE_FILES_MS = 10 * 60_000;

/** The resources' jobs: removing the files of deleted resources no task refers to any more. */
export const resourceJobs = [
  recurringJob<AppContext>('sweep-resource-files', SWEEP_RESOURCE_FILES_MS, async (ctx) => {
    const removed = await sweepResourceFiles(ctx);
    if (removed > 0) ctx.log.info({ removed }, 'files of deleted resources removed');
  }),
];
