import { sql, type SqlBool } from 'kysely';
import type { Resource } from '../../../src/api/contract/resources';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { findGroup, findResource } from './repo';
import { toResource } from './resource-reply';

/**
 * POST /resource/edit: renames the caller's resource and/or moves it to one of the caller's
 * groups (`group_id: 0`: ungrouped). Another user's resource or group answers like a missing one.
 */
export async function editResource(
  ctx: AppContext,
  auth: AuthContext,
  body: { id: number; name?: string; group_id?: number },
  audit: AuditTrail,
): Promise<Resource> {
  const ownerId = auth.user.id;
  const now = ctx.now();
  const found = await findResource(ctx.db, ownerId, body.id);
  if (!found) throw refuse('resource.notFound');
  const groupId = body.group_id === 0 ? null : body.group_id;
  if (groupId !== null && groupId !== undefined && !(await findGroup(ctx.db, ownerId, groupId))) {
    throw refuse('resource.groupNotFound');
  }
  const changes = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(groupId !== undefined ? { group_id: groupId } : {}),
  };
  audit.change(found, changes);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      let update = trx
        .updateTable('resources')
        .set({ updated_at: now, ...changes })
        .where('id', '=', body.id)
        .where('owner_id', '=', ownerId)
        .where('deleted_at', 'is', null);
      if (groupId !== null && groupId !== undefined) {
        // The group still exists when the row changes (a group deleted meanwhile is not joined).
        update = update.where(
          sql<SqlBool>`exists (select 1 from resource_groups g where g.id = ${groupId} and g.owner_id = ${ownerId})`,
        );
      }
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw refuse(
          (await findResource(trx, ownerId, body.id))
            ? 'resource.groupNotFound'
            : 'resource.notFound',
        );
      }
    },
    { audit },
  );
  const row = await findResource(ctx.db, ownerId, body.id);
  if (!row) throw refuse('resource.notFound');
  return toResource(ctx, row);
}

/**
 * POST /resource/delete: hides the caller's resources from the library (soft delete). Their
 * files stay while a task refers to them; the sweep (server/platform/jobs/sweep-resource-files.ts)
 * removes them after. Every id must be a live resource of the caller, or nothing changes.
 */
export async function deleteResources(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids: number[] },
  audit: AuditTrail,
): Promise<{ count: number }> {
  const ids = [...new Set(body.ids)];
  const now = ctx.now();
  audit.change({ deleted_at: null }, { deleted_at: now });
  return runInTransaction(
    ctx.db,
    async (trx) => {
      const result = await trx
        .updateTable('resources')
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', ids)
        .where('owner_id', '=', auth.user.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== ids.length) throw refuse('resource.notFound');
      return { count: ids.length };
    },
    { audit },
  );
}
