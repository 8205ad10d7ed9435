import type { AppContext } from '../context';
import { expireUploads } from '../modules/uploads/sweep';
import type { JobKind } from './queue';

/** How often unfinished uploads past their 24 hours are deleted. */
export const EXPIRE_UPLOADS_MS = 10 * 60_000;

/** A recurring job: deletes the uploads unfinished 24 hours after they began (DOMAIN.md §12). */
export function expireUploadsJob(ctx: AppContext, everyMs = EXPIRE_UPLOADS_MS): JobKind<unknown> {
  return {
    kind: 'expire-uploads',
    everyMs,
    handler: async () => {
      const expired = await expireUploads(ctx);
      if (expired > 0) ctx.log.info({ expired }, 'unfinished uploads deleted');
    },
  };
}
