import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { expireUploads } from './sweep';
import { sweepUnusedImages } from './sweep-images';

/** How often unfinished uploads past their 24 hours are deleted. */
export const EXPIRE_UPLOADS_MS = 10 * 60_000;

/** How often platform images nothing names are looked for. */
export const SWEEP_IMAGES_MS = 60 * 60_000;

/**
 * The uploads' jobs: deleting the uploads unfinished 24 hours after they began, and the platform
 * images nothing names a day after their upload (docs/domain.md §8).
 */
export const uploadJobs = [
  recurringJob<AppContext>('expire-uploads', EXPIRE_UPLOADS_MS, async (ctx) => {
    const expired = await expireUploads(ctx);
    if (expired > 0) ctx.log.info({ expired }, 'unfinished uploads deleted');
  }),
  recurringJob<AppContext>('sweep-unused-images', SWEEP_IMAGES_MS, async (ctx) => {
    const removed = await sweepUnusedImages(ctx);
    if (removed > 0) ctx.log.info({ removed }, 'unused platform images removed');
  }),
];
