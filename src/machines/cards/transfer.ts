import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * Giving cards to a user below the caller: closed → picking (the target) → confirming →
 * submitting → done (how many moved) | failed (the server's sentence; back to picking, or retry).
 * The cards are chosen before the dialog opens: the rows selected in the list, or a batch number.
 * No value moves (the platform's cards account holds it), so a retry needs no idempotency key: a
 * repeated selection is refused whole by the server once the cards are no longer the caller's.
 * `submit` is a placeholder actor (`.provide()`); its input is `{ selection, target }`.
 */
export type CardSelection = { ids: number[] } | { batchNo: string };

export interface TransferTarget {
  id: number;
  /** How the person picked the user ("name (account)"), shown on the confirmation. */
  label: string;
}

export type CardTransferEvent =
  | { type: 'OPEN'; selection: CardSelection }
  | { type: 'PICK'; target: TransferTarget }
  | { type: 'BACK' }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'CLOSE' };

export interface CardTransferContext {
  selection: CardSelection | null;
  target: TransferTarget | null;
  /** How many cards moved. */
  count: number | null;
  /** A message id or the server's sentence. */
  error: string | null;
}

export interface CardTransferInput {
  selection: CardSelection;
  target: TransferTarget;
}

/** An empty selection cannot be given: nothing to open the dialog for. */
export function selectionIsEmpty(selection: CardSelection): boolean {
  return 'ids' in selection ? selection.ids.length === 0 : selection.batchNo.trim() === '';
}

export const cardTransferMachine = setup({
  types: {
    context: {} as CardTransferContext,
    events: {} as CardTransferEvent,
  },
  actors: {
    submit: fromPromise<{ count: number }, CardTransferInput>(async () => {
      throw new Error('cardTransfer: provide the submit actor');
    }),
  },
  guards: {
    hasCards: ({ event }) => {
      assertEvent(event, 'OPEN');
      return !selectionIsEmpty(event.selection);
    },
  },
}).createMachine({
  id: 'cardTransfer',
  context: { selection: null, target: null, count: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          guard: 'hasCards',
          target: 'picking',
          actions: assign(({ event }) => ({
            selection: event.selection,
            target: null,
            count: null,
            error: null,
          })),
        },
      },
    },
    picking: {
      tags: ['open'],
      on: {
        PICK: {
          target: 'confirming',
          actions: assign({
            target: ({ event }) => event.target,
            error: null,
          }),
        },
        CLOSE: 'closed',
      },
    },
    confirming: {
      tags: ['open'],
      on: { BACK: 'picking', SUBMIT: 'submitting', CLOSE: 'closed' },
    },
    submitting: {
      tags: ['open', 'submitting'],
      entry: assign({ error: null }),
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({
          selection: context.selection as CardSelection,
          target: context.target as TransferTarget,
        }),
        onDone: { target: 'done', actions: assign({ count: ({ event }) => event.output.count }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) =>
              event.error instanceof Error ? event.error.message : 'http.requestError',
          }),
        },
      },
    },
    failed: {
      tags: ['open'],
      on: { RETRY: 'submitting', BACK: 'picking', CLOSE: 'closed' },
    },
    done: {
      tags: ['open'],
      on: { CLOSE: 'closed' },
    },
  },
});

export type CardTransferSnapshot = SnapshotFrom<typeof cardTransferMachine>;
