/** Recharge cards (卡密, docs/domain.md §5) under `/recharge_card`; contract: ./contract/cards.ts. */
import type {
  AddCardsBody,
  AddCardsReply,
  CardListParams,
  CardListReply,
  CardRow,
  CountReply,
  DeleteCardsBody,
  EditCardBody,
  ExportTicketBody,
  ExportTicketReply,
  RemarkCardsBody,
  TransferCardsBody,
  UseCardBody,
  UseCardReply,
} from './contract/cards';
import { apiUrl, get, post, type RequestOptions } from './http';

const keyed = (key: string, options?: RequestOptions): RequestOptions => ({
  ...options,
  headers: { ...options?.headers, 'Idempotency-Key': key },
});

/**
 * Makes a batch of cards. A partner pays face value × quantity from its own balance, so the call
 * carries an idempotency key: a retry of the same submission sends the same key and the server
 * makes the batch at most once.
 */
export function addCards(
  body: AddCardsBody,
  idempotencyKey: string,
  options?: RequestOptions,
): Promise<AddCardsReply> {
  return post<AddCardsReply>('/recharge_card/add', body, keyed(idempotencyKey, options));
}

/** Gives cards (a selection, or what qualifies of a batch) to a user below the caller. */
export function transferCards(
  body: TransferCardsBody,
  options?: RequestOptions,
): Promise<CountReply> {
  return post<CountReply>('/recharge_card/transfer_card', body, options);
}

/** Redeems a card for the caller (partner, merchant): the card's value is credited at once. */
export function useCard(body: UseCardBody, options?: RequestOptions): Promise<UseCardReply> {
  return post<UseCardReply>('/recharge_card/use_card', body, options);
}

/** Sets the remark of the caller's role on one or several cards. */
export function remarkCards(body: RemarkCardsBody, options?: RequestOptions): Promise<CountReply> {
  return post<CountReply>('/recharge_card/remark_card', body, options);
}

/** Voids (2) or restores (0) an unused card, and/or sets its expiry. */
export function editCard(body: EditCardBody, options?: RequestOptions): Promise<CardRow> {
  return post<CardRow>('/recharge_card/edit_card', body, options);
}

/** Deletes unused and void cards; their face value goes back to whoever paid for them. */
export function deleteCards(body: DeleteCardsBody, options?: RequestOptions): Promise<CountReply> {
  return post<CountReply>('/recharge_card/batch_del', body, options);
}

/** One page of the cards the caller may see, newest first. */
export function getCards(
  query: Partial<CardListParams>,
  options?: RequestOptions,
): Promise<CardListReply> {
  return get<CardListReply>('/recharge_card/card_list', { ...query }, options);
}

/** A single-use, 60-second ticket for a CSV of the filtered or selected cards. */
export function requestExportTicket(
  body: ExportTicketBody,
  options?: RequestOptions,
): Promise<ExportTicketReply> {
  return post<ExportTicketReply>('/recharge_card/export_ticket', body, options);
}

/**
 * The download URL of a ticket. The ticket is the only credential in it (never the session
 * token); built from the configured API base, so a console pointed at another API works too.
 */
export function exportDataUrl(ticket: string): string {
  return apiUrl('/recharge_card/export_data', { ticket });
}

/**
 * Starts the browser's own download of a ticket's CSV through a hidden link: the file streams to
 * disk (with the browser's progress) instead of into memory, and the page stays where it is
 * (the reply is an attachment).
 */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
