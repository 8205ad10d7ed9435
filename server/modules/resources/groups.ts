import type { GroupListReply, ResourceGroup } from '../../../src/api/contract/resources';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { t } from '../../platform/i18n';
import { countInGroup, findGroup, listGroups } from './repo';
import { WORKS_GROUP } from './works';

/**
 * Resource groups (docs/domain.md §8): a flat list of folders per owner, names 1–20 characters
 * (the contract trims and checks them), unique per owner (the table's unique constraint decides,
 * so two concurrent adds of one name make one group). Another user's group answers like a
 * missing one.
 */

/**
 * GET /resource/group_list; the works group (docs/domain.md §8 "Works") is named in the
 * reader's language and marked `works`.
 */
export async function groupList(
  ctx: AppContext,
  auth: AuthContext,
  locale: Locale,
): Promise<GroupListReply> {
  const [groups, works] = await Promise.all([
    listGroups(ctx.db, auth.user.id),
    ctx.db
      .selectFrom('resource_groups')
      .select('id')
      .where('owner_id', '=', auth.user.id)
      .where('kind', '=', WORKS_GROUP)
      .executeTakeFirst(),
  ]);
  const worksId = works ? Number(works.id) : undefined;
  return {
    ...groups,
    list: groups.list.map((g) =>
      g.id === worksId ? { ...g, name: t(locale, 'resource.worksGroup'), works: true } : g,
    ),
  };
}

/** The works group is the server's: it is neither renamed nor deleted. */
function checkNotWorks(group: { kind: string | null }) {
  if (group.kind === WORKS_GROUP) throw refuse('resource.worksGroupFixed');
}

/** POST /resource/group_add */
export async function addGroup(
  ctx: AppContext,
  auth: AuthContext,
  body: { name: string },
  audit: AuditTrail,
): Promise<ResourceGroup> {
  try {
    const row = await runInTransaction(
      ctx.db,
      (trx) =>
        trx
          .insertInto('resource_groups')
          .values({ owner_id: auth.user.id, name: body.name, created_at: ctx.now() })
          .returning('id')
          .executeTakeFirstOrThrow(),
      { audit },
    );
    return { id: Number(row.id), name: body.name, count: 0 };
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('resource.groupNameTaken', { name: body.name });
    throw error;
  }
}

/** POST /resource/group_edit: renames a group. */
export async function editGroup(
  ctx: AppContext,
  auth: AuthContext,
  body: { id: number; name: string },
  audit: AuditTrail,
): Promise<ResourceGroup> {
  const ownerId = auth.user.id;
  const group = await findGroup(ctx.db, ownerId, body.id);
  if (!group) throw refuse('resource.groupNotFound');
  checkNotWorks(group);
  audit.change(group, { name: body.name });
  try {
    await runInTransaction(
      ctx.db,
      async (trx) => {
        const result = await trx
          .updateTable('resource_groups')
          .set({ name: body.name })
          .where('id', '=', body.id)
          .where('owner_id', '=', ownerId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw refuse('resource.groupNotFound');
      },
      { audit },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('resource.groupNameTaken', { name: body.name });
    throw error;
  }
  return { id: body.id, name: body.name, count: await countInGroup(ctx.db, ownerId, body.id) };
}

/** POST /resource/group_delete: deletes a group; its resources become ungrouped. */
export async function deleteGroup(
  ctx: AppContext,
  auth: AuthContext,
  body: { id: number },
  audit: AuditTrail,
): Promise<null> {
  const ownerId = auth.user.id;
  const group = await findGroup(ctx.db, ownerId, body.id);
  if (!group) throw refuse('resource.groupNotFound');
  checkNotWorks(group);
  audit.change({ name: group.name }, null);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      // The group first: an edit that moves a resource into it checks it still exists.
      const deleted = await trx
        .deleteFrom('resource_groups')
        .where('id', '=', body.id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('resource.groupNotFound');
      await trx
        .updateTable('resources')
        .set({ group_id: null, updated_at: ctx.now() })
        .where('owner_id', '=', ownerId)
        .where('group_id', '=', body.id)
        .execute();
    },
    { audit },
  );
  return null;
}
