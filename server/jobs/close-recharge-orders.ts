import type { AppContext } from '../context';
import { closeExpiredOrders } from '../modules/recharge/service';
import type { Sweep } from './schedule';

/** How often unpaid orders past their 30 minutes are closed (reading one shows it closed anyway). */
export const CLOSE_RECHARGE_ORDERS_MS = 60_000;

/** Closes the unpaid recharge orders past their expiry. */
export function closeRechargeOrders(ctx: AppContext, everyMs = CLOSE_RECHARGE_ORDERS_MS): Sweep {
  return { name: 'close-recharge-orders', everyMs, run: () => closeExpiredOrders(ctx) };
}
