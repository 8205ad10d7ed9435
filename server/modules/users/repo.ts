import type { Updateable } from 'kysely';
import type { Executor, NewUser, UserRow, UsersTable } from '../../platform/db/schema';

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findUserByMobile(db: Executor, mobile: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Usernames and mobiles stay taken after a soft delete (the unique indexes include deleted rows). */
export async function isUsernameTaken(db: Executor, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  return !!row;
}

export async function isMobileTaken(db: Executor, mobile: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', mobile)
    .executeTakeFirst();
  return !!row;
}

export async function insertUser(db: Executor, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Executor,
  id: number,
  changes: Updateable<UsersTable>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Merchants (not deleted) under a partner. */
export async function countMerchantsOf(db: Executor, partnerId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('service_id', '=', partnerId)
    .where('user_type', '=', 2)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
