import type { AddCardsReply, CardAsset } from '../../api/contract/cards';
import { createMoneyCallMachine, type MoneyCallSnapshot } from '../money-call';

/**
 * The "generate cards" dialog: the form → a confirmation (for a partner: the total it pays, face
 * value × quantity) → submitting → done with the batch number, or failed. It is a money call
 * (money-call.ts): the idempotency key is made when the draft is confirmed and every retry of that
 * submission sends it again, so a lost reply never makes (or charges for) a second batch.
 */
export interface GenerateDraft {
  asset: CardAsset;
  /** In the card's unit: money "12.50", digital-human minutes, a clone count. */
  faceValue: string;
  quantity: number;
  /** Epoch ms, or null for "never expires". */
  expireAt: number | null;
  /** Display only, money ("0.00" when none). */
  price: string;
  remark: string;
}

export const generateCardsMachine = createMoneyCallMachine<GenerateDraft, AddCardsReply>(
  'generateCards',
);
export type GenerateCardsSnapshot = MoneyCallSnapshot<GenerateDraft, AddCardsReply>;
