import {
  exchangeBody,
  formatUnits,
  parseAmount,
  type ExchangeReply,
  type ExchangeTarget,
} from '../api/contract/money';
import type { Checked } from './draft-dialog';
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

/** The form as typed: '' until the person picks a target (the first on offer). */
export interface ExchangeForm {
  asset: ExchangeTarget | '';
  quantity: string;
}

export const EMPTY_EXCHANGE: ExchangeForm = { asset: '', quantity: '' };

/** A target on offer and its price. */
export interface ExchangeOption {
  asset: ExchangeTarget;
  /** Money per unit (minute or clone), or null when this console is not told it. */
  price: string | null;
}

/** Price × quantity as a money string, or null when the price is not a 2-decimal amount. */
export function costOf(price: string | null, quantity: number): string | null {
  if (price === null) return null;
  const cents = parseAmount('money', price);
  if (typeof cents === 'string') return null;
  return formatUnits('money', cents * quantity);
}

/** The target the form stands for: the picked one if on offer, else the first. */
export const targetOf = (form: ExchangeForm, options: readonly ExchangeOption[]) =>
  options.find((o) => o.asset === form.asset) ?? options[0];

/** The quantity typed, as a whole number, or null. */
export const quantityOf = (form: ExchangeForm): number | null =>
  /^\d{1,7}$/.test(form.quantity.trim()) ? Number(form.quantity.trim()) : null;

/** The form against the contract's `/exchange` body (one message, under the quantity). */
export function checkExchange(
  form: ExchangeForm,
  options: readonly ExchangeOption[],
): Checked<ExchangeDraft> {
  const option = targetOf(form, options);
  const typed = quantityOf(form);
  const parsed = exchangeBody.safeParse({
    asset: option?.asset ?? '',
    quantity: typed ?? Number.NaN,
  });
  if (!parsed.success || !option) {
    return { errors: { quantity: parsed.error?.issues[0]?.message ?? 'validation.asset' } };
  }
  const cost = typed ? costOf(option.price, typed) : null;
  return { draft: { ...parsed.data, cost } };
}

export const exchangeMachine = createMoneyCallMachine<
  ExchangeDraft,
  ExchangeReply,
  ExchangeForm,
  readonly ExchangeOption[]
>('exchange', { empty: EMPTY_EXCHANGE, check: checkExchange });
export type ExchangeSnapshot = MoneyCallSnapshot<
  ExchangeDraft,
  ExchangeReply,
  ExchangeForm,
  readonly ExchangeOption[]
>;
