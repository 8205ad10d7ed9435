import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ZodType } from 'zod';

/**
 * The typed draft a dialog's machine owns (docs/architecture.md "Forms"): the fields as the
 * person typed them (`form`) and each field's message id (`errors`). The machine resets both when
 * the dialog opens (and for "another one"); `SET` changes one field and answers its message; the
 * dialog's check turns the form into the call's draft with the contract's zod schema, or into
 * the fields' messages, and then nothing is sent.
 */
export type FieldErrors = Record<string, string>;

export interface DraftForm<F> {
  form: F;
  errors: FieldErrors;
}

export type SetFieldEvent<F> = { type: 'SET'; field: keyof F & string; value: unknown };

/** What a check answers: the call's draft, or each field's message id. */
export type Checked<D> = { draft: D } | { errors: FieldErrors };

/** A fresh draft form: `empty` with what the dialog opens with. */
export function freshForm<F>(empty: F, start?: Partial<F>): DraftForm<F> {
  return { form: { ...empty, ...start }, errors: {} };
}

/** One field changed: its message is answered (the person acts on it). */
export function setField<F>(current: DraftForm<F>, field: string, value: unknown): DraftForm<F> {
  const { [field]: _answered, ...errors } = current.errors;
  return { form: { ...current.form, [field]: value }, errors };
}

/** The first message per top-level field of a refused body. */
export function fieldErrors(schema: ZodType, body: unknown): FieldErrors {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * One add / edit dialog whose draft the machine owns (docs/architecture.md "Forms"):
 * closed → editing → submitting → done, or back to editing with the server's sentence. OPEN
 * brings the draft (a new row's defaults, or the row to edit) and its target (null: add); SET
 * changes one field of the draft and clears that field's error and the server's refusal; SUBMIT checks the body the draft
 * makes (`toBody`) against the contract's zod schema: a refusal stays in editing with each
 * field's message id, else the body is submitted. The dialog cannot close while its call runs.
 * `submit` is a placeholder actor (`.provide()`); its input is `{ target, body }`.
 */
export type DraftDialogEvent<D> =
  | { type: 'OPEN'; draft: D; target: number | null }
  | SetFieldEvent<D>
  | { type: 'SUBMIT' }
  | { type: 'CLOSE' };

export interface DraftDialogContext<D> {
  draft: D;
  target: number | null;
  /** Per field (the body's top-level key): a validation message id. */
  errors: Record<string, string>;
  /** The server's sentence (or a message id) of the last refused call. */
  error: string | null;
  /** Calls that ended in `done` since the page opened: a change means "reload the list". */
  completed: number;
}

export interface DraftDialogOptions<D> {
  /** The draft of a dialog never opened. */
  empty: D;
  /** The contract's schema of the call's body (an add's or an edit's: `target` null or not). */
  schema: (target: number | null) => ZodType;
  /** The body the draft makes (with `target`: the edited row's id). */
  toBody: (draft: D, target: number | null) => unknown;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export function createDraftDialogMachine<D extends object>(
  id: string,
  options: DraftDialogOptions<D>,
) {
  const errorsOf = (draft: D, target: number | null) =>
    fieldErrors(options.schema(target), options.toBody(draft, target));
  return setup({
    types: {
      context: {} as DraftDialogContext<D>,
      events: {} as DraftDialogEvent<D>,
    },
    actors: {
      submit: fromPromise<unknown, { target: number | null; body: unknown }>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    guards: {
      valid: ({ context }) => Object.keys(errorsOf(context.draft, context.target)).length === 0,
    },
    actions: {
      open: assign(({ event }) => {
        assertEvent(event, 'OPEN');
        return { draft: event.draft, target: event.target, errors: {}, error: null };
      }),
    },
  }).createMachine({
    id,
    context: { draft: options.empty, target: null, errors: {}, error: null, completed: 0 },
    initial: 'closed',
    states: {
      closed: { on: { OPEN: { target: 'editing', actions: 'open' } } },
      editing: {
        tags: ['open'],
        on: {
          SET: {
            actions: assign(({ context, event }) => {
              // A change answers the field's message and the last refusal (the person acts on it).
              const next = setField(
                { form: context.draft, errors: context.errors },
                event.field,
                event.value,
              );
              return { draft: next.form, errors: next.errors, error: null };
            }),
          },
          SUBMIT: [
            { guard: 'valid', target: 'submitting', actions: assign({ error: null }) },
            {
              actions: assign({
                errors: ({ context }) => errorsOf(context.draft, context.target),
              }),
            },
          ],
          CLOSE: 'closed',
        },
      },
      submitting: {
        tags: ['open', 'submitting'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }) => ({
            target: context.target,
            body: options.toBody(context.draft, context.target),
          }),
          onDone: {
            target: 'done',
            actions: assign({ completed: ({ context }) => context.completed + 1 }),
          },
          onError: {
            target: 'editing',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
        },
      },
      done: { on: { OPEN: { target: 'editing', actions: 'open' } } },
    },
  });
}

export type DraftDialogMachine<D extends object> = ReturnType<typeof createDraftDialogMachine<D>>;
export type DraftDialogSnapshot<D extends object> = SnapshotFrom<DraftDialogMachine<D>>;
