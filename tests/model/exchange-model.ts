/**
 * The exchange dialog's test model: the dialog is the money-call machine of the transfer dialog
 * (transfer-model.ts holds the states, events, serialisation and oracle); here are its drafts and
 * reply.
 */
import type { ExchangeReply } from '../../src/api/contract/money';
import type { ExchangeDraft } from '../../src/machines/exchange';

export const EXCHANGE_DRAFTS: readonly ExchangeDraft[] = [
  { asset: 'digital_man', quantity: 5, cost: '5.00' },
  { asset: 'digital_voice', quantity: 2, cost: '20.00' },
];

export const EXCHANGE_REPLY: ExchangeReply = {
  asset: 'digital_man',
  quantity: 5,
  cost: '5.00',
  money: '1195.50',
  balance: '7500',
};
