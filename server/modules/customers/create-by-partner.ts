import type { AddByServiceData, CustomerRow } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { formatCents } from '../../platform/lib/money';
import { hashPassword } from '../../platform/lib/passwords';
import { postEntry } from '../ledger';
import { lockUsers, runMoney } from '../ledger';
import { readConfig } from '../system';
import { insertCustomer } from './create-customer';
import {
  agentOf,
  assertBelowMerchantLimit,
  assertFree,
  defined,
  profileChanges,
  rowOf,
  withUniqueCheck,
} from './customer-rules';
import { MERCHANT } from './repo';

/**
 * POST /provider_service/add_by_service (partner): a merchant or agent under the caller. A trial
 * credit moves from the partner's money to the new merchant through the ledger, in the same
 * transaction as the insert.
 */
export async function addByService(
  ctx: AppContext,
  auth: AuthContext,
  body: AddByServiceData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const partnerId = auth.user.id;
  const switches = await readConfig(ctx.db, ['saler_show', 'expirence_money_show']);
  if (body.agent_id !== undefined && switches.get('saler_show') !== '1') {
    throw refuse('customer.agentPickerOff');
  }
  if (body.trial_money !== undefined && switches.get('expirence_money_show') !== '1') {
    throw refuse('customer.trialOff');
  }
  const agentId = body.agent_id ? (await agentOf(ctx.db, partnerId, body.agent_id)).id : null;
  const trialCents = body.trial_money ?? 0;
  const columns = profileChanges(body);
  const unique = { username: body.username, mobile: columns.mobile ?? null };
  if (body.user_type === MERCHANT) await assertBelowMerchantLimit(ctx.db, partnerId);
  await assertFree(ctx.db, unique);
  if (trialCents > auth.user.money) {
    throw refuse('customer.trialShort', { amount: formatCents(trialCents) });
  }
  const passwordHash = await hashPassword(body.password);
  const id = await withUniqueCheck(ctx, unique, undefined, () =>
    runMoney(
      ctx,
      async (trx) => {
        await lockUsers(ctx, trx, [partnerId]);
        if (body.user_type === MERCHANT) await assertBelowMerchantLimit(trx, partnerId);
        const now = ctx.now();
        const newId = await insertCustomer(
          ctx,
          trx,
          {
            userType: body.user_type,
            username: body.username,
            password: body.password,
            status: body.status,
            serviceId: partnerId,
            agentId,
            pid: partnerId,
            columns,
          },
          passwordHash,
        );
        if (trialCents > 0) {
          const common = {
            asset: 'money' as const,
            type: 'trial_credit' as const,
            relatedType: 'user',
            relatedId: newId,
            operatorId: auth.user.id,
            now,
          };
          const debited = await postEntry(trx, {
            ...common,
            userId: partnerId,
            change: -trialCents,
            memo: { id: 'memo.trialCreditTo', params: { username: body.username } },
          });
          if (debited === undefined) {
            throw refuse('customer.trialShort', { amount: formatCents(trialCents) });
          }
          await postEntry(trx, {
            ...common,
            userId: newId,
            change: trialCents,
            memo: { id: 'memo.trialCreditFrom', params: { username: auth.user.username } },
          });
        }
        audit.change(null, {
          username: body.username,
          password_hash: passwordHash,
          user_type: body.user_type,
          service_id: partnerId,
          agent_id: agentId,
          money: trialCents > 0 ? formatCents(trialCents) : undefined,
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
