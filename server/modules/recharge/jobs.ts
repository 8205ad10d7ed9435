import type { AppContext } from '../../context';
import { recurringJob } from '../../platform/jobs/define-job';
import { closeExpiredOrders } from './service';

/** How often unpaid orders past their 30 minutes are closed (reading one shows it closed anyway). */
export const CLOSE_RECHARGE_ORDERS_MS = 60_000;

/** The recharge module's jobs: closing the unpaid orders past their expiry. */
export const rechargeJobs = [
  recurringJob<AppContext>('close-recharge-orders', CLOSE_RECHARGE_ORDERS_MS, async (ctx) => {
    const closed = await closeExpiredOrders(ctx);
    if (closed > 0) ctx.log.info({ closed }, 'expired recharge orders closed');
  }),
];
