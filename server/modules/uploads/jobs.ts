import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { expireUploads } from './sweep';

/** How often unfinished uploads past their 24 hours are deleted. */
export const EXPIRE_UPLOADS_MS = 10 * 60_000;

/** The uploads' jobs: deleting the uploads unfinished 24 hours after they began (docs/domain.md §8). */
export const uploadJobs = [
  recurringJob<AppContext>('expire-uploads', EXPIRE_UPLOADS_MS, async (ctx) => {
    const expired = await expireUploads(ctx);
    if (expired > 0) ctx.log.info({ expired }, 'unfinished uploads deleted');
  }),
];
