import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * One customer dialog (create / edit form, reset password, enable / disable, transfer
 * permissions, delete): closed → editing → submitting → done | failed. OPEN names the row it is
 * about (null: a new customer). A failure keeps the payload and shows the server's sentence;
 * Retry sends the same payload again, Back returns to the form with the values kept. The dialog
 * cannot be closed while its call is under way. `submit` is a placeholder actor (`.provide()`);
 * its input is `{ target, payload }`.
 */
export type CustomerDialogEvent<T, P> =
  | { type: 'OPEN'; target: T | null }
  | { type: 'SUBMIT'; payload: P }
  | { type: 'RETRY' }
  | { type: 'BACK' }
  | { type: 'CLOSE' };

export interface CustomerDialogContext<T, P, R> {
  target: T | null;
  payload: P | null;
  result: R | null;
  /** A message id or the server's sentence. */
  error: string | null;
  /** Calls that ended in `done` since the page opened: a change means "reload the list". */
  completed: number;
}

export interface CustomerSubmitInput<T, P> {
  target: T | null;
  payload: P;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export function createCustomerDialogMachine<T, P, R = unknown>(id: string) {
  return setup({
    types: {
      context: {} as CustomerDialogContext<T, P, R>,
      events: {} as CustomerDialogEvent<T, P>,
    },
    actors: {
      submit: fromPromise<R, CustomerSubmitInput<T, P>>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    actions: {
      open: assign({
        target: ({ event }) => {
          assertEvent(event, 'OPEN');
          return event.target;
        },
        payload: null,
        result: null,
        error: null,
      }),
      keepPayload: assign({
        payload: ({ event }) => {
          assertEvent(event, 'SUBMIT');
          return event.payload;
        },
        error: null,
      }),
    },
  }).createMachine({
    id,
    context: { target: null, payload: null, result: null, error: null, completed: 0 },
    initial: 'closed',
    states: {
      closed: { on: { OPEN: { target: 'editing', actions: 'open' } } },
      editing: {
        tags: ['open'],
        on: {
          SUBMIT: { target: 'submitting', actions: 'keepPayload' },
          CLOSE: 'closed',
        },
      },
      submitting: {
        tags: ['open', 'submitting'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => ({ target: context.target, payload: context.payload as P }),
          onDone: {
            target: 'done',
            actions: assign({
              result: ({ event }) => event.output,
              completed: ({ context }) => context.completed + 1,
            }),
          },
          onError: {
            target: 'failed',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
        },
      },
      failed: {
        tags: ['open'],
        on: { RETRY: 'submitting', BACK: 'editing', CLOSE: 'closed' },
      },
      done: { on: { OPEN: { target: 'editing', actions: 'open' } } },
    },
  });
}

export type CustomerDialogMachine<T, P, R = unknown> = ReturnType<
  typeof createCustomerDialogMachine<T, P, R>
>;
export type CustomerDialogSnapshot<T, P, R = unknown> = SnapshotFrom<
  CustomerDialogMachine<T, P, R>
>;
