/**
 * The money area (/account/property, docs/domain.md §3): the caller's balances, the ledger, the
 * transfer records, the exchange and transfer dialogs and the transfer's recipient search. Every
 * change of a balance reloads what shows it, wired here as events between actors: a transfer or
 * exchange that may have moved something, an order seen paid (recharge area), a card redeemed
 * (cards area), paid work submitted or finished (the balance news area: tasks, videos, clones).
 */
import { createActor, fromPromise } from 'xstate';
import type { Account } from '../../api/contract/dashboard';
import type { PlatformUserRow } from '../../api/contract/customers';
import type { Asset, MoneyLogRow, TransferRecord } from '../../api/contract/money';
import { getAccount } from '../../api/dashboard';
import * as moneyApi from '../../api/money';
import { dayRange } from '../../components/dates';
import { exchangeMachine } from '../../machines/exchange';
import { transferMachine } from '../../machines/transfer';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea, type BalanceNews } from './balance-news';
import { cardsArea } from './cards';
import { listActor, loadActor, whenChanged } from './factories';
import { rechargeArea } from './recharge';

export interface MoneyEndpoints {
  getAccount: typeof getAccount;
  getMoneyLog: typeof moneyApi.getMoneyLog;
  getTransferRecords: typeof moneyApi.getTransferRecords;
  transfer: typeof moneyApi.transfer;
  exchange: typeof moneyApi.exchange;
  getPlatformUsers: typeof moneyApi.getPlatformUsers;
  newIdempotencyKey: () => string;
}

export interface LedgerFilters {
  asset: string;
  type: string;
  from: string;
  to: string;
}
export const NO_LEDGER_FILTERS: LedgerFilters = { asset: '', type: '', from: '', to: '' };

/** The list query of the ledger filters (epoch ms of the viewer's days). */
export function ledgerQuery(f: LedgerFilters) {
  return {
    asset: (f.asset || undefined) as MoneyLogRow['asset'] | undefined,
    type: (f.type || undefined) as MoneyLogRow['type'] | undefined,
    ...dayRange(f.from, f.to),
  };
}

export interface TransferFilters {
  direction: string;
  asset: string;
  from: string;
  to: string;
}
export const NO_TRANSFER_FILTERS: TransferFilters = { direction: '', asset: '', from: '', to: '' };

export function transferQuery(f: TransferFilters) {
  return {
    direction: (f.direction || undefined) as 'in' | 'out' | undefined,
    asset: (f.asset || undefined) as Asset | undefined,
    ...dayRange(f.from, f.to),
  };
}

const PICKER_LIMIT = 50;

/**
 * Names each submission that ended (done, or failed without a reply: it may have moved
 * something), '' otherwise; a change means "reload". A refusal moved nothing.
 */
export function movedSomething(snapshot: {
  value: unknown;
  context: { attempts: number; uncertain: boolean };
}): string {
  const settled =
    snapshot.value === 'done' || (snapshot.value === 'failed' && snapshot.context.uncertain);
  return settled ? `${snapshot.context.attempts}:${String(snapshot.value)}` : '';
}

function createMoneyActors(
  e: MoneyEndpoints,
  recharge: RechargeLike,
  cards: CardsLike,
  news: Pick<BalanceNews, 'onMoved'>,
) {
  return lazyActors(
    {
      account: () => loadActor<Account>('propertyAccount', (signal) => e.getAccount({ signal })),
      ledger: () =>
        listActor<LedgerFilters, MoneyLogRow>(
          'ledger',
          ({ filters, page, limit }, signal) =>
            e.getMoneyLog({ ...ledgerQuery(filters), page, limit }, { signal }),
          NO_LEDGER_FILTERS,
        ),
      transfers: () =>
        listActor<TransferFilters, TransferRecord>(
          'transferRecords',
          ({ filters, page, limit }, signal) =>
            e.getTransferRecords({ ...transferQuery(filters), page, limit }, { signal }),
          NO_TRANSFER_FILTERS,
        ),
      exchange: () =>
        createActor(
          exchangeMachine.provide({
            actors: {
              submit: fromPromise(({ input }) =>
                e.exchange({ asset: input.draft.asset, quantity: input.draft.quantity }, input.key),
              ),
            },
          }),
          { input: { newKey: e.newIdempotencyKey } },
        ),
      transfer: () =>
        createActor(
          transferMachine.provide({
            actors: {
              submit: fromPromise(({ input }) =>
                e.transfer(
                  {
                    to_user_id: input.draft.toUserId,
                    asset: input.draft.asset,
                    amount: input.draft.amount,
                    direction: input.draft.direction,
                    ...(input.draft.remark ? { remark: input.draft.remark } : {}),
                  },
                  input.key,
                ),
              ),
            },
          }),
          { input: { newKey: e.newIdempotencyKey } },
        ),
      /** The transfer dialog's recipients, found by keyword. */
      recipients: () =>
        listActor<{ keyword: string }, PlatformUserRow>(
          'transferRecipients',
          ({ filters, page, limit }, signal) =>
            e.getPlatformUsers({ keyword: filters.keyword || undefined, page, limit }, { signal }),
          { keyword: '' },
          PICKER_LIMIT,
        ),
    },
    (_actors, started) => {
      const balancesChanged = () => {
        started('account')?.send({ type: 'RELOAD' });
        started('ledger')?.send({ type: 'RELOAD' });
      };
      const moved = () => {
        balancesChanged();
        started('transfers')?.send({ type: 'RELOAD' });
      };
      return {
        // The other areas' changes of a balance, followed once the balances are shown.
        account: () => [
          recharge.buy.on('paid', balancesChanged),
          whenChanged(cards.redeem, (s) => s.context.redeemed, balancesChanged),
          news.onMoved(balancesChanged),
        ],
        exchange: (exchange) => [whenChanged(exchange, movedSomething, moved)],
        transfer: (transfer) => [whenChanged(transfer, movedSomething, moved)],
      };
    },
  );
}

type RechargeLike = Pick<ReturnType<typeof rechargeArea.create>, 'buy'>;
type CardsLike = Pick<ReturnType<typeof cardsArea.create>, 'redeem'>;

export type MoneyActors = ReturnType<typeof createMoneyActors>;

export const moneyArea = defineArea<MoneyEndpoints, MoneyActors>({
  key: 'money',
  live: () => ({ ...moneyApi, getAccount }),
  create: (endpoints, areas) =>
    createMoneyActors(
      endpoints,
      areas.get(rechargeArea),
      areas.get(cardsArea),
      areas.get(balanceNewsArea),
    ),
});
