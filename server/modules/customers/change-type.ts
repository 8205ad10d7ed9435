import type { CustomerRow, EditTypeData } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { lockUsers } from '../ledger';
import { updateUser } from '../users';
import {
  assertBelowMerchantLimit,
  defaultMerchantLimit,
  defined,
  livePartner,
  managedUser,
  rowOf,
  type UserChanges,
} from './customer-rules';
import { MERCHANT, PARTNER, hasChildren, ownsDomains } from './repo';

/**
 * POST /provider_service/edit_type (admin): refused while the user has users under it (or, for a
 * partner, domains). A partner becoming a merchant or agent moves under `service_id`; a merchant or
 * agent may move to another partner too.
 */
export async function changeType(
  ctx: AppContext,
  auth: AuthContext,
  body: EditTypeData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const newType = body.user_type;
  const moving =
    newType !== PARTNER &&
    body.service_id !== undefined &&
    (target.user_type === PARTNER || body.service_id !== target.service_id);
  if (newType === target.user_type && !moving) {
    audit.unchanged();
    return rowOf(ctx, target.id);
  }
  if (await hasChildren(ctx.db, target.id)) throw refuse('customer.hasChildren');
  if (target.user_type === PARTNER && (await ownsDomains(ctx.db, target.id))) {
    throw refuse('customer.hasDomains');
  }
  let changes: UserChanges;
  let serviceId: number;
  if (newType === PARTNER) {
    serviceId = target.id;
    changes = {
      user_type: PARTNER,
      service_id: target.id,
      pid: auth.user.id,
      agent_id: null,
      service_type: 2,
      merchant_count_limit: await defaultMerchantLimit(ctx.db),
    };
  } else {
    if (target.user_type === PARTNER && body.service_id === undefined) {
      throw refuse('validation.partnerRequired');
    }
    serviceId = body.service_id ?? target.service_id;
    if (serviceId === target.id) throw refuse('customer.partnerNotFound');
    await livePartner(ctx.db, serviceId);
    const samePartner = serviceId === target.service_id && target.user_type !== PARTNER;
    changes = {
      user_type: newType,
      service_id: serviceId,
      pid: serviceId,
      // An agent link survives only for a merchant staying with its partner.
      agent_id: newType === MERCHANT && samePartner ? target.agent_id : null,
      service_prefix_no: target.user_type === PARTNER ? null : undefined,
      service_type: target.user_type === PARTNER ? 0 : undefined,
      open_oem: target.user_type === PARTNER ? 0 : undefined,
    };
  }
  audit.change(target, defined(changes));
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const becomesMerchant =
        newType === MERCHANT && (target.user_type !== MERCHANT || serviceId !== target.service_id);
      if (becomesMerchant) {
        await lockUsers(ctx, trx, [serviceId]);
        await assertBelowMerchantLimit(trx, serviceId);
      }
      // Checked again inside the transaction: nobody was added under it meanwhile.
      if (await hasChildren(trx, target.id)) throw refuse('customer.hasChildren');
      await updateUser(trx, target.id, { ...defined(changes), updated_at: ctx.now() });
    },
    { audit },
  );
  return rowOf(ctx, target.id);
}
