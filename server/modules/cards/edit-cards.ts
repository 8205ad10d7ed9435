import type { CardRow, CountReply, EditCardParams } from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { runMoney } from '../ledger';
import { lockedCards, remarkColumn, viewerOf } from './card-rules';
import { findCardRow } from './repo';

/** POST /recharge_card/remark_card: the remark of the caller's role on cards in its scope. */
export function remarkCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids: number[]; remark: string },
  audit: AuditTrail,
): Promise<CountReply> {
  return runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      const rows = await lockedCards(ctx, trx, auth, { ids: body.ids });
      audit.change(null, { [remarkColumn(auth)]: body.remark });
      await trx
        .updateTable('recharge_cards')
        .set({ [remarkColumn(auth)]: body.remark, updated_at: now })
        .where(
          'id',
          'in',
          rows.map((card) => card.id),
        )
        .execute();
      return { count: rows.length };
    },
    undefined,
    audit,
  );
}

/** POST /recharge_card/edit_card: unused ↔ void and the expiry of a card that is not used. */
export async function editCard(
  ctx: AppContext,
  auth: AuthContext,
  body: EditCardParams,
  audit: AuditTrail,
): Promise<CardRow> {
  const viewer = viewerOf(auth);
  await runMoney(
    ctx,
    async (trx) => {
      const now = ctx.now();
      const [card] = await lockedCards(ctx, trx, auth, { ids: [body.id] });
      if (Number(card.status) === 1) throw refuse('card.usedImmutable');
      if (body.expire_at !== undefined && body.expire_at !== null && body.expire_at <= now) {
        throw refuse('card.expiryPast');
      }
      const changes: { status?: number; expire_at?: number | null } = {};
      if (body.status !== undefined) changes.status = body.status;
      if (body.expire_at !== undefined) changes.expire_at = body.expire_at;
      const updated = await trx
        .updateTable('recharge_cards')
        .set({ ...changes, updated_at: now })
        .where('id', '=', card.id)
        .where('status', 'in', [0, 2])
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw refuse('card.usedImmutable');
      audit.change(card, changes);
    },
    undefined,
    audit,
  );
  const row = await findCardRow(ctx.db, viewer, body.id, ctx.now());
  if (!row) throw refuse('card.notFound');
  return row;
}
