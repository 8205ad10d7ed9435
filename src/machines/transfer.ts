import type { Account } from '../api/contract/dashboard';
import { transferBody, type Asset, type TransferRecord } from '../api/contract/money';
import { amountForApi, apiUnits, balanceUnits, dhTimeForApi } from './typed-input';
import { fieldErrors, type Checked, type FieldErrors } from './draft-form';
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
