import type { DashboardData } from '../../../src/api/contract/dashboard';
import type { AppContext, AuthContext } from '../../context';
import { startOfBusinessDay } from '../../platform/lib/clock';
import { formatCents } from '../../platform/lib/money';
import { totalsVisibleTo } from './repo';

/** Admin: platform totals; partner: its subtree; agent: its referred merchants; merchant: itself. */
export async function getDashboard(ctx: AppContext, auth: AuthContext): Promise<DashboardData> {
  const totals = await totalsVisibleTo(ctx.db, auth, startOfBusinessDay(ctx.now()));
  return { ...totals, money: formatCents(totals.money) };
}
