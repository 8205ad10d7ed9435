import type { AppContext } from '../context';
import { closeExpiredOrders } from '../modules/recharge/service';
import type { JobKind } from './queue';

/** How often unpaid orders past their 30 minutes are closed (reading one shows it closed anyway). */
export const CLOSE_RECHARGE_ORDERS_MS = 60_000;

/** A recurring job: closes the unpaid recharge orders past their expiry. */
export function closeRechargeOrders(
  ctx: AppContext,
  everyMs = CLOSE_RECHARGE_ORDERS_MS,
): JobKind<unknown> {
  return {
    kind: 'close-recharge-orders',
    everyMs,
    handler: async () => {
      const closed = await closeExpiredOrders(ctx);
      if (closed > 0) ctx.log.info({ closed }, 'expired recharge orders closed');
    },
  };
}
