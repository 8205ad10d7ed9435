import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema';
import { visibleUsers, type ScopeSubject } from '../users';

export interface UserTotals {
  partners: number;
  agents: number;
  merchants: number;
  users_today: number;
  money: number;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
}

/** Counts (the subject excluded) and balance sums over the users the subject may see (one query). */
export async function totalsVisibleTo(
  db: Executor,
  subject: ScopeSubject,
  dayStart: number,
): Promise<UserTotals> {
  // The counts are of the people the subject looks after: never the subject itself (a merchant
  // has no customers; a partner is not one of its own partners). The balance sums keep it.
  const others = sql<boolean>`id <> ${subject.user.id}`;
  const countType = (type: number) =>
    sql<number>`coalesce(sum(case when user_type = ${type} and ${others} then 1 else 0 end), 0)`;
  const total = (column: string) => sql<number>`coalesce(sum(${sql.ref(column)}), 0)`;
  const row = await db
    .selectFrom('users')
    .select([
      countType(1).as('partners'),
      countType(3).as('agents'),
      countType(2).as('merchants'),
      sql<number>`coalesce(sum(case when created_at >= cast(${dayStart} as bigint) and ${others} then 1 else 0 end), 0)`.as(
        'users_today',
      ),
      total('money').as('money'),
      total('digital_man_seconds').as('digital_man_seconds'),
      total('voice_clone_count').as('voice_clone_count'),
      total('image_clone_count').as('image_clone_count'),
    ])
    .where('deleted_at', 'is', null)
    .where(visibleUsers(subject))
    .executeTakeFirstOrThrow();
  // PostgreSQL returns sum(bigint) as numeric (a string): normalise every figure to a number.
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, Number(v)]),
  ) as unknown as UserTotals;
}

/** Milliseconds of a day, and Asia/Shanghai's offset from UTC (no DST; docs/domain.md §22). */
export const DAY = 24 * 60 * 60 * 1000;
const SHANGHAI_OFFSET = 8 * 60 * 60 * 1000;

/**
 * An epoch-millisecond column's Asia/Shanghai day as a whole number (days since 1970-01-01 there):
 * integer arithmetic, the same on both engines and whatever the server's `TZ`.
 */
function dayOf(column: string) {
  return sql<number>`(${sql.ref(column)} + ${sql.lit(SHANGHAI_OFFSET)}) / ${sql.lit(DAY)}`;
}

/** The Shanghai day number of an instant (as `dayOf` computes it in SQL). */
export function dayNumber(at: number): number {
  return Math.floor((at + SHANGHAI_OFFSET) / DAY);
}

/** `user column in visible(subject)`; nothing to test for the admin (everyone). */
function ownedByVisible(subject: ScopeSubject, column: string) {
  if (subject.role === 'admin') return sql<boolean>`1 = 1`;
  return sql<boolean>`${sql.ref(column)} in (select users.id from users where ${visibleUsers(subject)})`;
}

export interface DayRange {
  /** Inclusive, the first day's start. */
  from: number;
  /** Exclusive, the day after the last's start. */
  to: number;
}

/** Per-day figures keyed by Shanghai day number. */
export type DayFigures = Map<number, number>;

export interface SeriesFigures {
  newUsers: DayFigures;
  recharge: DayFigures;
  spendVideo: DayFigures;
  spendDigitalHuman: DayFigures;
  spendClones: DayFigures;
  videos: DayFigures;
  posts: DayFigures;
}

function figures(rows: { day: unknown; n: unknown }[]): DayFigures {
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

/**
 * The dashboard's daily series over `range` of what the subject may see (docs/domain.md §22): one
 * grouped query per figure, each over an index on (kind, time) (migration 0024).
 */
export async function seriesVisibleTo(
  db: Executor,
  subject: ScopeSubject,
  range: DayRange,
): Promise<SeriesFigures> {
  const { from, to } = range;
  const newUsers = db
    .selectFrom('users')
    .select([dayOf('created_at').as('day'), sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('deleted_at', 'is', null)
    .where('id', '<>', subject.user.id)
    .where(visibleUsers(subject))
    .groupBy(sql`1`)
    .execute();
  const recharge = db
    .selectFrom('ledger')
    .select([dayOf('created_at').as('day'), sql<number>`coalesce(sum(change), 0)`.as('n')])
    .where('type', '=', 'recharge')
    .where('asset', '=', 'money')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where(ownedByVisible(subject, 'ledger.user_id'))
    .groupBy(sql`1`)
    .execute();
  // What paid work settled: the revenue account's task_settle rows, owned through their hold.
  const spend = db
    .selectFrom('system_ledger as s')
    .innerJoin('ledger_holds as h', 'h.id', 's.hold_id')
    .select([
      dayOf('s.created_at').as('day'),
      'h.related_type as kind',
      sql<number>`coalesce(sum(s.change), 0)`.as('n'),
    ])
    .where('s.account', '=', 'revenue')
    .where('s.type', '=', 'task_settle')
    .where('s.created_at', '>=', from)
    .where('s.created_at', '<', to)
    .where(ownedByVisible(subject, 'h.user_id'))
    .groupBy([sql`1`, 'h.related_type'])
    .execute();
  const videos = db
    .selectFrom('video_outputs as o')
    .innerJoin('video_tasks as t', 't.id', 'o.task_id')
    .select([dayOf('o.finished_at').as('day'), sql<number>`count(*)`.as('n')])
    .where('o.status', '=', 'done')
    .where('o.finished_at', '>=', from)
    .where('o.finished_at', '<', to)
    .where(ownedByVisible(subject, 't.owner_id'))
    .groupBy(sql`1`)
    .execute();
  const posts = db
    .selectFrom('matrix_posts')
    .select([dayOf('published_at').as('day'), sql<number>`count(*)`.as('n')])
    .where('status', '=', 'published')
    .where('published_at', '>=', from)
    .where('published_at', '<', to)
    .where(ownedByVisible(subject, 'matrix_posts.owner_id'))
    .groupBy(sql`1`)
    .execute();
  const spendRows = await spend;
  const spendOf = (kinds: string[]) =>
    figures(
      [
        ...spendRows
          .filter((r) => kinds.includes(r.kind ?? ''))
          .reduce((days, r) => {
            const day = Number(r.day);
            days.set(day, (days.get(day) ?? 0) + Number(r.n));
            return days;
          }, new Map<number, number>()),
      ].map(([day, n]) => ({ day, n })),
    );
  return {
    newUsers: figures(await newUsers),
    recharge: figures(await recharge),
    spendVideo: spendOf(['video_task']),
    spendDigitalHuman: spendOf(['dh_video']),
    spendClones: spendOf(['dh_voice_clone', 'dh_image_clone']),
    videos: figures(await videos),
    posts: figures(await posts),
  };
}
