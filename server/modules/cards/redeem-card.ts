import { timingSafeEqual } from 'node:crypto';
import { formatFaceValue, type UseCardReply } from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import { releaseAttempt, reserveAttempt, type ThrottleRule } from '../auth';
import { post, postSystem, runMoney } from '../ledger';
import { MINUTE } from './card-rules';
import { findCardById, findCardByNo } from './repo';

/** Wrong card numbers or passwords per user: 10 within 15 minutes lock redeeming for 15 minutes. */
export const REDEEM_RULE: ThrottleRule = { limit: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
function samePassword(stored: string, typed: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(typed);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST /recharge_card/use_card. A card number that does not exist, a wrong password and a card
 * of another service all answer "card not found" and count against the caller's throttle
 * (REDEEM_RULE); the card is then marked used by a conditional update (`WHERE status = 0`) in the
 * same transaction that credits it, so however many requests race, one wins.
 */
export async function useCard(
  ctx: AppContext,
  auth: AuthContext,
  body: { card_no: string; card_pwd: string },
  audit: AuditTrail,
): Promise<UseCardReply> {
  const me = auth.user;
  const key = `card:${me.id}`;
  const start = ctx.now();
  const lockedUntil = await ctx.db
    .transaction()
    .execute((trx) => reserveAttempt(trx, key, REDEEM_RULE, start));
  if (lockedUntil !== null) {
    throw refuse('card.throttled', {
      minutes: Math.max(1, Math.ceil((lockedUntil - start) / MINUTE)),
    });
  }
  const release = () =>
    ctx.db.transaction().execute((trx) => releaseAttempt(trx, key, REDEEM_RULE));
  try {
    const reply = await runMoney(
      ctx,
      async (trx) => {
        const now = ctx.now();
        const card = await findCardByNo(trx, body.card_no);
        if (
          !card ||
          !samePassword(card.card_pwd, body.card_pwd) ||
          (Number(card.service_id) !== 0 && Number(card.service_id) !== me.service_id)
        ) {
          throw refuse('card.notFound');
        }
        const refusal = (
          row: { status: number; expire_at: number | null; deleted_at: number | null } | undefined,
        ) => {
          if (!row || row.deleted_at !== null) return refuse('card.notFound');
          if (Number(row.status) === 1) return refuse('card.used');
          if (Number(row.status) === 2) return refuse('card.void');
          return refuse('card.expired');
        };
        if (
          Number(card.status) !== 0 ||
          (card.expire_at !== null && Number(card.expire_at) <= now)
        ) {
          throw refusal(card);
        }
        const updated = await trx
          .updateTable('recharge_cards')
          .set({ status: 1, used_by: me.id, used_at: now, updated_at: now })
          .where('id', '=', card.id)
          .where('status', '=', 0)
          .where('deleted_at', 'is', null)
          .where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]))
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw refusal(await findCardById(trx, card.id));
        const face = Number(card.face_value);
        const common = { asset: card.asset, relatedType: 'recharge_card', relatedId: card.id, now };
        await post(trx, {
          ...common,
          userId: me.id,
          type: 'card_redeem',
          change: face,
          memo: card.card_no,
          operatorId: auth.session.overstep_by ?? me.id,
        });
        await postSystem(trx, { ...common, account: 'cards', change: -face });
        audit.change({ status: 0, used_by: null }, { status: 1, used_by: me.id });
        return {
          id: card.id,
          card_no: card.card_no,
          asset: card.asset,
          face_value: formatFaceValue(card.asset, face),
        };
      },
      undefined,
      audit,
    );
    await release();
    return reply;
  } catch (error) {
    // Only a wrong number or password counts; whoever knows the password is not guessing.
    if (!(error instanceof AppError && error.messageId === 'card.notFound')) await release();
    throw error;
  }
}
