/**
 * The test models of the card dialogs (src/machines/cards/*): for each machine what a person sees
 * in each state, the events offered, the serialisation, and the rules written out again as the
 * oracle. The generate dialog is a money call: its oracle is transfer-model.ts's (same machine).
 */
import type { CardsEndpoints } from '../../src/app/actors/cards';
import { expect } from 'vitest';
import type { AddCardsReply, ExportTicketReply, UseCardReply } from '../../src/api/contract/cards';
import type {
  CardSelection,
  CardTransferEvent,
  CardTransferSnapshot,
  TransferTarget,
} from '../../src/machines/cards/transfer';
import type { ExportEvent, ExportSnapshot } from '../../src/machines/cards/export';
import type { GenerateDraft } from '../../src/machines/cards/generate';
import type { RedeemEntry, RedeemEvent, RedeemSnapshot } from '../../src/machines/cards/redeem';
import { replyError } from './fixtures';

type Settle = { type: string; output?: unknown; error?: unknown };

/** Only the events the snapshot takes (plus the settling of the call under way). */
function offered<E extends { type: string }>(
  snapshot: { can: (event: E) => boolean },
  events: (E | Settle)[],
): E[] {
  return events.filter((e) => e.type.startsWith('xstate.') || snapshot.can(e as E)) as E[];
}

export function describeSettle(event: { type: string; error?: unknown }): string {
  const m = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  if (!m) return event.type;
  if (m[1] === 'done') return `${m[2]} done`;
  return `${m[2]} failed (${(event.error as Error).message})`;
}

// ---------------------------------------------------------------------------------------------
// Generate (a money call)

export const GENERATE_DRAFTS: readonly GenerateDraft[] = [
  {
    asset: 'money',
    faceValue: '50.00',
    quantity: 3,
    expireAt: null,
    price: '45.00',
    remark: 'spring sale',
  },
  {
    asset: 'digital_man',
    faceValue: '30',
    quantity: 10,
    expireAt: Date.UTC(2027, 0, 1),
    price: '0.00',
    remark: '',
  },
];
export const GENERATE_REPLY: AddCardsReply = { batch_no: 'BP261122000001', count: 3 };

// ---------------------------------------------------------------------------------------------
// Transfer

export type TransferState = 'closed' | 'picking' | 'confirming' | 'submitting' | 'failed' | 'done';

/** What each state offers a person: the buttons beside the close button. */
export const TRANSFER_STATES: Record<TransferState, { open: boolean; buttons: string[] }> = {
  closed: { open: false, buttons: [] },
  picking: { open: true, buttons: ['cancel', 'next'] },
  confirming: { open: true, buttons: ['back', 'confirm'] },
  submitting: { open: true, buttons: ['back', 'confirm (busy)'] },
  failed: { open: true, buttons: ['back', 'retry'] },
  done: { open: true, buttons: ['close'] },
};

export const SELECTIONS: readonly CardSelection[] = [
  { ids: [11, 12] },
  { batchNo: 'BP261122000001' },
  { ids: [] },
];
export const TARGETS: readonly TransferTarget[] = [{ id: 5, label: 'Morning shop (merchant)' }];
export const TRANSFER_REFUSED = 'Only unused, unexpired cards you hold can be transferred';

export function transferEvents(snapshot: CardTransferSnapshot): CardTransferEvent[] {
  const events: (CardTransferEvent | Settle)[] = [
    ...SELECTIONS.map((selection) => ({ type: 'OPEN' as const, selection })),
    ...TARGETS.map((target) => ({ type: 'PICK' as const, target })),
    { type: 'BACK' },
    { type: 'SUBMIT' },
    { type: 'RETRY' },
    { type: 'CLOSE' },
  ];
  if (snapshot.matches('submitting')) {
    events.push(
      { type: 'xstate.done.actor.submit', output: { count: 2 } },
      { type: 'xstate.error.actor.submit', error: replyError(TRANSFER_REFUSED) },
    );
  }
  return offered(snapshot, events);
}

export function serializeTransfer(snapshot: CardTransferSnapshot, event?: { type: string }) {
  const c = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    selection: c.selection === null ? null : SELECTIONS.indexOf(c.selection),
    target: c.target?.id ?? null,
    via: event?.type ?? 'init',
  });
}

export function checkTransferStep(
  snapshot: CardTransferSnapshot,
  event: { type: string; selection?: CardSelection } | null,
  started: { id: string; input: unknown }[],
  waiting: string[],
) {
  const state = snapshot.value as TransferState;
  expect(TRANSFER_STATES[state], state).toBeDefined();
  expect(snapshot.hasTag('open')).toBe(TRANSFER_STATES[state].open);
  expect(snapshot.hasTag('submitting')).toBe(state === 'submitting');
  expect(waiting).toEqual(state === 'submitting' ? ['submit'] : []);
  const c = snapshot.context;
  // An empty selection never opens the dialog.
  expect(snapshot.can({ type: 'OPEN', selection: { ids: [] } })).toBe(false);
  if (state === 'picking' && event?.type === 'OPEN') {
    expect(c.selection).toBe(event.selection);
    expect([c.target, c.count, c.error]).toEqual([null, null, null]);
  }
  if (state === 'submitting') {
    // The cards chosen before opening, to the user picked: exactly what is sent.
    expect(started.at(-1)?.input).toEqual({ selection: c.selection, target: c.target });
  }
  if (state === 'failed') expect(c.error).toBe(TRANSFER_REFUSED);
  if (state === 'done') expect(c.count).toBe(2);
  expect(snapshot.can({ type: 'CLOSE' })).toBe(state !== 'submitting' && state !== 'closed');
}

// ---------------------------------------------------------------------------------------------
// Redeem

export type RedeemState = 'closed' | 'editing' | 'submitting' | 'failed' | 'done';

export const REDEEM_STATES: Record<RedeemState, { open: boolean; buttons: string[] }> = {
  closed: { open: false, buttons: [] },
  editing: { open: true, buttons: ['cancel', 'redeem'] },
  submitting: { open: true, buttons: ['cancel (disabled)', 'redeem (busy)'] },
  failed: { open: true, buttons: ['close', 'try again'] },
  done: { open: true, buttons: ['another', 'close'] },
};

export const ENTRIES: readonly RedeemEntry[] = [
  { cardNo: 'P261122000001', cardPwd: 'ABCD2345EFGH6789' },
];
export const ALREADY_USED = 'This card has already been used';
export const REDEEMED: UseCardReply = {
  id: 1,
  card_no: 'P261122000001',
  asset: 'money',
  face_value: '50.00',
};

export function redeemEvents(snapshot: RedeemSnapshot): RedeemEvent[] {
  const events: (RedeemEvent | Settle)[] = [
    { type: 'OPEN' },
    ...ENTRIES.map((entry) => ({ type: 'SUBMIT' as const, entry })),
    { type: 'EDIT' },
    { type: 'AGAIN' },
    { type: 'CLOSE' },
  ];
  if (snapshot.matches('submitting')) {
    events.push(
      { type: 'xstate.done.actor.redeem', output: REDEEMED },
      { type: 'xstate.error.actor.redeem', error: replyError(ALREADY_USED) },
    );
  }
  return offered(snapshot, events);
}

export function serializeRedeem(snapshot: RedeemSnapshot, event?: { type: string }) {
  const c = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    entry: c.entry === null ? null : ENTRIES.indexOf(c.entry),
    redeemed: Math.min(c.redeemed, 1),
    via: event?.type ?? 'init',
  });
}

export function checkRedeemStep(
  snapshot: RedeemSnapshot,
  event: { type: string } | null,
  previous: RedeemSnapshot | null,
  started: { id: string; input: unknown }[],
  waiting: string[],
) {
  const state = snapshot.value as RedeemState;
  expect(REDEEM_STATES[state], state).toBeDefined();
  expect(snapshot.hasTag('open')).toBe(REDEEM_STATES[state].open);
  expect(snapshot.hasTag('submitting')).toBe(state === 'submitting');
  expect(waiting).toEqual(state === 'submitting' ? ['redeem'] : []);
  const c = snapshot.context;
  if (state === 'editing' && event?.type === 'OPEN') {
    expect([c.entry, c.result, c.error, c.redeemed]).toEqual([null, null, null, 0]);
  }
  if (state === 'editing' && event?.type === 'EDIT') {
    // Correcting a refused entry starts from what was typed.
    expect(c.entry).toBe(previous?.context.entry);
  }
  if (state === 'submitting') expect(started.at(-1)?.input).toEqual(c.entry);
  if (state === 'failed') {
    // The server's own sentence, as it said it.
    expect(c.error).toBe(ALREADY_USED);
    expect(c.redeemed).toBe(previous?.context.redeemed);
  }
  if (state === 'done') {
    expect(c.result).toEqual(REDEEMED);
    expect(c.redeemed).toBe((previous?.context.redeemed ?? 0) + 1);
  }
  expect(snapshot.can({ type: 'CLOSE' })).toBe(state !== 'submitting' && state !== 'closed');
}

// ---------------------------------------------------------------------------------------------
// Export

export type ExportState = 'idle' | 'requesting' | 'downloading' | 'done' | 'failed';

/** Whether the export button shows progress, and what the status line says. */
export const EXPORT_STATES: Record<ExportState, { busy: boolean; status: string | null }> = {
  idle: { busy: false, status: null },
  requesting: { busy: true, status: 'preparing' },
  downloading: { busy: true, status: 'downloading' },
  done: { busy: false, status: 'started' },
  failed: { busy: false, status: 'error' },
};

export const QUERIES = [
  { query: { status: '0', asset: 'money' }, count: 42 },
  { query: { ids: [3, 4] }, count: 2 },
] as const;
export const TICKET: ExportTicketReply = {
  ticket: 'a'.repeat(43),
  expires_at: Date.UTC(2026, 10, 22, 12, 1),
  url: `/api/v1/recharge_card/export_data?ticket=${'a'.repeat(43)}`,
};
export const TICKET_REFUSED = 'Too many cards to export';

export function exportEvents(snapshot: ExportSnapshot): ExportEvent[] {
  const events: (ExportEvent | Settle)[] = [
    ...QUERIES.map((q) => ({ type: 'EXPORT' as const, query: q.query, count: q.count })),
    { type: 'DISMISS' },
  ];
  if (snapshot.matches('requesting')) {
    events.push(
      { type: 'xstate.done.actor.requestTicket', output: TICKET },
      { type: 'xstate.error.actor.requestTicket', error: replyError(TICKET_REFUSED) },
    );
  }
  if (snapshot.matches('downloading')) {
    events.push(
      { type: 'xstate.done.actor.download', output: undefined },
      { type: 'xstate.error.actor.download', error: replyError('http.networkError', 'transport') },
    );
  }
  return offered(snapshot, events);
}

export function serializeExport(snapshot: ExportSnapshot, event?: { type: string }) {
  const c = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    query: QUERIES.findIndex((q) => q.query === c.query),
    via: event?.type ?? 'init',
  });
}

export function checkExportStep(
  snapshot: ExportSnapshot,
  event: { type: string; query?: unknown; count?: number } | null,
  started: { id: string; input: unknown }[],
  waiting: string[],
) {
  const state = snapshot.value as ExportState;
  expect(EXPORT_STATES[state], state).toBeDefined();
  expect(snapshot.hasTag('exporting')).toBe(EXPORT_STATES[state].busy);
  const c = snapshot.context;
  expect(waiting).toEqual(
    state === 'requesting' ? ['requestTicket'] : state === 'downloading' ? ['download'] : [],
  );
  // One export at a time.
  const again = { type: 'EXPORT' as const, query: {}, count: null };
  expect(snapshot.can(again)).toBe(!EXPORT_STATES[state].busy);
  if (state === 'requesting') {
    expect(c.query).toBe(event?.query);
    expect(c.count).toBe(event?.count);
    expect([c.ticket, c.error]).toEqual([null, null]);
    expect(started.at(-1)).toEqual({ id: 'requestTicket', input: c.query });
  }
  if (state === 'downloading') {
    // The browser is sent the ticket, never a session token.
    expect(started.at(-1)).toEqual({ id: 'download', input: TICKET });
  }
  if (state === 'failed') expect(c.error).not.toBeNull();
  if (state === 'done') expect(c.ticket).toEqual(TICKET);
}

/** The cards area's endpoints for view tests: the given ones, every other never answers. */
export function fakeCardsEndpoints(given: Partial<CardsEndpoints> = {}): CardsEndpoints {
  const never = () => new Promise<never>(() => {});
  return {
    getCards: never,
    addCards: never,
    transferCards: never,
    useCard: never,
    editCard: never,
    remarkCards: never,
    deleteCards: never,
    requestExportTicket: never,
    download: () => {},
    getPlatformUsers: never,
    newIdempotencyKey: () => 'key-0000',
    ...given,
  };
}
