import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  freshForm,
  setField,
  type Checked,
  type FieldErrors,
  type SetFieldEvent,
} from './draft-dialog';

/**
 * A dialog that moves money (transfer, exchange): closed → editing → confirming → submitting →
 * done | failed. The idempotency key is made when a draft is confirmed and kept for every retry
 * of that submission, so a retry after a lost reply never moves money twice. After a failure whose
 * outcome is unknown (no reply: network, timeout, a server fault) only a retry with the same key
 * or closing is offered; after a refusal (the server answered, nothing moved) the draft may be
 * edited (a new confirmation makes a new key) but not sent again as it was: it would be refused
 * again. While a call is under way the dialog stays open.
 * The form as typed is the machine's (docs/architecture.md "Forms"): OPEN starts it afresh (with
 * what the dialog opens with), SET changes a field, REVIEW checks it (`check`, with what the
 * view knows: the caller's balances, the assets on offer) into the draft to confirm, or into the
 * fields' messages and no step. A REVIEW that carries its draft skips the check (the path tests
 * name drafts by it). AGAIN starts the form afresh as it was opened.
 * `submit` is a placeholder actor (`.provide()`); its input is `{ draft, key }`.
 */
export type MoneyCallEvent<D, F = object, X = undefined> =
  | { type: 'OPEN'; form?: Partial<F> }
  | SetFieldEvent<F>
  | { type: 'REVIEW'; draft?: D; with?: X }
  | { type: 'BACK' }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'AGAIN' }
  | { type: 'CLOSE' };

export interface MoneyCallContext<D, R, F = object> {
  /** The fields as typed, and their messages. */
  form: F;
  errors: FieldErrors;
  /** What the form was opened with (AGAIN starts from it). */
  opened: F;
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

/** A money dialog's form: its empty value and its check (pure: the contract's rules). */
export interface MoneyCallForm<D, F, X> {
  empty: F;
  check: (form: F, extra: X) => Checked<D>;
}

export function createMoneyCallMachine<D, R, F extends object = object, X = undefined>(
  id: string,
  options: MoneyCallForm<D, F, X>,
) {
  const review = (form: F, event: { draft?: D; with?: X }): Checked<D> =>
    event.draft !== undefined ? { draft: event.draft } : options.check(form, event.with as X);
  return setup({
    types: {
      context: {} as MoneyCallContext<D, R, F> & MoneyCallInput,
      events: {} as MoneyCallEvent<D, F, X>,
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
      checked: ({ context, event }) => {
        assertEvent(event, 'REVIEW');
        return 'draft' in review(context.form, event);
      },
    },
    actions: {
      startForm: assign(({ event }) => {
        assertEvent(event, 'OPEN');
        const fresh = freshForm(options.empty, event.form);
        return { ...fresh, opened: fresh.form };
      }),
      reset: assign({
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
      form: options.empty,
      errors: {},
      opened: options.empty,
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
        on: { OPEN: { target: 'editing', actions: ['reset', 'startForm'] } },
      },
      editing: {
        tags: ['open'],
        on: {
          SET: {
            actions: assign(({ context, event }) => setField(context, event.field, event.value)),
          },
          REVIEW: [
            {
              guard: 'checked',
              target: 'confirming',
              actions: assign({
                draft: ({ context, event }) => {
                  const checked = review(context.form, event);
                  return 'draft' in checked ? checked.draft : null;
                },
                errors: {},
                // A new draft is a new submission: a new key.
                key: ({ context }) => context.newKey(),
                error: null,
              }),
            },
            {
              actions: assign({
                errors: ({ context, event }) => {
                  const checked = review(context.form, event);
                  return 'errors' in checked ? checked.errors : {};
                },
              }),
            },
          ],
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
            actions: assign({
              draft: null,
              key: null,
              result: null,
              form: ({ context }) => context.opened,
              errors: {},
            }),
          },
          CLOSE: 'closed',
        },
      },
    },
  });
}

export type MoneyCallMachine<D, R, F extends object = object, X = undefined> = ReturnType<
  typeof createMoneyCallMachine<D, R, F, X>
>;
export type MoneyCallSnapshot<D, R, F extends object = object, X = undefined> = SnapshotFrom<
  MoneyCallMachine<D, R, F, X>
>;
