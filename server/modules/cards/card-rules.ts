import type { AppContext, AuthContext } from '../../context';
import { refuse } from '../../platform/http/errors';
import type { Trx } from '../ledger';
import { lockSelection, type CardViewer, type Selection } from './repo';

// What the card use cases share: time constants, the caller as a viewer, locked selections.

export const MINUTE = 60_000;
export const DAY_OFFSET = 8 * 3_600_000; // Asia/Shanghai, UTC+8, no DST

export const viewerOf = (auth: AuthContext): CardViewer => ({ role: auth.role, id: auth.user.id });

export const remarkColumn = (auth: AuthContext) =>
  auth.role === 'admin' ? ('remark_admin' as const) : ('remark_owner' as const);

export function selectionOf(body: { ids?: number[]; batch_no?: string }): Selection {
  return body.ids ? { ids: body.ids } : { batch_no: body.batch_no ?? '' };
}

/**
 * The selected cards, locked. With `ids` every card must be in scope (else "card not found", the
 * same as for a missing one); with `batch_no` the batch must have a card in scope.
 */
export async function lockedCards(
  ctx: AppContext,
  trx: Trx,
  auth: AuthContext,
  selection: Selection,
) {
  const rows = await lockSelection(trx, ctx.engine, viewerOf(auth), selection);
  if ('ids' in selection ? rows.length !== selection.ids.length : rows.length === 0) {
    throw refuse('card.notFound');
  }
  return rows;
}
