import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * A dialog that moves money (transfer, exchange): closed → editing → confirming → submitting →
 * done | failed. The idempotency key is made when a draft is confirmed and kept for every retry
 * of that submission, so a retry after a lost reply never moves money twice. After a failure whose
 * outcome is unknown (no reply: network, timeout, a server fault) only a retry with the same key
 * or closing is offered; after a refusal (the server answered, nothing moved) the draft may be
 * edited (a new confirmation makes a new key) but not sent again as it was: it would be refused
 * again. While a call is under way the dialog stays open.
 * `submit` is a placeholder actor (`.provide()`); its input is `{ draft, key }`.
 */
export type MoneyCallEvent<D> =
  | { type: 'OPEN' }
  | { type: 'REVIEW'; draft: D }
  | { type: 'BACK' }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'AGAIN' }
  | { type: 'CLOSE' };

export interface MoneyCallContext<D, R> {
  draft: D | null;
  /** The idempotency key of the confirmed draft; null while editing. */
  key: string | null;
  result: R | null;
  /** A message id or the server's sentence. */
  error: string | null;
  /** The last failure left it unknown whether the server applied the call. */
  uncertain: boolean;
  /** How many calls this dialog has sent since it opened (the page reloads balances after one). */
  attempts: number;
}

export interface MoneyCallInput {
  /** Makes a fresh idempotency key (the api layer's `newIdempotencyKey`). */
  newKey: () => string;
}

export interface SubmitInput<D> {
  draft: D;
  key: string;
}

/** Failures after which the server certainly did nothing: it answered with a refusal or a 401. */
function outcomeKnown(error: unknown): boolean {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return kind === 'reply' || kind === 'unauthorized';
}

export function createMoneyCallMachine<D, R>(id: string) {
  return setup({
    types: {
      context: {} as MoneyCallContext<D, R> & MoneyCallInput,
      events: {} as MoneyCallEvent<D>,
      input: {} as MoneyCallInput,
    },
    actors: {
      submit: fromPromise<R, SubmitInput<D>>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    guards: {
      /** Editing after a failure only when nothing can have moved. */
      mayEdit: ({ context }) => !context.uncertain,
      /** Sending again only after a lost reply: a refusal would only be refused again. */
      replyLost: ({ context }) => context.uncertain,
    },
    actions: {
      clear: assign({
        draft: null,
        key: null,
        result: null,
        error: null,
        uncertain: false,
        attempts: 0,
      }),
    },
  }).createMachine({
    id,
    context: ({ input }) => ({
      newKey: input.newKey,
      draft: null,
      key: null,
      result: null,
      error: null,
      uncertain: false,
      attempts: 0,
    }),
    initial: 'closed',
    states: {
      closed: {
        on: { OPEN: { target: 'editing', actions: 'clear' } },
      },
      editing: {
        tags: ['open'],
        on: {
          REVIEW: {
            target: 'confirming',
            actions: assign({
              draft: ({ event }) => {
                assertEvent(event, 'REVIEW');
                return event.draft;
              },
              // A new draft is a new submission: a new key.
              key: ({ context }) => context.newKey(),
              error: null,
            }),
          },
          CLOSE: 'closed',
        },
      },
      confirming: {
        tags: ['open'],
        on: {
          BACK: { target: 'editing', actions: assign({ key: null }) },
          SUBMIT: 'submitting',
          CLOSE: 'closed',
        },
      },
      submitting: {
        tags: ['open', 'submitting'],
        entry: assign({ attempts: ({ context }) => context.attempts + 1, error: null }),
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => ({ draft: context.draft as D, key: context.key as string }),
          onDone: {
            target: 'done',
            actions: assign({ result: ({ event }) => event.output, uncertain: false }),
          },
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : 'http.requestError',
              uncertain: ({ event }) => !outcomeKnown(event.error),
            }),
          },
        },
      },
      failed: {
        tags: ['open'],
        on: {
          // The same submission again (the same key), only when its outcome is unknown.
          RETRY: { guard: 'replyLost', target: 'submitting' },
          BACK: { guard: 'mayEdit', target: 'editing', actions: assign({ key: null }) },
          CLOSE: 'closed',
        },
      },
      done: {
        tags: ['open'],
        on: {
          AGAIN: {
            target: 'editing',
            actions: assign({ draft: null, key: null, result: null }),
          },
          CLOSE: 'closed',
        },
      },
    },
  });
}

export type MoneyCallMachine<D, R> = ReturnType<typeof createMoneyCallMachine<D, R>>;
export type MoneyCallSnapshot<D, R> = SnapshotFrom<MoneyCallMachine<D, R>>;
