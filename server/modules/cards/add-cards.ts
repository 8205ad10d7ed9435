import { randomInt } from 'node:crypto';
import type { Insertable } from 'kysely';
import {
  formatFaceValue,
  type AddCardsInput,
  type AddCardsReply,
} from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import type { RechargeCardsTable } from '../../platform/db/schema';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { lockUsers, post, postSystem, runMoney, type Idempotency } from '../ledger';
import { findUserById } from '../users';
import { DAY_OFFSET, remarkColumn } from './card-rules';
import { insertCards, reserveSequence } from './repo';

const PWD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';
const PWD_LENGTH = 16;

/** yyMMdd of the business day (Asia/Shanghai). */
function businessDay(now: number): string {
  return new Date(now + DAY_OFFSET).toISOString().slice(2, 10).replaceAll('-', '');
}

export function newCardPassword(): string {
  let pwd = '';
  for (let i = 0; i < PWD_LENGTH; i += 1) pwd += PWD_ALPHABET[randomInt(PWD_ALPHABET.length)];
  return pwd;
}

/**
 * POST /recharge_card/add. One transaction: the card numbers of the prefix's day are reserved,
 * a partner pays face value × quantity from its balance (an admin's cards are minted by the
 * platform), the value goes into the platform's `cards` account, the cards are written.
 */
export function addCards(
  ctx: AppContext,
  auth: AuthContext,
  input: AddCardsInput,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<AddCardsReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      if (input.expire_at !== null && input.expire_at <= now) throw refuse('card.expiryPast');
      const actor = await findUserById(trx, auth.user.id);
      if (!actor) throw refuse('card.userNotFound');
      const partner = auth.role === 'partner';
      const total = input.units * input.quantity;
      if (!Number.isSafeInteger(total)) throw refuse('money.insufficient');
      // Lock order everywhere: cards → users → card_sequences → platform accounts.
      if (partner) await lockUsers(ctx, trx, [actor.id]);
      const prefix = `${(partner && actor.service_prefix_no) || 'P'}${businessDay(now)}`;
      const first = await reserveSequence(trx, prefix, input.quantity);
      if (first === undefined) throw refuse('card.sequenceFull');
      const cardNo = (seq: number) => `${prefix}${String(seq).padStart(6, '0')}`;
      const batchNo = `B${cardNo(first)}`;
      const common = { asset: input.asset, relatedType: 'card_batch', now };
      if (partner) {
        await post(trx, {
          ...common,
          userId: actor.id,
          type: 'card_issue',
          change: -total,
          memo: batchNo,
          operatorId: auth.session.overstep_by ?? actor.id,
        });
      }
      await postSystem(trx, { ...common, account: 'cards', change: total });
      if (!partner) await postSystem(trx, { ...common, account: 'issuance', change: -total });
      const rows: Insertable<RechargeCardsTable>[] = [];
      for (let i = 0; i < input.quantity; i += 1) {
        rows.push({
          card_no: cardNo(first + i),
          card_pwd: newCardPassword(),
          batch_no: batchNo,
          asset: input.asset,
          face_value: input.units,
          price: input.price,
          creator_id: actor.id,
          owner_id: actor.id,
          service_id: partner ? actor.id : 0,
          paid_by: partner ? actor.id : null,
          status: 0,
          used_by: null,
          used_at: null,
          expire_at: input.expire_at,
          [remarkColumn(auth)]: input.remark,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
      }
      audit.target(...(await insertCards(trx, rows)));
      audit.change(null, {
        batch_no: batchNo,
        asset: input.asset,
        face_value: formatFaceValue(input.asset, input.units),
        quantity: input.quantity,
        expire_at: input.expire_at,
      });
      return { batch_no: batchNo, count: input.quantity };
    },
    idempotency,
    audit,
  );
}
