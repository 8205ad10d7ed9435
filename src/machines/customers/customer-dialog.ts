import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { setField, type Checked, type FieldErrors, type SetFieldEvent } from '../draft-dialog';

/**
 * One customer dialog (create / edit form, reset password, enable / disable, transfer
 * permissions, delete): closed → editing → submitting → done | failed. OPEN names the row it is
 * about (null: a new customer). A failure keeps the payload and shows the server's sentence;
 * Retry sends the same payload again, Back returns to the form with the values kept. The dialog
 * cannot be closed while its call is under way. Typing in a field after a failure is Back with
 * that change (the fields stay shown under the sentence). `submit` is a placeholder actor (`.provide()`);
 * its input is `{ target, payload }`.
 *
 * A dialog with fields gives the machine its `form` (docs/architecture.md "Forms"): OPEN starts
 * the draft afresh from the row and what the view gives with it (`start`), SET changes one field and answers its message, and a
 * SUBMIT without a payload checks the draft with the contract (`check`): a refusal stays in
 * editing with each field's message id, else the checked payload is sent. A confirmation dialog
 * (no fields) sends its payload with SUBMIT.
 */
export type CustomerDialogEvent<T, P, F = null, G = undefined> =
  | { type: 'OPEN'; target: T | null; given?: G }
  | { type: 'SUBMIT'; payload?: P }
  | SetFieldEvent<F>
  | { type: 'RETRY' }
  | { type: 'BACK' }
  | { type: 'CLOSE' };

export interface CustomerDialogContext<T, P, R, F = null, G = undefined> {
  target: T | null;
  /** What the view knows that the form starts from and is checked with (e.g. the settings). */
  given: G | undefined;
  /** The fields as the person typed them (null: a dialog without fields). */
  form: F | null;
  /** Per field: a validation message id of the last refused SUBMIT. */
  errors: FieldErrors;
  payload: P | null;
  result: R | null;
  /** A message id or the server's sentence. */
  error: string | null;
  /** Calls that ended in `done` since the page opened: a change means "reload the list". */
  completed: number;
}

/** A dialog's fields: the draft a row opens with and the contract's check of it. */
export interface CustomerDialogForm<T, P, F, G = undefined> {
  start: (target: T | null, given: G | undefined) => F;
  check: (form: F, target: T | null, given: G | undefined) => Checked<P>;
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

export function createCustomerDialogMachine<T, P, R = unknown, F = null, G = undefined>(
  id: string,
  fields?: CustomerDialogForm<T, P, F, G>,
) {
  const check = (context: CustomerDialogContext<T, P, R, F, G>): Checked<P> | null =>
    fields && context.form !== null
      ? fields.check(context.form, context.target, context.given)
      : null;
  return setup({
    types: {
      context: {} as CustomerDialogContext<T, P, R, F, G>,
      events: {} as CustomerDialogEvent<T, P, F, G>,
    },
    actors: {
      submit: fromPromise<R, CustomerSubmitInput<T, P>>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    guards: {
      given: ({ event }) => event.type === 'SUBMIT' && event.payload !== undefined,
      checked: ({ context }) => {
        const checked = check(context);
        return checked !== null && 'draft' in checked;
      },
    },
    actions: {
      open: assign(({ event }) => {
        assertEvent(event, 'OPEN');
        return {
          target: event.target,
          given: event.given,
          form: fields ? fields.start(event.target, event.given) : null,
          errors: {},
          payload: null,
          result: null,
          error: null,
        };
      }),
      keepPayload: assign({
        payload: ({ event }) => {
          assertEvent(event, 'SUBMIT');
          return event.payload ?? null;
        },
        error: null,
      }),
      keepChecked: assign({
        payload: ({ context }) => {
          const checked = check(context);
          return checked && 'draft' in checked ? checked.draft : null;
        },
        errors: {},
        error: null,
      }),
      refuse: assign({
        errors: ({ context }) => {
          const checked = check(context);
          return checked && 'errors' in checked ? checked.errors : {};
        },
      }),
      forgetError: assign({ error: null, payload: null }),
      set: assign(({ context, event }) => {
        assertEvent(event, 'SET');
        if (context.form === null) return {};
        const next = setField(
          { form: context.form, errors: context.errors },
          event.field,
          event.value,
        );
        return { form: next.form, errors: next.errors };
      }),
    },
  }).createMachine({
    id,
    context: {
      target: null,
      given: undefined,
      form: null,
      errors: {},
      payload: null,
      result: null,
      error: null,
      completed: 0,
    },
    initial: 'closed',
    states: {
      closed: { on: { OPEN: { target: 'editing', actions: 'open' } } },
      editing: {
        tags: ['open'],
        on: {
          SET: { actions: 'set' },
          SUBMIT: [
            { guard: 'given', target: 'submitting', actions: 'keepPayload' },
            { guard: 'checked', target: 'submitting', actions: 'keepChecked' },
            { actions: 'refuse' },
          ],
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
        on: {
          RETRY: 'submitting',
          BACK: 'editing',
          CLOSE: 'closed',
          // The fields stay on screen under the server's sentence: changing one is going back
          // to the form with that change (the sentence no longer applies to the new values).
          SET: { target: 'editing', actions: ['set', 'forgetError'] },
        },
      },
      done: { on: { OPEN: { target: 'editing', actions: 'open' } } },
    },
  });
}

export type CustomerDialogMachine<T, P, R = unknown, F = null, G = undefined> = ReturnType<
  typeof createCustomerDialogMachine<T, P, R, F, G>
>;
export type CustomerDialogSnapshot<T, P, R = unknown, F = null, G = undefined> = SnapshotFrom<
  CustomerDialogMachine<T, P, R, F, G>
>;
