import type { Asset, TransferRecord } from '../api/contract/money';
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

export const transferMachine = createMoneyCallMachine<TransferDraft, TransferRecord>('transfer');
export type TransferSnapshot = MoneyCallSnapshot<TransferDraft, TransferRecord>;
