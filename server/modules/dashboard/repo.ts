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
