import type { Account } from '../api/contract/dashboard';
import {
  formatUnits,
  parseAmount,
  transferBody,
  type Asset,
  type TransferRecord,
} from '../api/contract/money';
import { fieldErrors, type Checked, type FieldErrors } from './draft-dialog';
import { createMoneyCallMachine, type MoneyCallSnapshot } from './money-call';

/**
 * The transfer (划拨) dialog: pick a user, an asset, give or take back, an amount → confirm →
 * submit → the record, or the failure with a retry under the same idempotency key (money-call.ts).
 */
export interface TransferDraft {
  toUserId: number;
  /** How the person picked the user (name and account), shown on the confirmation. */
  toLabel: string;
  asset: Asset;
  direction: 'give' | 'take';
  /** The API's amount: money with 2 decimals, digital-human seconds, a clone count. */
  amount: string;
  remark: string;
}

// Amounts as people type them, turned into the API's (an error is a message id).
/** Digital-human time typed as whole minutes and whole seconds (0–59), as it is shown. */
export interface DhTimeTyped {
  minutes: string;
  seconds: string;
}

/** What a person typed as the API's amount (money: 2 decimals at most; clones: a count). */
export function amountForApi(asset: Asset, typed: string): { amount: string } | { error: string } {
  const units = parseAmount(asset, typed);
  return typeof units === 'string' ? { error: units } : { amount: formatUnits(asset, units) };
}

/**
 * Digital-human minutes and seconds as the API's seconds. The shared contract's `parseAmount`
 * decides what passes, so the form refuses what the server would.
 */
export function dhTimeForApi(typed: DhTimeTyped): { amount: string } | { error: string } {
  const part = (text: string) =>
    text.trim() === '' ? 0 : /^\d{1,9}$/.test(text.trim()) ? Number(text) : Number.NaN;
  const min = part(typed.minutes);
  const sec = part(typed.seconds);
  if (!Number.isFinite(min) || !Number.isFinite(sec) || sec > 59) {
    return { error: 'property.dhTimeInvalid' };
  }
  const units = parseAmount('digital_man', String(min * 60 + sec));
  if (units === 'validation.quantity') return { error: 'property.dhTimeInvalid' };
  return typeof units === 'string'
    ? { error: units }
    : { amount: formatUnits('digital_man', units) };
}

/** An amount of the API (money "12.50", seconds, a count) in whole units (money in cents). */
export function apiUnits(asset: Asset, amount: string): number {
  if (asset !== 'money') return Number(amount);
  const [whole, fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
}

/** The caller's balance of an asset in whole units (money in cents). */
export function balanceUnits(account: Account, asset: Asset): number {
  switch (asset) {
    case 'money':
      return apiUnits('money', account.money);
    case 'digital_man':
      return account.digital_man_seconds;
    case 'digital_voice':
      return account.voice_clone_count;
    default:
      return account.image_clone_count;
  }
}

export interface PickedUser {
  id: number;
  label: string;
}

/** The transfer form as typed (digital-human time in minutes and seconds). */
export interface TransferForm {
  /** The recipient search's keyword. */
  keyword: string;
  picked: PickedUser | null;
  /** '' until the person picks one: the first asset on offer. */
  asset: Asset | '';
  direction: 'give' | 'take';
  amount: string;
  minutes: string;
  seconds: string;
  remark: string;
}

export const EMPTY_TRANSFER: TransferForm = {
  keyword: '',
  picked: null,
  asset: '',
  direction: 'give',
  amount: '',
  minutes: '',
  seconds: '',
  remark: '',
};

/** What the dialog knows beside the form: the assets on offer, the caller's balances (or null). */
export interface TransferLimits {
  assets: readonly Asset[];
  balances: Account | null;
}

/** The asset the form stands for: the picked one if on offer, else the first. */
export const assetOf = (form: TransferForm, assets: readonly Asset[]): Asset | undefined =>
  assets.includes(form.asset as Asset) ? (form.asset as Asset) : assets[0];

/** The form against the contract's transfer body; more than the caller holds is refused here. */
export function checkTransfer(form: TransferForm, limits: TransferLimits): Checked<TransferDraft> {
  const asset = assetOf(form, limits.assets);
  const found: FieldErrors = {};
  const converted = !asset
    ? { error: 'validation.asset' }
    : asset === 'digital_man'
      ? dhTimeForApi({ minutes: form.minutes, seconds: form.seconds })
      : amountForApi(asset, form.amount);
  if ('error' in converted) found.amount = converted.error;
  const body = {
    to_user_id: form.picked?.id ?? 0,
    asset,
    amount: 'amount' in converted ? converted.amount : form.amount,
    remark: form.remark,
    direction: form.direction,
  };
  const parsed = transferBody.safeParse(body);
  if (!parsed.success) Object.assign(found, fieldErrors(transferBody, body), found);
  // Giving more than one holds could only be refused: said here, before confirming.
  if (
    !found.amount &&
    parsed.success &&
    form.direction === 'give' &&
    limits.balances &&
    apiUnits(parsed.data.asset, String(parsed.data.amount)) >
      balanceUnits(limits.balances, parsed.data.asset)
  ) {
    found.amount = 'property.overBalance';
  }
  if (Object.keys(found).length || !parsed.success || !form.picked) return { errors: found };
  return {
    draft: {
      toUserId: form.picked.id,
      toLabel: form.picked.label,
      asset: parsed.data.asset,
      direction: form.direction,
      amount: String(parsed.data.amount),
      remark: parsed.data.remark ?? '',
    },
  };
}

export const transferMachine = createMoneyCallMachine<
  TransferDraft,
  TransferRecord,
  TransferForm,
  TransferLimits
>('transfer', { empty: EMPTY_TRANSFER, check: checkTransfer });
export type TransferSnapshot = MoneyCallSnapshot<
  TransferDraft,
  TransferRecord,
  TransferForm,
  TransferLimits
>;
