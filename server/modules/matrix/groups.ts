import type { GroupListReply, ResourceGroup } from '../../../src/api/contract/resources';
import type { AppContext, AuthContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { findGroup, listGroups } from './repo';

/**
 * Account groups (docs/domain.md §19): like the resource library's groups, a flat list per owner,
 * names 1–20 characters unique per owner (the table's constraint decides); deleting one ungroups
 * its accounts. Another's group answers like a missing one.
 */

const taken = (error: unknown, name: string) =>
  isUniqueViolation(error) ? refuse('matrix.groupNameTaken', { name }) : error;

/** GET /matrix/account_group_list */
export function accountGroupList(ctx: AppContext, auth: AuthContext): Promise<GroupListReply> {
  return listGroups(ctx.db, auth.user.id);
}

/** POST /matrix/account_group_add */
export async function addAccountGroup(
  ctx: AppContext,
  auth: AuthContext,
  name: string,
  audit: AuditTrail,
): Promise<ResourceGroup> {
  try {
    const row = await runInTransaction(
      ctx.db,
      (trx) =>
        trx
          .insertInto('matrix_account_groups')
          .values({ owner_id: auth.user.id, name, created_at: ctx.now() })
          .returning('id')
          .executeTakeFirstOrThrow(),
      { audit },
    );
    return { id: Number(row.id), name, count: 0 };
  } catch (error) {
    throw taken(error, name);
  }
}

/** POST /matrix/account_group_edit: renames a group. */
export async function editAccountGroup(
  ctx: AppContext,
  auth: AuthContext,
  body: { id: number; name: string },
  audit: AuditTrail,
): Promise<ResourceGroup> {
  const group = await findGroup(ctx.db, auth.user.id, body.id);
  if (!group) throw refuse('matrix.groupNotFound');
  audit.change({ name: group.name }, { name: body.name });
  try {
    await runInTransaction(
      ctx.db,
      async (trx) => {
        const result = await trx
          .updateTable('matrix_account_groups')
          .set({ name: body.name })
          .where('id', '=', body.id)
          .where('owner_id', '=', auth.user.id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw refuse('matrix.groupNotFound');
      },
      { audit },
    );
  } catch (error) {
    throw taken(error, body.name);
  }
  const { list } = await listGroups(ctx.db, auth.user.id);
  return list.find((g) => g.id === body.id) ?? { id: body.id, name: body.name, count: 0 };
}

/** POST /matrix/account_group_delete: its accounts become ungrouped. */
export async function deleteAccountGroup(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<null> {
  const ownerId = auth.user.id;
  const group = await findGroup(ctx.db, ownerId, id);
  if (!group) throw refuse('matrix.groupNotFound');
  audit.change({ name: group.name }, null);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await trx
        .updateTable('matrix_accounts')
        .set({ group_id: null, updated_at: ctx.now() })
        .where('owner_id', '=', ownerId)
        .where('group_id', '=', id)
        .execute();
      const deleted = await trx
        .deleteFrom('matrix_account_groups')
        .where('id', '=', id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('matrix.groupNotFound');
    },
    { audit },
  );
  return null;
}
