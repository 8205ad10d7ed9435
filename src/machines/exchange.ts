import type { ExchangeReply, ExchangeTarget } from '../api/contract/money';
import { createMoneyCallMachine, type MoneyCallSnapshot } from './money-call';

/**
 * The exchange dialog: money → digital-human minutes, voice clones or image clones; pick the
 * target and the quantity (seeing the price and the cost) → confirm → submit → the new balances,
 * or the failure with a retry under the same idempotency key (money-call.ts).
 */
export interface ExchangeDraft {
  asset: ExchangeTarget;
  /** Minutes for digital_man, a count for clones. */
  quantity: number;
  /** The cost shown before confirming (2 decimals), null when the price is not known here. */
  cost: string | null;
}

export const exchangeMachine = createMoneyCallMachine<ExchangeDraft, ExchangeReply>('exchange');
export type ExchangeSnapshot = MoneyCallSnapshot<ExchangeDraft, ExchangeReply>;
