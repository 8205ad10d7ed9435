/**
 * How cards read on screen. Face values are in the unit printed on a card (contract/cards.ts):
 * money as a 2-decimal string labelled with the branding's money name, digital humans in whole
 * minutes, voice clones as a count. No floats touch money: the contract's integer units only.
 */
import {
  formatFaceValue,
  parseFaceValue,
  type CardAsset,
  type CardRow,
} from '../../api/contract/cards';
import type { MessageId } from '../../i18n/messages';

/** The asset's name; money's takes `{moneyName}`. */
export const CARD_ASSET_LABEL: Record<CardAsset, MessageId> = {
  money: 'cards.assetMoney',
  digital_man: 'cards.assetDigitalMan',
  digital_voice: 'cards.assetDigitalVoice',
};

/** "{amount} {unit}" of each asset; money's takes `{moneyName}`. */
export const CARD_AMOUNT: Record<CardAsset, MessageId> = {
  money: 'cards.amountMoney',
  digital_man: 'cards.amountMinutes',
  digital_voice: 'cards.amountClones',
};

export type CardState = 'unused' | 'used' | 'void' | 'expired';

/** What a person calls a card's state: "expired" is an unused card past its expiry. */
export function cardState(row: Pick<CardRow, 'status' | 'expired'>): CardState {
  if (row.status === 1) return 'used';
  if (row.status === 2) return 'void';
  return row.expired ? 'expired' : 'unused';
}

export const CARD_STATE_LABEL: Record<CardState, MessageId> = {
  unused: 'cards.statusUnused',
  used: 'cards.statusUsed',
  void: 'cards.statusVoid',
  expired: 'cards.statusExpired',
};

export const CARD_STATE_PALETTE: Record<CardState, string> = {
  unused: 'green',
  used: 'gray',
  void: 'red',
  expired: 'orange',
};

/** Face value × quantity in the card's unit: what a partner pays for a batch. */
export function batchTotal(asset: CardAsset, faceValue: string, quantity: number): string | null {
  const units = parseFaceValue(asset, faceValue);
  if (typeof units === 'string') return null;
  return formatFaceValue(asset, units * quantity);
}

/** "Name (account)" of a user. */
export const userLabel = (u: { name: string; username: string }) =>
  u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username;
