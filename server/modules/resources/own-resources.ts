import type { Resource } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import type { ResourceRow } from './repo';
import { toResource } from './resource-reply';

/**
 * The owner's live resources among `ids`, as the library shows them (the form of a preset or a
 * duplicated task shows them again); another's, a deleted one or a missing one is left out.
 */
export async function ownResources(
  ctx: Pick<AppContext, 'db' | 'storage' | 'now'>,
  ownerId: number,
  ids: readonly number[],
): Promise<Resource[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = (await ctx.db
    .selectFrom('resources')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', 'in', unique)
    .where('deleted_at', 'is', null)
    .where('file_deleted_at', 'is', null)
    .orderBy('id')
    .execute()) as ResourceRow[];
  return Promise.all(rows.map((row) => toResource(ctx, row)));
}
