/** Exchange, transfers, the ledger and transfer records (docs/domain.md §3); balances: dashboard.ts getAccount. */
import type { PlatformUserListFilter, PlatformUserPage } from './contract/customers';
import type {
  ExchangeBody,
  ExchangeReply,
  ListReply,
  MoneyLogParams,
  MoneyLogRow,
  TransferBody,
  TransferRecord,
  TransferRecordParams,
} from './contract/money';
import { get, post, type RequestOptions } from './http';

/**
 * A fresh idempotency key (8–128 of `[A-Za-z0-9_.:-]`). One per submission: a retry of the same
 * submission sends the same key, so the server applies it at most once. `randomUUID` exists only
 * in secure contexts (https, localhost); `getRandomValues` everywhere.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

const keyed = (key: string, options?: RequestOptions): RequestOptions => ({
  ...options,
  headers: { ...options?.headers, 'Idempotency-Key': key },
});

/** Gives to (or takes back from) a descendant; admin and partners with the asset's flag. */
export function transfer(
  body: TransferBody,
  idempotencyKey: string,
  options?: RequestOptions,
): Promise<TransferRecord> {
  return post<TransferRecord>('/platform/transfer', body, keyed(idempotencyKey, options));
}

/** Money → digital-human minutes, voice clones or image clones at the configured price. */
export function exchange(
  body: ExchangeBody,
  idempotencyKey: string,
  options?: RequestOptions,
): Promise<ExchangeReply> {
  return post<ExchangeReply>('/platform/exchange', body, keyed(idempotencyKey, options));
}

/** One page of the caller's ledger (or of a visible user's). */
export function getMoneyLog(
  query: Partial<MoneyLogParams>,
  options?: RequestOptions,
): Promise<ListReply<MoneyLogRow>> {
  return get<ListReply<MoneyLogRow>>('/platform/user_money_log', { ...query }, options);
}

/** One page of the transfers the caller may see. */
export function getTransferRecords(
  query: Partial<TransferRecordParams>,
  options?: RequestOptions,
): Promise<ListReply<TransferRecord>> {
  return get<ListReply<TransferRecord>>('/platform/transfer_record', { ...query }, options);
}

/** Users the caller may pick (admin: anyone but itself; partner: its subtree). */
export function getPlatformUsers(
  query: Partial<PlatformUserListFilter>,
  options?: RequestOptions,
): Promise<PlatformUserPage> {
  return get<PlatformUserPage>('/platform/platform_user_list', { ...query }, options);
}
