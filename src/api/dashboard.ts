/** Totals and own balances (docs/domain.md §22). */
import type { Account, DashboardData, DashboardSeries, SeriesDays } from './contract/dashboard';
import { get, type RequestOptions } from './http';

/** Totals of what the caller may see (admin: the whole platform). */
export function getDashboardData(options?: RequestOptions): Promise<DashboardData> {
  return get<DashboardData>('/platform/dashboard_data', undefined, options);
}

/** The caller's own balances. */
export function getAccount(options?: RequestOptions): Promise<Account> {
  return get<Account>('/platform/get_account', undefined, options);
}

/** The last 7 or 30 Asia/Shanghai days of what the caller may see, today last. */
export function getDashboardSeries(
  days: SeriesDays,
  options?: RequestOptions,
): Promise<DashboardSeries> {
  return get<DashboardSeries>('/platform/dashboard_series', { days: String(days) }, options);
}
