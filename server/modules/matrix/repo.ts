import { sql, type Selectable, type SqlBool } from 'kysely';
import type { AccountListParams } from '../../../src/api/contract/matrix';
import type { Executor, MatrixAccountsTable } from '../../platform/db/schema';
import { listOwnerGroups } from '../../platform/db/owner-groups';

/** The SQL of matrix accounts and their groups (docs/domain.md §19); every query names the owner. */

export type AccountRow = Selectable<MatrixAccountsTable>;

/** A live account of the owner's, or undefined (another's and a deleted one look missing). */
export function findAccount(db: Executor, ownerId: number, id: number) {
  return db
    .selectFrom('matrix_accounts')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The live account bound to this platform account, whoever owns it. */
export function findBound(db: Executor, platform: string, sandbox: boolean, openId: string) {
  return db
    .selectFrom('matrix_accounts')
    .selectAll()
    .where('platform', '=', platform)
    .where('sandbox', '=', sandbox ? 1 : 0)
    .where('open_id', '=', openId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the owner's live accounts, newest first. */
export async function listAccounts(
  db: Executor,
  ownerId: number,
  filter: Omit<AccountListParams, 'page' | 'limit'>,
  paging: { page: number; limit: number },
  now: number,
) {
  let query = db
    .selectFrom('matrix_accounts')
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null);
  if (filter.platform) query = query.where('platform', '=', filter.platform);
  if (filter.group_id !== undefined) {
    query =
      filter.group_id === 0
        ? query.where('group_id', 'is', null)
        : query.where('group_id', '=', filter.group_id);
  }
  if (filter.keyword) {
    // Case-insensitive on both engines; `%`, `_` and `\` match themselves.
    const pattern = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(
      sql<SqlBool>`(lower(nickname) like ${pattern} escape '\\' or lower(open_id) like ${pattern} escape '\\')`,
    );
  }
  if (filter.status) {
    // A refresh token that ran out is expired whatever the row still says (docs/domain.md §19).
    query =
      filter.status === 'expired'
        ? query.where((eb) =>
            eb.or([
              eb('status', '=', 'expired'),
              eb.and([
                eb('status', 'in', ['normal', 'expiring']),
                eb('refresh_expires_at', '<=', now),
              ]),
            ]),
          )
        : filter.status === 'revoked'
          ? query.where('status', '=', 'revoked')
          : query.where('status', '=', filter.status).where('refresh_expires_at', '>', now);
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** An owner's account group, or undefined. */
export function findGroup(db: Executor, ownerId: number, id: number) {
  return db
    .selectFrom('matrix_account_groups')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

/** The owner's groups with their live accounts' counts, and the ungrouped count. */
export const listGroups = (db: Executor, ownerId: number) =>
  listOwnerGroups(db, { groups: 'matrix_account_groups', members: 'matrix_accounts' }, ownerId);
