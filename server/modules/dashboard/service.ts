import type {
  DashboardData,
  DashboardSeries,
  SeriesDays,
  SeriesPoint,
} from '../../../src/api/contract/dashboard';
import type { AppContext, AuthContext } from '../../context';
import { startOfBusinessDay } from '../../platform/lib/clock';
import { formatCents } from '../../platform/lib/money';
import { DAY, dayNumber, seriesVisibleTo, totalsVisibleTo } from './repo';

/** Admin: platform totals; partner: its subtree; agent: its referred merchants; merchant: itself. */
export async function getDashboard(ctx: AppContext, auth: AuthContext): Promise<DashboardData> {
  const totals = await totalsVisibleTo(ctx.db, auth, startOfBusinessDay(ctx.now()));
  return { ...totals, money: formatCents(totals.money) };
}

/**
 * The last `days` Asia/Shanghai days (today the last) of what the caller may see, every day
 * present (0 when nothing happened; docs/domain.md §22).
 */
export async function getDashboardSeries(
  ctx: AppContext,
  auth: AuthContext,
  days: SeriesDays,
): Promise<DashboardSeries> {
  const today = startOfBusinessDay(ctx.now());
  const from = today - (days - 1) * DAY;
  const f = await seriesVisibleTo(ctx.db, auth, { from, to: today + DAY });
  const points: SeriesPoint[] = [];
  for (let i = 0; i < days; i++) {
    const start = from + i * DAY;
    const day = dayNumber(start);
    const n = (figures: Map<number, number>) => figures.get(day) ?? 0;
    points.push({
      // The Shanghai date: the day's start moved by the offset, read as UTC.
      date: new Date(start + 8 * 60 * 60 * 1000).toISOString().slice(0, 10),
      new_users: n(f.newUsers),
      recharge: formatCents(n(f.recharge)),
      spend_video: formatCents(n(f.spendVideo)),
      spend_digital_human: n(f.spendDigitalHuman),
      spend_clones: n(f.spendClones),
      videos: n(f.videos),
      posts: n(f.posts),
    });
  }
  return { days, points };
}
