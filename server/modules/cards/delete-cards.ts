import { CARD_ASSETS, type CardAsset, type CountReply } from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { lockUsers, post, postSystem, runMoney } from '../ledger';
import { lockedCards, selectionOf } from './card-rules';

/**
 * POST /recharge_card/batch_del: soft-deletes unused and void cards; each card's face value goes
 * back to whoever paid it (`card_refund` on the partner's ledger) or to the platform's issuance
 * (minted cards), out of the `cards` account.
 */
export function deleteCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids?: number[]; batch_no?: string },
  audit: AuditTrail,
): Promise<CountReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      const selection = selectionOf(body);
      const rows = await lockedCards(ctx, trx, auth, selection);
      const doomed = rows.filter((card) => Number(card.status) !== 1);
      if (doomed.length === 0 || ('ids' in selection && doomed.length !== rows.length)) {
        throw refuse('card.usedNotDeletable');
      }
      const ids = doomed.map((card) => card.id);
      const deleted = await trx
        .updateTable('recharge_cards')
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', ids)
        .where('status', 'in', [0, 2])
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(deleted.numUpdatedRows) !== ids.length) throw refuse('card.usedNotDeletable');

      // Sums per payer and asset; 0 stands for the platform (minted cards).
      const refunds = new Map<string, { payer: number; asset: CardAsset; units: number }>();
      for (const card of doomed) {
        const payer = card.paid_by === null ? 0 : Number(card.paid_by);
        const k = `${payer}:${card.asset}`;
        const entry = refunds.get(k) ?? { payer, asset: card.asset, units: 0 };
        entry.units += Number(card.face_value);
        refunds.set(k, entry);
      }
      const payers = [...refunds.values()].filter((r) => r.payer !== 0).map((r) => r.payer);
      await lockUsers(ctx, trx, payers);
      const operatorId = auth.session.overstep_by ?? auth.user.id;
      const common = { relatedType: 'card_delete', now };
      for (const refund of [...refunds.values()].sort((a, b) => a.payer - b.payer)) {
        if (refund.payer === 0) continue;
        await post(trx, {
          ...common,
          userId: refund.payer,
          asset: refund.asset,
          type: 'card_refund',
          change: refund.units,
          memo: body.batch_no ?? '',
          operatorId,
        });
      }
      for (const asset of CARD_ASSETS) {
        const all = [...refunds.values()].filter((r) => r.asset === asset);
        const units = all.reduce((sum, r) => sum + r.units, 0);
        if (units > 0)
          await postSystem(trx, { ...common, account: 'cards', asset, change: -units });
      }
      for (const asset of CARD_ASSETS) {
        const minted = refunds.get(`0:${asset}`)?.units ?? 0;
        if (minted > 0) {
          await postSystem(trx, { ...common, account: 'issuance', asset, change: minted });
        }
      }
      audit.target(...ids);
      audit.change({ deleted_at: null }, { deleted_at: now });
      return { count: ids.length };
    },
    undefined,
    audit,
  );
}
