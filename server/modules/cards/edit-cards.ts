import type { CardRow, CountReply, EditCardParams } from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import { refuse } from '../../platform/http/errors';
import { writeAudit } from '../audit';
import { runMoney } from '../ledger';
import { lockedCards, remarkColumn, viewerOf } from './card-rules';
import { findCardRow } from './repo';

/** POST /recharge_card/remark_card: the remark of the caller's role on cards in its scope. */
export function remarkCards(
  ctx: AppContext,
  auth: AuthContext,
  body: { ids: number[]; remark: string },
): Promise<CountReply> {
  return runMoney(ctx, async (trx) => {
    const now = ctx.now();
    const rows = await lockedCards(ctx, trx, auth, { ids: body.ids });
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
  });
}

/** POST /recharge_card/edit_card: unused ↔ void and the expiry of a card that is not used. */
export async function editCard(
  ctx: AppContext,
  auth: AuthContext,
  body: EditCardParams,
): Promise<CardRow> {
  const viewer = viewerOf(auth);
  await runMoney(ctx, async (trx) => {
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
    await writeAudit(trx, {
      actorId: auth.session.overstep_by ?? auth.user.id,
      action: 'card_edit',
      targetType: 'recharge_card',
      targetId: card.id,
      detail: changes,
      now,
    });
  });
  const row = await findCardRow(ctx.db, viewer, body.id, ctx.now());
  if (!row) throw refuse('card.notFound');
  return row;
}
