import type { CountReply } from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { runMoney } from '../ledger';
import { findUserById } from '../users';
import { reachesUser } from '../users';
import { lockedCards, selectionOf } from './card-rules';

const transferable = (
  card: { owner_id: number; status: number; expire_at: number | null },
  me: number,
  now: number,
) =>
  Number(card.owner_id) === me &&
  Number(card.status) === 0 &&
  (card.expire_at === null || Number(card.expire_at) > now);

/** POST /recharge_card/transfer_card: the caller's unused, unexpired cards to a descendant. */
export async function transferCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids?: number[]; batch_no?: string; to_user_id: number },
  audit: AuditTrail,
): Promise<CountReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      const me = auth.user.id;
      const target = await findUserById(trx, body.to_user_id);
      if (!reachesUser(auth, target)) throw refuse('card.userNotFound');
      const selection = selectionOf(body);
      const rows = await lockedCards(ctx, trx, auth, selection);
      const moving = rows.filter((card) => transferable(card, me, now));
      if (moving.length === 0 || ('ids' in selection && moving.length !== rows.length)) {
        throw refuse('card.notTransferable');
      }
      const ids = moving.map((card) => card.id);
      const updated = await trx
        .updateTable('recharge_cards')
        .set({ owner_id: target.id, updated_at: now })
        .where('id', 'in', ids)
        .where('owner_id', '=', me)
        .where('status', '=', 0)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== ids.length) throw refuse('card.notTransferable');
      audit.target(...ids);
      audit.change({ owner_id: me }, { owner_id: target.id });
      return { count: ids.length };
    },
    undefined,
    audit,
  );
}
