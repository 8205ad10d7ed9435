import { sql } from 'kysely';
import { rowCount } from '../../platform/db/conditions';
import type { Executor, SmsPurpose } from '../../platform/db/schema';

export interface ThrottleRule {
  /** Failures within the window that lock the key. */
  limit: number;
  windowMs: number;
  lockMs: number;
}

/**
 * Counts one attempt against a key before the password is checked, in one atomic statement, so
 * parallel guesses cannot slip past the limit. Returns null when the attempt may go ahead, or the
 * time the key stays locked until.
 */
export async function reserveAttempt(
  db: Executor,
  key: string,
  rule: ThrottleRule,
  now: number,
): Promise<number | null> {
  await db
    .insertInto('login_throttle')
    .values({ key, failures: 0, window_start: now, locked_until: null })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const windowOver = sql<boolean>`window_start <= cast(${now - rule.windowMs} as bigint)`;
  const failures = sql<number>`case when ${windowOver} then 1 else failures + 1 end`;
  const reserved = await db
    .updateTable('login_throttle')
    .set({
      failures,
      window_start: sql<number>`case when ${windowOver} then cast(${now} as bigint) else window_start end`,
      locked_until: sql<
        number | null
      >`case when ${failures} >= ${rule.limit} then cast(${now + rule.lockMs} as bigint) else null end`,
    })
    .where('key', '=', key)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('failures')
    .executeTakeFirst();
  if (reserved) return null;
  const row = await db
    .selectFrom('login_throttle')
    .select('locked_until')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.locked_until ?? now + rule.lockMs;
}

/** The attempt succeeded: it no longer counts (and a lock it caused is lifted). */
export async function releaseAttempt(db: Executor, key: string, rule: ThrottleRule): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set({
      failures: sql<number>`case when failures > 0 then failures - 1 else 0 end`,
      locked_until: sql<
        number | null
      >`case when failures - 1 < ${rule.limit} then null else locked_until end`,
    })
    .where('key', '=', key)
    .execute();
}

/** Forgets every failure of a key (successful login of an account, password reset). */
export async function clearAttempts(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

export async function lastCodeSentAt(db: Executor, mobile: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('sms_codes')
    .select('created_at')
    .where('mobile', '=', mobile)
    .orderBy('created_at', 'desc')
    .limit(rowCount(1))
    .executeTakeFirst();
  return row?.created_at;
}

export async function insertCode(
  db: Executor,
  row: {
    mobile: string;
    purpose: SmsPurpose;
    code_hash: string;
    created_at: number;
    expires_at: number;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('sms_codes')
    .values({ ...row, attempts: 0, used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function deleteCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute();
}

/** The newest code sent to a mobile for a purpose (older ones no longer count). */
export function latestCode(db: Executor, mobile: string, purpose: SmsPurpose) {
  return db
    .selectFrom('sms_codes')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .limit(rowCount(1))
    .executeTakeFirst();
}

/** Counts a try atomically; false when the code has no tries left. */
export async function reserveCodeTry(db: Executor, id: number, maxTries: number): Promise<boolean> {
  const row = await db
    .updateTable('sms_codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', id)
    .where('attempts', '<', maxTries)
    .returning('attempts')
    .executeTakeFirst();
  return !!row;
}

/** Marks a code used; false when it already was (a racing request used it). */
export async function markCodeUsed(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
