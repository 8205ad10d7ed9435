import type {
  CustomerRow,
  EditByServiceData,
  EditCustomerData,
} from '../../../src/api/contract/customers';
import { PARTNER_FIELDS } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import type { Executor, UserRow } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { readConfigValue } from '../system';
import { countMerchantsOf, updateUser } from '../users';
import {
  adminChanges,
  agentOf,
  assertFree,
  defined,
  hasCards,
  managedUser,
  profileChanges,
  rowOf,
  withUniqueCheck,
  type UserChanges,
} from './customer-rules';
import { MERCHANT, PARTNER } from './repo';

async function saveEdit(
  ctx: AppContext,
  target: UserRow,
  changes: UserChanges,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const columns = defined(changes);
  const unique = {
    mobile: typeof columns.mobile === 'string' ? columns.mobile : null,
    prefix: typeof columns.service_prefix_no === 'string' ? columns.service_prefix_no : null,
  };
  await assertFree(ctx.db, unique, target.id);
  if (Object.keys(columns).length > 0) {
    audit.change(target, columns);
    await withUniqueCheck(ctx, unique, target.id, () =>
      runInTransaction(
        ctx.db,
        (trx) => updateUser(trx, target.id, { ...columns, updated_at: ctx.now() }),
        { audit },
      ),
    );
  } else {
    audit.unchanged();
  }
  return rowOf(ctx, target.id);
}

/** The merchant's agent link: an agent of the same partner, or null. */
async function agentChange(
  db: Executor,
  target: UserRow,
  agentId: number | null | undefined,
): Promise<number | null | undefined> {
  if (agentId === undefined) return undefined;
  if (target.user_type !== MERCHANT) throw refuse('customer.agentMerchantOnly');
  if (agentId === null) return null;
  return (await agentOf(db, target.service_id, agentId)).id;
}

/** POST /provider_service/edit (admin): any customer's profile fields and flags. */
export async function editCustomer(
  ctx: AppContext,
  auth: AuthContext,
  body: EditCustomerData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const sentPartnerFields = PARTNER_FIELDS.filter((f) => body[f] !== undefined);
  if (target.user_type !== PARTNER && sentPartnerFields.length > 0) {
    throw refuse('customer.partnerFieldsOnly');
  }
  if (
    body.service_prefix_no !== undefined &&
    body.service_prefix_no !== (target.service_prefix_no ?? '').toUpperCase() &&
    ((await countMerchantsOf(ctx.db, target.id)) > 0 || (await hasCards(ctx.db, target.id)))
  ) {
    throw refuse('customer.prefixLocked');
  }
  const agentId = await agentChange(ctx.db, target, body.agent_id);
  return saveEdit(
    ctx,
    target,
    { ...profileChanges(body), ...adminChanges(body), agent_id: agentId },
    audit,
  );
}

/** POST /provider_service/edit_by_service (partner): one of its merchants or agents. */
export async function editByService(
  ctx: AppContext,
  auth: AuthContext,
  body: EditByServiceData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  if (body.agent_id !== undefined && (await readConfigValue(ctx.db, 'saler_show')) !== '1') {
    throw refuse('customer.agentPickerOff');
  }
  const agentId = await agentChange(ctx.db, target, body.agent_id);
  return saveEdit(ctx, target, { ...profileChanges(body), agent_id: agentId }, audit);
}
