/**
 * The cards area (docs/domain.md §5, /promotion/card-password): the card list, generate, transfer,
 * redeem, per-row status / remark / expiry, delete, export, and the user lists of the filters and
 * pickers. After a change the area reloads the card list itself and counts the change in
 * `changes` (the page's selection belongs to the list it was made on).
 */
import { createActor, fromPromise, fromTransition } from 'xstate';
import type { PlatformUserPage, PlatformUserRow } from '../../api/contract/customers';
import {
  editCardBody,
  remarkCardsBody,
  type CardFilter,
  type CardRow,
  type CountReply,
  type DeleteCardsBody,
  type EditCardBody,
  type ExportTicketBody,
  type RemarkCardsBody,
} from '../../api/contract/cards';
import { MAX_CARD_PAGE_SIZE } from '../../api/contract/cards';
import * as cardsApi from '../../api/cards';
import { getPlatformUsers, newIdempotencyKey } from '../../api/money';
import { exportMachine } from '../../machines/cards/export';
import { endOfDay, generateCardsMachine } from '../../machines/cards/generate';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import { redeemMachine } from '../../machines/cards/redeem';
import { cardTransferMachine, type CardSelection } from '../../machines/cards/transfer';
import { defineArea, lazyActors } from './areas';
import { dialogActor, listActor, loadActor, submitActor, toast, whenChanged } from './factories';
import { dayRange } from '../../components/dates';
import { checkBody, textFields, type TextValues } from './small-forms';

export interface CardsEndpoints {
  getCards: typeof cardsApi.getCards;
  addCards: typeof cardsApi.addCards;
  transferCards: typeof cardsApi.transferCards;
  useCard: typeof cardsApi.useCard;
  editCard: typeof cardsApi.editCard;
  remarkCards: typeof cardsApi.remarkCards;
  deleteCards: typeof cardsApi.deleteCards;
  requestExportTicket: typeof cardsApi.requestExportTicket;
  /** Hands the browser the ticket's download (it streams the file from there). */
  download: (ticket: string) => void;
  getPlatformUsers: typeof getPlatformUsers;
  newIdempotencyKey: () => string;
}

export interface CardFilters {
  cardNo: string;
  batchNo: string;
  asset: string;
  status: string;
  owner: string;
  usedBy: string;
  from: string;
  to: string;
}

export const NO_CARD_FILTERS: CardFilters = {
  cardNo: '',
  batchNo: '',
  asset: '',
  status: '',
  owner: '',
  usedBy: '',
  from: '',
  to: '',
};

/** The API's filters of the form's values (days of the viewer's calendar as epoch ms). */
export function cardQuery(f: CardFilters): Partial<CardFilter> {
  const query: Partial<CardFilter> = { ...dayRange(f.from, f.to) };
  if (f.cardNo.trim()) query.card_no = f.cardNo.trim();
  if (f.batchNo.trim()) query.batch_no = f.batchNo.trim();
  if (f.asset) query.asset = f.asset as CardFilter['asset'];
  if (f.status) query.status = f.status as CardFilter['status'];
  if (f.owner) query.owner_id = Number(f.owner);
  if (f.usedBy) query.used_by = Number(f.usedBy);
  return query;
}

/** How long "downloading" shows after the browser was handed the file (it streams from there). */
const HANDOVER_MS = 1500;
const PICKER_LIMIT = 50;
/** How many users the owner and used-by choices list. */
const USER_CHOICES = 50;

/** Counts the changes of the cards (a new batch, a transfer, a delete). */
const counter = fromTransition((count: number, _event: { type: 'CHANGED' }) => count + 1, 0);

/**
 * The remark dialog's draft: the remark of the caller's role on the card (given with OPEN: true
 * for the admin's, else the owner's), checked with the call's schema and sent trimmed.
 */
const remarkFields = textFields<CardRow, RemarkCardsBody, boolean>(
  (row, isAdmin) => (isAdmin ? row?.remark_admin : row?.remark_owner) ?? '',
  (row, remark) => ({ id: row?.id ?? 0, remark }),
  remarkCardsBody,
);

/** The expiry dialog's day ("YYYY-MM-DD" of the viewer's calendar, '' for never). */
export interface ExpiryValues {
  day: string;
}

/** "YYYY-MM-DD" of a time in the viewer's calendar ('' for none). */
export function dayOf(time: number | null): string {
  if (time === null) return '';
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/**
 * The expiry dialog's draft: the card's day; the card works until its end, none is never. A past
 * day is refused here as the server refuses it (as the generate form does), nothing sent.
 */
const expiryFields: CustomerDialogForm<CardRow, EditCardBody, ExpiryValues> = {
  start: (row) => ({ day: dayOf(row?.expire_at ?? null) }),
  check: (form, row) => {
    const expireAt = form.day ? endOfDay(form.day) : null;
    if (form.day && (expireAt === null || expireAt <= Date.now())) {
      return { errors: { day: 'cards.expiryPast' } };
    }
    return checkBody<EditCardBody, ExpiryValues>(
      editCardBody,
      { id: row?.id ?? 0, expire_at: expireAt },
      'day',
    );
  },
};

function createCardsActors(e: CardsEndpoints) {
  return lazyActors(
    {
      cards: () =>
        listActor<CardFilters, CardRow>(
          'cards',
          ({ filters, page, limit }, signal) =>
            e.getCards({ ...cardQuery(filters), page, limit }, { signal }),
          NO_CARD_FILTERS,
          { maxLimit: MAX_CARD_PAGE_SIZE },
        ),
      changes: () => createActor(counter),
      generate: () =>
        createActor(
          generateCardsMachine.provide({
            actors: {
              submit: fromPromise(({ input }) =>
                e.addCards(
                  {
                    asset: input.draft.asset,
                    face_value: input.draft.faceValue,
                    quantity: input.draft.quantity,
                    expire_at: input.draft.expireAt,
                    price: input.draft.price,
                    ...(input.draft.remark ? { remark: input.draft.remark } : {}),
                  },
                  input.key,
                ),
              ),
            },
          }),
          { input: { newKey: e.newIdempotencyKey } },
        ),
      transfer: () =>
        createActor(
          cardTransferMachine.provide({
            actors: {
              submit: fromPromise(({ input }) =>
                e.transferCards({
                  ...('ids' in input.selection
                    ? { ids: input.selection.ids }
                    : { batch_no: input.selection.batchNo }),
                  to_user_id: input.target.id,
                }),
              ),
            },
          }),
        ),
      redeem: () =>
        createActor(
          redeemMachine.provide({
            actors: {
              redeem: fromPromise(({ input, signal }) =>
                e.useCard({ card_no: input.cardNo, card_pwd: input.cardPwd }, { signal }),
              ),
            },
          }),
          { systemId: 'cards.redeem' },
        ),
      status: () => submitActor<EditCardBody, CardRow>((body) => e.editCard(body)),
      remove: () =>
        dialogActor<CardSelection, DeleteCardsBody, CountReply>('cardDelete', (_s, body) =>
          e.deleteCards(body),
        ),
      // The dialogs' drafts are their machines' (docs/architecture.md "Forms").
      remark: () =>
        dialogActor<CardRow, RemarkCardsBody, CountReply, TextValues, boolean>(
          'cardRemark',
          (_row, body) => e.remarkCards(body),
          remarkFields,
        ),
      expiry: () =>
        dialogActor<CardRow, EditCardBody, CardRow, ExpiryValues>(
          'cardExpiry',
          (_row, body) => e.editCard(body),
          expiryFields,
        ),
      export: () =>
        createActor(
          exportMachine.provide({
            actors: {
              // The page sends the card list's filters or selection (card-export.tsx).
              requestTicket: fromPromise(({ input, signal }) =>
                e.requestExportTicket(input as ExportTicketBody, { signal }),
              ),
              download: fromPromise(async ({ input }) => {
                e.download(input.ticket);
                await new Promise((resolve) => setTimeout(resolve, HANDOVER_MS));
              }),
            },
          }),
        ),
      /** The transfer dialog's user picker: users found by keyword. */
      users: () =>
        listActor<{ keyword: string }, PlatformUserRow>(
          'cardUsers',
          ({ filters, page, limit }, signal) =>
            e.getPlatformUsers({ keyword: filters.keyword || undefined, page, limit }, { signal }),
          { keyword: '' },
          PICKER_LIMIT,
        ),
      /** The owner / used-by filters' choices. */
      filterUsers: () =>
        loadActor<PlatformUserPage>('cardFilterUsers', (signal) =>
          e.getPlatformUsers({ limit: USER_CHOICES }, { signal }),
        ),
    },
    (actors, started) => {
      const reload = () => started('cards')?.send({ type: 'RELOAD' });
      const changed = () => {
        actors.changes.send({ type: 'CHANGED' });
        reload();
      };
      return {
        // Done or failed (a lost reply may have made the batch): the list afresh.
        generate: (generate) => [
          whenChanged(
            generate,
            (s) =>
              s.matches('done') || s.matches('failed') ? `${s.context.attempts}:${s.value}` : '',
            changed,
          ),
        ],
        transfer: (transfer) => [whenChanged(transfer, (s) => s.matches('done'), changed)],
        redeem: (redeem) => [whenChanged(redeem, (s) => s.context.redeemed, reload)],
        status: (status) => [
          whenChanged(
            status,
            (s) => s.matches('done'),
            () => {
              status.send({ type: 'RESET' });
              reload();
            },
          ),
        ],
        remove: (remove) => [
          whenChanged(
            remove,
            (s) => s.context.completed,
            () => {
              toast('success', 'cards.deleted', {
                count: remove.getSnapshot().context.result?.count ?? 0,
              });
              changed();
            },
          ),
        ],
        remark: (remark) => [
          whenChanged(
            remark,
            (s) => s.context.completed,
            () => {
              toast('success', 'cards.remarkSaved');
              reload();
            },
          ),
        ],
        expiry: (expiry) => [
          whenChanged(
            expiry,
            (s) => s.context.completed,
            () => {
              toast('success', 'cards.expirySaved');
              reload();
            },
          ),
        ],
      };
    },
  );
}

export type CardsActors = ReturnType<typeof createCardsActors>;

export const cardsArea = defineArea<CardsEndpoints, CardsActors>({
  key: 'cards',
  live: () => ({
    ...cardsApi,
    download: (ticket) => cardsApi.startDownload(cardsApi.exportDataUrl(ticket)),
    getPlatformUsers,
    newIdempotencyKey,
  }),
  create: (endpoints) => createCardsActors(endpoints),
});
