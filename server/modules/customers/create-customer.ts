import type { AddCustomerData, CustomerRow } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { USER_STATUS, type Executor } from '../../platform/db/schema';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { hashPassword } from '../../platform/lib/passwords';
import { lockUsers, runMoney } from '../ledger';
import { insertUser, updateUser } from '../users';
import {
  adminChanges,
  agentOf,
  assertBelowMerchantLimit,
  assertFree,
  defaultMerchantLimit,
  defined,
  livePartner,
  profileChanges,
  rowOf,
  withUniqueCheck,
  type UserChanges,
} from './customer-rules';
import { MERCHANT, PARTNER } from './repo';

export interface NewCustomer {
  userType: number;
  username: string;
  password: string;
  status?: number;
  /** Partner of a merchant or agent; none for a partner (its own id). */
  serviceId?: number;
  agentId?: number | null;
  /** The direct parent stored in `pid`. */
  pid: number;
  columns: UserChanges;
}

export async function insertCustomer(
  ctx: AppContext,
  trx: Executor,
  customer: NewCustomer,
  passwordHash: string,
): Promise<number> {
  const now = ctx.now();
  const columns = defined(customer.columns);
  const id = await insertUser(trx, {
    ...columns,
    user_type: customer.userType,
    pid: customer.pid,
    service_id: customer.serviceId ?? 0,
    agent_id: customer.agentId ?? null,
    username: customer.username,
    password_hash: passwordHash,
    name: columns.name || customer.username,
    mobile: columns.mobile ?? null,
    service_prefix_no: columns.service_prefix_no ?? null,
    status: customer.status ?? USER_STATUS.normal,
    expire_at: columns.expire_at ?? null,
    last_login_at: null,
    last_login_ip: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  // A partner's service_id is its own id.
  if (customer.userType === PARTNER) await updateUser(trx, id, { service_id: id });
  return id;
}

/** POST /provider_service/add (admin): a partner, or a merchant / agent under a partner. */
export async function addCustomer(
  ctx: AppContext,
  auth: AuthContext,
  body: AddCustomerData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  let serviceId: number | undefined;
  let agentId: number | null = null;
  if (body.user_type !== PARTNER) {
    serviceId = (await livePartner(ctx.db, body.service_id!)).id;
    if (body.user_type === MERCHANT && body.agent_id) {
      agentId = (await agentOf(ctx.db, serviceId, body.agent_id)).id;
    }
  }
  const columns: UserChanges = { ...profileChanges(body), ...adminChanges(body) };
  if (body.user_type === PARTNER) {
    columns.service_type = body.service_type ?? 2;
    columns.merchant_count_limit =
      body.merchant_count_limit ?? (await defaultMerchantLimit(ctx.db));
  }
  const unique = {
    username: body.username,
    mobile: columns.mobile ?? null,
    prefix: columns.service_prefix_no ?? null,
  };
  await assertFree(ctx.db, unique);
  const passwordHash = await hashPassword(body.password);
  const id = await withUniqueCheck(ctx, unique, undefined, () =>
    runMoney(
      ctx,
      async (trx) => {
        if (serviceId !== undefined && body.user_type === MERCHANT) {
          await lockUsers(ctx, trx, [serviceId]);
          await assertBelowMerchantLimit(trx, serviceId);
        }
        const newId = await insertCustomer(
          ctx,
          trx,
          {
            userType: body.user_type,
            username: body.username,
            password: body.password,
            status: body.status,
            serviceId,
            agentId,
            pid: serviceId ?? auth.user.id,
            columns,
          },
          passwordHash,
        );
        audit.change(null, {
          username: body.username,
          password_hash: passwordHash,
          user_type: body.user_type,
          service_id: serviceId ?? newId,
          agent_id: agentId,
          ...defined(columns),
        });
        return newId;
      },
      undefined,
      audit,
    ),
  );
  return rowOf(ctx, id);
}
