import type { Insertable } from 'kysely';
import type { Executor, RevokeReason, SessionRow, SessionsTable } from '../../platform/db/schema';

export async function insertSession(db: Executor, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export function findSessionByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(
  db: Executor,
  id: number,
  reason: RevokeReason,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends the user's own sessions and the overstep sessions it opened into other accounts. */
export async function revokeSessionsOfUser(
  db: Executor,
  userId: number,
  reason: RevokeReason,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('overstep_by', '=', userId)]))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
