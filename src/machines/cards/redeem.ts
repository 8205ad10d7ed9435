import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { UseCardReply } from '../../api/contract/cards';

/**
 * Redeeming a card (partner, merchant): closed → editing (card number and password) → submitting
 * → done (what was credited) | failed (the server's sentence: not found, already used, void,
 * expired, too many attempts). From failed the person corrects the entry (back to editing, the
 * values kept) or closes; a card is redeemed at most once on the server however often it is sent.
 * `redeem` is a placeholder actor (`.provide()`); its input is the entry.
 */
export interface RedeemEntry {
  cardNo: string;
  cardPwd: string;
}

export type RedeemEvent =
  | { type: 'OPEN' }
  | { type: 'SUBMIT'; entry: RedeemEntry }
  | { type: 'EDIT' }
  | { type: 'AGAIN' }
  | { type: 'CLOSE' };

export interface RedeemContext {
  entry: RedeemEntry | null;
  result: UseCardReply | null;
  /** A message id or the server's sentence. */
  error: string | null;
  /** Cards redeemed since the dialog opened (the page reloads balances and lists after one). */
  redeemed: number;
}

export const redeemMachine = setup({
  types: {
    context: {} as RedeemContext,
    events: {} as RedeemEvent,
  },
  actors: {
    redeem: fromPromise<UseCardReply, RedeemEntry>(async () => {
      throw new Error('redeem: provide the redeem actor');
    }),
  },
}).createMachine({
  id: 'redeemCard',
  context: { entry: null, result: null, error: null, redeemed: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          target: 'editing',
          actions: assign({ entry: null, result: null, error: null, redeemed: 0 }),
        },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        SUBMIT: {
          target: 'submitting',
          actions: assign({
            entry: ({ event }) => {
              assertEvent(event, 'SUBMIT');
              return event.entry;
            },
            error: null,
          }),
        },
        CLOSE: 'closed',
      },
    },
    submitting: {
      tags: ['open', 'submitting'],
      invoke: {
        id: 'redeem',
        src: 'redeem',
        input: ({ context }) => context.entry as RedeemEntry,
        onDone: {
          target: 'done',
          actions: assign({
            result: ({ event }) => event.output,
            redeemed: ({ context }) => context.redeemed + 1,
          }),
        },
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
      on: { EDIT: 'editing', CLOSE: 'closed' },
    },
    done: {
      tags: ['open'],
      on: {
        AGAIN: { target: 'editing', actions: assign({ entry: null, result: null }) },
        CLOSE: 'closed',
      },
    },
  },
});

export type RedeemSnapshot = SnapshotFrom<typeof redeemMachine>;
