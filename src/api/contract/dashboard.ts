import { z } from 'zod';
import type { ValidationMessageId } from './messages';

const msg = (id: ValidationMessageId) => ({ message: id });

/** GET /platform/get_account: own balances (money as a 2-decimal string). */
export interface Account {
  money: string;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
}

/** GET /platform/dashboard_data: totals of what the caller may see (admin: the platform). */
export interface DashboardData {
  partners: number;
  agents: number;
  merchants: number;
  users_today: number;
  money: string;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
}

/**
 * POST /api/user/menu: every route the caller may open, grouped by menu section, from the one route
 * table. `hidden` entries are reachable but never listed (hidden routes, sections for other roles).
 */
export interface MenuItem {
  name: string;
  path: string;
  titleId: string;
  icon?: string;
  hidden: boolean;
  activeMenu?: string;
  children: MenuItem[];
}

/** The ranges of the dashboard's charts (docs/domain.md §22), in Asia/Shanghai days. */
export const SERIES_DAYS = [7, 30] as const;
export type SeriesDays = (typeof SERIES_DAYS)[number];

/** GET /platform/dashboard_series {days}: the last `days` days, today the last. */
export const dashboardSeriesQuery = z.strictObject({
  days: z.coerce
    .number(msg('validation.invalid'))
    .pipe(z.union([z.literal(7), z.literal(30)], msg('validation.invalid'))),
});
export type DashboardSeriesQuery = z.input<typeof dashboardSeriesQuery>;

/**
 * One Asia/Shanghai day of what the caller may see (docs/domain.md §22): users who signed up,
 * money recharged (paid orders), what paid work settled by kind (video outputs in money, digital-human
 * seconds, clones), video outputs finished, matrix posts published. Money as 2-decimal strings.
 */
export interface SeriesPoint {
  /** `YYYY-MM-DD` in Asia/Shanghai. */
  date: string;
  new_users: number;
  recharge: string;
  spend_video: string;
  spend_digital_human: number;
  spend_clones: number;
  videos: number;
  posts: number;
}

export interface DashboardSeries {
  days: SeriesDays;
  /** Oldest first; the last point is today (its figures are today's totals). */
  points: SeriesPoint[];
}
