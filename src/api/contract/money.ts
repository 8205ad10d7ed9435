import { z } from 'zod';
import { text } from './text';
import type { ValidationMessageId } from './messages';

const msg = (id: ValidationMessageId) => ({ message: id });

/**
 * Assets and their units (docs/domain.md §3). Amounts cross the API as strings: money with 2 decimals
 * ("12.50"), the others as whole numbers in their balance unit (digital-human seconds, clone counts).
 */
export const ASSETS = ['money', 'digital_man', 'digital_voice', 'image_clone'] as const;
export type Asset = (typeof ASSETS)[number];
export const assetSchema = z.enum(ASSETS, msg('validation.asset'));

/** The largest amount one call may move: 100 000 000.00 money, 10^9 of the other units. */
export const MAX_UNITS: Record<Asset, number> = {
  money: 10_000_000_000,
  digital_man: 1_000_000_000,
  digital_voice: 1_000_000_000,
  image_clone: 1_000_000_000,
};

/**
 * An amount typed by a person or sent by a client, as the asset's integer units (cents, seconds,
 * count), or the message saying what is wrong. Accepts a string or a JSON number; only exact
 * decimals pass (no signs, exponents, or more than 2 places for money, none for the others).
 */
export function parseAmount(asset: Asset, input: unknown): number | ValidationMessageId {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input : '';
  const trimmed = text.trim();
  const pattern = asset === 'money' ? /^(\d{1,16})(?:\.(\d{1,2}))?$/ : /^(\d{1,16})$/;
  const match = pattern.exec(trimmed);
  if (!match) return asset === 'money' ? 'validation.amount' : 'validation.quantity';
  const whole = Number(match[1]);
  const units = asset === 'money' ? whole * 100 + Number((match[2] ?? '').padEnd(2, '0')) : whole;
  if (units <= 0) return asset === 'money' ? 'validation.amount' : 'validation.quantity';
  if (!Number.isSafeInteger(units) || units > MAX_UNITS[asset]) return 'validation.amountTooLarge';
  return units;
}

/** Integer units as the API's amount string ("12.50" for money, "3600" for seconds). */
export function formatUnits(asset: Asset, units: number): string {
  if (asset !== 'money') return String(units);
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const amountInput = z.union([text(), z.number()], msg('validation.amount'));
export const idRule = z
  .number(msg('validation.user'))
  .int(msg('validation.user'))
  .positive(msg('validation.user'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.user'));
const remarkRule = text('validation.invalid').trim().max(200, msg('validation.tooLong'));

/**
 * POST /platform/transfer. `give` (default) moves the amount from the caller to the user; `take`
 * takes it back from the user (a descendant) to the caller. An admin gives from and takes back to
 * the platform (issuance), not its own balance.
 */
export const transferBody = z
  .strictObject({
    to_user_id: idRule,
    asset: assetSchema,
    amount: amountInput,
    remark: remarkRule.optional(),
    direction: z.enum(['give', 'take'], msg('validation.invalid')).optional(),
  })
  .transform((body, ctx) => {
    const units = parseAmount(body.asset, body.amount);
    if (typeof units === 'string') {
      ctx.addIssue({ code: 'custom', message: units, path: ['amount'] });
      return z.NEVER;
    }
    return { ...body, units, direction: body.direction ?? 'give' };
  });
export type TransferBody = z.input<typeof transferBody>;

const flag = z.union([z.literal(0), z.literal(1)], msg('validation.invalid'));

/** POST /platform/edit_transfer_config: the flags sent change, the others stay. */
export const editTransferConfigBody = z.strictObject({
  user_id: idRule,
  can_transfer_money: flag.optional(),
  can_transfer_digital_man: flag.optional(),
  can_transfer_digital_voice: flag.optional(),
});
export type EditTransferConfigBody = z.input<typeof editTransferConfigBody>;

export const EXCHANGE_TARGETS = ['digital_man', 'digital_voice', 'image_clone'] as const;
export type ExchangeTarget = (typeof EXCHANGE_TARGETS)[number];
/** The option of `money_recharge_exchange_config` that enables each exchange (docs/domain.md §3). */
export const EXCHANGE_OPTION: Record<ExchangeTarget, string> = {
  digital_man: '2',
  digital_voice: '3',
  image_clone: '4',
};

/** POST /platform/exchange: money → digital-human minutes, voice clones or image clones. */
export const exchangeBody = z.strictObject({
  asset: z.enum(EXCHANGE_TARGETS, msg('validation.asset')),
  /** Minutes for digital_man, a count for clones. */
  quantity: z
    .number(msg('validation.quantity'))
    .int(msg('validation.quantity'))
    .positive(msg('validation.quantity'))
    .max(1_000_000, msg('validation.amountTooLarge')),
});
export type ExchangeBody = z.input<typeof exchangeBody>;

export interface ExchangeReply {
  asset: ExchangeTarget;
  quantity: number;
  /** Money paid, 2 decimals. */
  cost: string;
  /** The new balances. */
  money: string;
  balance: string;
}

const page = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(1_000_000, msg('validation.invalid'))
  .default(1);
const limit = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(100, msg('validation.invalid'))
  .default(20);
/** Epoch milliseconds (the console converts the viewer's dates). */
const time = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(0, msg('validation.invalid'))
  .max(8_640_000_000_000_000, msg('validation.invalid'));
const queryId = z.coerce
  .number(msg('validation.user'))
  .int(msg('validation.user'))
  .positive(msg('validation.user'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.user'));

export const pageQuery = { page, limit };

export const LEDGER_TYPES = [
  'recharge',
  'card_redeem',
  'card_issue',
  'card_refund',
  'transfer_in',
  'transfer_out',
  'exchange',
  'task_freeze',
  'task_settle',
  'task_refund',
  'admin_adjust',
  'trial_credit',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** GET /platform/user_money_log: one user's ledger (default the caller's; others in scope). */
export const moneyLogQuery = z.strictObject({
  ...pageQuery,
  user_id: queryId.optional(),
  asset: assetSchema.optional(),
  type: z.enum(LEDGER_TYPES, msg('validation.invalid')).optional(),
  start: time.optional(),
  end: time.optional(),
});
export type MoneyLogQuery = z.input<typeof moneyLogQuery>;
export type MoneyLogParams = z.output<typeof moneyLogQuery>;

export interface MoneyLogRow {
  id: number;
  user_id: number;
  username: string;
  asset: Asset;
  type: LedgerType;
  /** Signed amount strings in the asset's API unit. */
  change: string;
  before: string;
  after: string;
  memo: string;
  related_type: string | null;
  related_id: number | null;
  operator_id: number | null;
  created_at: number;
}

/** GET /platform/transfer_record: transfers the caller may see. */
export const transferRecordQuery = z.strictObject({
  ...pageQuery,
  /** Relative to `user_id` (default the caller): in = received, out = sent. */
  direction: z.enum(['in', 'out'], msg('validation.invalid')).optional(),
  user_id: queryId.optional(),
  asset: assetSchema.optional(),
  transfer_no: text().trim().max(40, msg('validation.tooLong')).optional(),
  start: time.optional(),
  end: time.optional(),
});
export type TransferRecordQuery = z.input<typeof transferRecordQuery>;
export type TransferRecordParams = z.output<typeof transferRecordQuery>;

export interface TransferRecord {
  id: number;
  transfer_no: string;
  from_user_id: number;
  from_username: string;
  from_name: string;
  to_user_id: number;
  to_username: string;
  to_name: string;
  asset: Asset;
  amount: string;
  /** Balances around the transfer; null on the platform's side (an admin's transfers). */
  from_before: string | null;
  from_after: string | null;
  to_before: string | null;
  to_after: string | null;
  remark: string;
  operator_id: number;
  operator_username: string;
  created_at: number;
}

export interface ListReply<T> {
  list: T[];
  total: number;
}
