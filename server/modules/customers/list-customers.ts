import type {
  CustomerListFilter,
  CustomerPage,
  PlatformUserListFilter,
  PlatformUserPage,
} from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { JsonText } from '../../platform/http/json-text';
import { findUserById } from '../users';
import { listCustomers as selectPage, listUsedPrefixes, pickUsers as selectPickable } from './repo';

const DEFAULT_LIMIT = 20;

/** GET /provider_service: a page of the customers in the caller's scope. */
export async function listCustomers(
  ctx: AppContext,
  auth: AuthContext,
  query: CustomerListFilter,
): Promise<JsonText<CustomerPage>> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  let parentType: number | undefined;
  if (query.pid !== undefined) {
    parentType = (await findUserById(ctx.db, query.pid))?.user_type;
  }
  const { rows, total } = await selectPage(ctx.db, ctx.engine, auth, {
    userType: query.user_type,
    keyword: query.keyword || undefined,
    status: query.status,
    serviceId: query.service_id,
    agentId: query.agent_id,
    parentId: query.pid,
    parentType,
    createdFrom: query.created_from,
    createdTo: query.created_to,
    sort: query.sort ?? 'id',
    order: query.order ?? 'desc',
    offset: (page - 1) * limit,
    limit,
  });
  // The rows as the database wrote them (JSON text), not parsed and written again.
  return new JsonText(`{"list":[${rows.join(',')}],"total":${total}}`);
}

export async function usedPrefixes(ctx: AppContext): Promise<string[]> {
  return listUsedPrefixes(ctx.db);
}

export async function platformUsers(
  ctx: AppContext,
  auth: AuthContext,
  query: PlatformUserListFilter,
): Promise<PlatformUserPage> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const { rows, total } = await selectPickable(ctx.db, auth, {
    userType: query.user_type,
    keyword: query.keyword || undefined,
    offset: (page - 1) * limit,
    limit,
  });
  return { list: rows.map((r) => ({ ...r, mobile: r.mobile ?? '' })), total };
}
