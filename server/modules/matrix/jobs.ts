import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { publishJobs } from './publish';
import { keepAccountsAlive } from './tokens';
import { metricsJobs } from './video-data';

/** How often the accounts' tokens are looked after (docs/domain.md §19). */
export const KEEP_ALIVE_MS = 10 * 60_000;

/** Matrix distribution's jobs: keeping the accounts' tokens alive, publishing the plans' posts, pulling their numbers. */
export const matrixJobs = [
  ...publishJobs,
  ...metricsJobs,
  recurringJob<AppContext>('matrix-token-keepalive', KEEP_ALIVE_MS, async (ctx) => {
    const refreshed = await keepAccountsAlive(ctx);
    if (refreshed > 0) ctx.log.info({ refreshed }, 'social accounts refreshed');
  }),
];
