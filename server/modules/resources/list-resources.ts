import type { ResourceListParams, ResourcePage } from '../../../src/api/contract/resources';
import type { AppContext, AuthContext } from '../../context';
import { listResources } from './repo';
import { toResource } from './resource-reply';

/** GET /resource/list: a page of the caller's own live resources, newest first. */
export async function resourceList(
  ctx: AppContext,
  auth: AuthContext,
  query: ResourceListParams,
): Promise<ResourcePage> {
  const { page, limit, ...filter } = query;
  const { rows, total } = await listResources(
    ctx.db,
    auth.user.id,
    filter,
    { page, limit },
    ctx.now(),
  );
  return { list: await Promise.all(rows.map((row) => toResource(ctx, row))), total };
}
