import {
  and,
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
  setup,
  stateIn,
  type SnapshotFrom,
} from 'xstate';
import type { OrderCreateReply, RechargeOrder, RechargePackage } from '../../api/contract/recharge';

/**
 * Buying a recharge package (partner, merchant): load the packages on sale → choose one (PICK,
 * then CHOOSE, which refuses with 'buy.choosePackage' while none is picked) → confirm
 * → create the order → paying (the buyer pays in another tab; the order is checked every
 * POLL_MS, or at once on CHECK) → paid | expired. The balance is credited by the server when the
 * payment provider's signed notification arrives, never by this machine: it only watches.
 *
 * - The create call has no idempotency key, so it is never retried by itself: after a failure the
 *   person presses Retry (a lost reply may have left an unpaid order behind; it costs nothing and
 *   closes by itself).
 * - A check that fails keeps the polling going; after STILL_CHECKING_AFTER failures in a row the
 *   dialog says it is still checking.
 * - The `expiry` actor sends EXPIRED when the order's time is up; one more check follows, then the
 *   order is shown paid (it was) or expired.
 * - Closing while paying hides the dialog but not the order (`paying.dialog.hidden`, tag
 *   `watching`): the checks and the expiry timer go on until the order is seen paid or over (then
 *   the machine is closed and emits `notice`, for the area's toast) or the actor stops (sign-out).
 *   OPEN shows the order again as it stands; AGAIN (another package) stops watching it.
 *
 * Placeholders (`.provide()`): `loadPackages`, `createOrder` (input: the package id),
 * `checkOrder` (input: the order number), `expiry` (input: the order; sends EXPIRED).
 */
export type BuyEvent =
  | { type: 'OPEN' }
  | { type: 'RETRY' }
  /** The package the person picks (its id) while choosing. */
  | { type: 'PICK'; id: number }
  /** Next: the picked package (or `pkg`, chosen at once); none picked is refused. */
  | { type: 'CHOOSE'; pkg?: RechargePackage }
  | { type: 'BACK' }
  | { type: 'SUBMIT' }
  | { type: 'CHECK' }
  | { type: 'EXPIRED' }
  | { type: 'AGAIN' }
  | { type: 'CLOSE' };

/**
 * Told to whoever listens (`actor.on('paid', …)`): an order was seen paid; `notice`: the watch of
 * an order ended while the dialog was closed (paid, or closed unpaid), for the person to be told.
 */
export type BuyEmitted =
  { type: 'paid' } | { type: 'notice'; outcome: 'paid' | 'closed'; order: OrderCreateReply };

export interface BuyContext {
  packages: RechargePackage[];
  /** The package picked in the list (its id), kept when the person comes back to choose. */
  picked: number | null;
  /** 'buy.choosePackage' after Next with none picked; a pick answers it. */
  pickError: string | null;
  chosen: RechargePackage | null;
  order: OrderCreateReply | null;
  /** The order as the last check saw it (paid: what was credited). */
  seen: RechargeOrder | null;
  /** A message id or the server's sentence (loading or creating failed). */
  error: string | null;
  /** The create call got no reply: an order may exist on the server all the same. */
  uncertain: boolean;
  /** Checks that failed in a row (a check that answers resets it). */
  pollFailures: number;
  /** The check under way (or the last one) was asked for by the person ("check now"). */
  byHand: boolean;
  /** A check the person asked for found the order not paid yet. */
  notPaidYet: boolean;
  /** Orders paid since the dialog was created (the page reloads balances after each). */
  paid: number;
}

/** A purchase not begun: the context at every OPEN (`paid` counts across purchases). */
const FRESH: Omit<BuyContext, 'paid'> = {
  packages: [],
  picked: null,
  pickError: null,
  chosen: null,
  order: null,
  seen: null,
  error: null,
  uncertain: false,
  pollFailures: 0,
  byHand: false,
  notPaidYet: false,
};

/** How often the order is checked while the buyer pays. */
export const POLL_MS = 3000;
/** After this many failed checks in a row the dialog says it is still checking. */
export const STILL_CHECKING_AFTER = 3;

/**
 * How long until the order closes, measured on the server's clock from its creation (the order's
 * own time to live), so a wrong clock in the browser changes nothing.
 */
export function timeToPay(order: Pick<OrderCreateReply, 'created_at' | 'expires_at'>): number {
  return Math.max(0, order.expires_at - order.created_at);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : 'http.requestError';
}

/** The output of the invoked actor whose done event this is (named guards see the plain event type). */
function outputOf<T>(event: unknown): T {
  return (event as { output: T }).output;
}

/** Failures after which the server certainly did nothing: it answered with a refusal or a 401. */
function outcomeKnown(error: unknown): boolean {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return kind === 'reply' || kind === 'unauthorized';
}

export const buyMachine = setup({
  types: {
    context: {} as BuyContext,
    events: {} as BuyEvent,
    emitted: {} as BuyEmitted,
  },
  actors: {
    loadPackages: fromPromise<RechargePackage[]>(async () => {
      throw new Error('rechargeBuy: provide the loadPackages actor');
    }),
    createOrder: fromPromise<OrderCreateReply, number>(async () => {
      throw new Error('rechargeBuy: provide the createOrder actor');
    }),
    checkOrder: fromPromise<RechargeOrder, string>(async () => {
      throw new Error('rechargeBuy: provide the checkOrder actor');
    }),
    expiry: fromCallback<BuyEvent, OrderCreateReply>(() => {
      throw new Error('rechargeBuy: provide the expiry actor');
    }),
  },
  guards: {
    nothingOnSale: ({ event }) => outputOf<RechargePackage[]>(event).length === 0,
    isPaid: ({ event }) => outputOf<RechargeOrder>(event).pay_status === 'paid',
    /** Closed, or refunded (not built yet): either way it can no longer be paid. */
    isOver: ({ event }) => {
      const status = outputOf<RechargeOrder>(event).pay_status;
      return status === 'closed' || status === 'refunded';
    },
    /** The person closed the dialog while the order awaits payment. */
    dialogHidden: stateIn({ paying: { dialog: 'hidden' } }),
    /** A package is on offer to confirm: the one given, or the one picked. */
    hasChoice: ({ context, event }) =>
      event.type === 'CHOOSE' &&
      (event.pkg !== undefined || context.packages.some((p) => p.id === context.picked)),
  },
  actions: {
    clear: assign(FRESH),
    failed: assign({
      error: ({ event }) => errorText((event as { error?: unknown }).error),
    }),
    sawOrder: assign({ seen: ({ event }) => outputOf<RechargeOrder>(event), pollFailures: 0 }),
    askedByHand: assign({ byHand: true, notPaidYet: false }),
    countPaid: assign({ paid: ({ context }) => context.paid + 1 }),
    /** The area module reloads balances, the ledger and the order list on it. */
    announcePaid: emit({ type: 'paid' } as const),
    tellPaid: emit(({ context }) => ({
      type: 'notice' as const,
      outcome: 'paid' as const,
      order: context.order as OrderCreateReply,
    })),
    tellClosed: emit(({ context }) => ({
      type: 'notice' as const,
      outcome: 'closed' as const,
      order: context.order as OrderCreateReply,
    })),
  },
}).createMachine({
  id: 'rechargeBuy',
  context: { ...FRESH, paid: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN: { target: 'loading', actions: 'clear' } },
    },
    loading: {
      tags: ['open', 'loading'],
      entry: assign({ error: null }),
      invoke: {
        id: 'loadPackages',
        src: 'loadPackages',
        onDone: [
          { guard: 'nothingOnSale', target: 'noneOnSale', actions: assign({ packages: [] }) },
          { target: 'choosing', actions: assign({ packages: ({ event }) => event.output }) },
        ],
        onError: { target: 'loadFailed', actions: 'failed' },
      },
      on: { CLOSE: 'closed' },
    },
    loadFailed: {
      tags: ['open'],
      on: { RETRY: 'loading', CLOSE: 'closed' },
    },
    noneOnSale: {
      tags: ['open'],
      on: { RETRY: 'loading', CLOSE: 'closed' },
    },
    choosing: {
      tags: ['open'],
      on: {
        PICK: {
          actions: assign(({ event }) => {
            assertEvent(event, 'PICK');
            return { picked: event.id, pickError: null };
          }),
        },
        CHOOSE: [
          {
            guard: 'hasChoice',
            target: 'confirming',
            actions: assign(({ context, event }) => {
              assertEvent(event, 'CHOOSE');
              const chosen =
                event.pkg ?? context.packages.find((p) => p.id === context.picked) ?? null;
              return { chosen, picked: chosen?.id ?? null, pickError: null };
            }),
          },
          { actions: assign({ pickError: 'buy.choosePackage' }) },
        ],
        CLOSE: 'closed',
      },
    },
    confirming: {
      tags: ['open'],
      on: { BACK: 'choosing', SUBMIT: 'creating', CLOSE: 'closed' },
    },
    creating: {
      // No closing while the order is being made: its outcome would be lost with the dialog.
      tags: ['open', 'busy'],
      entry: assign({ error: null, uncertain: false }),
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => (context.chosen as RechargePackage).id,
        onDone: {
          target: 'paying',
          actions: assign({ order: ({ event }) => event.output }),
        },
        onError: {
          target: 'createFailed',
          actions: ['failed', assign({ uncertain: ({ event }) => !outcomeKnown(event.error) })],
        },
      },
    },
    createFailed: {
      // Retry only when asked: the call has no idempotency key.
      tags: ['open'],
      on: { RETRY: 'creating', BACK: 'choosing', CLOSE: 'closed' },
    },
    paying: {
      // An order awaits payment. Two regions: whether the dialog shows it, and the checks. The
      // expiry timer runs here, so hiding and showing the dialog never restarts it.
      type: 'parallel',
      tags: ['paying'],
      entry: assign({ seen: null, pollFailures: 0, byHand: false, notPaidYet: false }),
      invoke: {
        id: 'expiry',
        src: 'expiry',
        input: ({ context }) => context.order as OrderCreateReply,
      },
      states: {
        dialog: {
          initial: 'shown',
          states: {
            shown: {
              tags: ['open'],
              on: {
                // The order is still watched with the dialog closed (`watching`).
                CLOSE: 'hidden',
                // Another package: this order is no longer watched; unpaid, it closes by itself.
                AGAIN: { target: '#rechargeBuy.loading', actions: 'clear' },
              },
            },
            hidden: {
              tags: ['watching'],
              // Opening the dialog shows this order as it stands (no new order, no extra check).
              on: { OPEN: 'shown' },
            },
          },
        },
        order: {
          initial: 'waiting',
          // (Here, not on `paying`: a transition of the parent would reset the dialog region.)
          on: { EXPIRED: '.lastCheck' },
          states: {
            waiting: {
              after: { [POLL_MS]: { target: 'checking', actions: assign({ byHand: false }) } },
              on: { CHECK: { target: 'checking', actions: 'askedByHand' } },
            },
            checking: {
              tags: ['checking'],
              // A check is under way already: its answer is the one the person asked for.
              on: { CHECK: { actions: 'askedByHand' } },
              invoke: {
                id: 'checkOrder',
                src: 'checkOrder',
                input: ({ context }) => (context.order as OrderCreateReply).order_no,
                onDone: [
                  {
                    guard: and(['isPaid', 'dialogHidden']),
                    target: '#rechargeBuy.closed',
                    actions: ['sawOrder', 'countPaid', 'announcePaid', 'tellPaid'],
                  },
                  {
                    guard: 'isPaid',
                    target: '#rechargeBuy.paid',
                    actions: ['sawOrder', 'countPaid', 'announcePaid'],
                  },
                  {
                    guard: and(['isOver', 'dialogHidden']),
                    target: '#rechargeBuy.closed',
                    actions: ['sawOrder', 'tellClosed'],
                  },
                  { guard: 'isOver', target: '#rechargeBuy.expired', actions: 'sawOrder' },
                  {
                    target: 'waiting',
                    actions: [
                      'sawOrder',
                      assign({
                        // Said only in answer to the person's own check; it stays until the next.
                        notPaidYet: ({ context }) => context.byHand || context.notPaidYet,
                      }),
                    ],
                  },
                ],
                onError: {
                  target: 'waiting',
                  actions: assign({ pollFailures: ({ context }) => context.pollFailures + 1 }),
                },
              },
            },
            lastCheck: {
              // The time is up: one more look, in case it was paid at the last moment.
              tags: ['checking'],
              invoke: {
                id: 'checkOrder',
                src: 'checkOrder',
                input: ({ context }) => (context.order as OrderCreateReply).order_no,
                onDone: [
                  {
                    guard: and(['isPaid', 'dialogHidden']),
                    target: '#rechargeBuy.closed',
                    actions: ['sawOrder', 'countPaid', 'announcePaid', 'tellPaid'],
                  },
                  {
                    guard: 'isPaid',
                    target: '#rechargeBuy.paid',
                    actions: ['sawOrder', 'countPaid', 'announcePaid'],
                  },
                  {
                    guard: 'dialogHidden',
                    target: '#rechargeBuy.closed',
                    actions: ['sawOrder', 'tellClosed'],
                  },
                  { target: '#rechargeBuy.expired', actions: 'sawOrder' },
                ],
                onError: [
                  { guard: 'dialogHidden', target: '#rechargeBuy.closed', actions: 'tellClosed' },
                  { target: '#rechargeBuy.expired' },
                ],
              },
            },
          },
        },
      },
    },
    paid: {
      tags: ['open'],
      on: { AGAIN: { target: 'loading', actions: 'clear' }, CLOSE: 'closed' },
    },
    expired: {
      tags: ['open'],
      on: { AGAIN: { target: 'loading', actions: 'clear' }, CLOSE: 'closed' },
    },
  },
});

export type BuyMachine = typeof buyMachine;
export type BuySnapshot = SnapshotFrom<typeof buyMachine>;
