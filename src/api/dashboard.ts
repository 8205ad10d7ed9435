/** Totals and own balances (docs/domain.md §16). */
import type { Account, DashboardData } from './contract/dashboard';
import { get, type RequestOptions } from './http';

/** Totals of what the caller may see (admin: the whole platform). */
export function getDashboardData(options?: RequestOptions): Promise<DashboardData> {
  return get<DashboardData>('/platform/dashboard_data', undefined, options);
}

/** The caller's own balances. */
export function getAccount(options?: RequestOptions): Promise<Account> {
  return get<Account>('/platform/get_account', undefined, options);
}
