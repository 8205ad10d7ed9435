import type {
  CanOperateParams,
  CardListParams,
  CardListReply,
} from '../../../src/api/contract/cards';
import type { AppContext, AuthContext } from '../../context';
import { viewerOf } from './card-rules';
import { listCards, listOperableCards } from './repo';

/** GET /recharge_card/card_list: a page of the cards in the caller's scope. */
export function cardList(
  ctx: AppContext,
  auth: AuthContext,
  query: CardListParams,
): Promise<CardListReply> {
  const { page, limit, ...filter } = query;
  return listCards(ctx.db, viewerOf(auth), filter, { page, limit }, ctx.now());
}

/** GET /recharge_card/can_operate_card_list: the unused cards the caller holds. */
export function operableCards(
  ctx: AppContext,
  auth: AuthContext,
  query: CanOperateParams,
): Promise<CardListReply> {
  const { page, limit, ...filter } = query;
  return listOperableCards(ctx.db, viewerOf(auth), filter, { page, limit }, ctx.now());
}
