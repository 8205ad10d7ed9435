import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * A clone's create dialog (image clone, voice clone): closed → editing → submitting →
 * closed (added: `completed` counts, so the area reloads its list) or back to editing with the
 * server's refusal. SUBMIT with a draft the contract's rules refuse stays in editing and shows the
 * messages (from then on every edit checks again). The dialog cannot be closed or edited while
 * its call is under way. The rules (a fresh draft, the check) are the area's; `submit` is a
 * placeholder actor (`.provide()`), its input `{ body }`.
 */
export type CloneFormEvent<D> =
  { type: 'OPEN' } | { type: 'CLOSE' } | { type: 'EDIT'; patch: Partial<D> } | { type: 'SUBMIT' };

/** What the rules make of a draft: the body to send (null when refused) and the messages. */
export interface CheckedClone<B> {
  body: B | null;
  /** Field → message id. */
  errors: Record<string, string>;
}

export interface CloneFormRules<D, B> {
  fresh: () => D;
  check: (draft: D) => CheckedClone<B>;
}

export interface CloneFormContext<D, B, R> {
  draft: D;
  /** Shown once a SUBMIT was refused by the rules. */
  errors: Record<string, string>;
  submitted: boolean;
  body: B | null;
  /** The server's refusal (a sentence or a message id). */
  error: string | null;
  result: R | null;
  /** Clones added since the page opened. */
  completed: number;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export function createCloneFormMachine<D, B, R>(id: string, rules: CloneFormRules<D, B>) {
  return setup({
    types: {
      context: {} as CloneFormContext<D, B, R>,
      events: {} as CloneFormEvent<D>,
    },
    actors: {
      submit: fromPromise<R, { body: B }>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    guards: {
      passes: ({ context }) => rules.check(context.draft).body !== null,
    },
  }).createMachine({
    id,
    context: {
      draft: rules.fresh(),
      errors: {},
      submitted: false,
      body: null,
      error: null,
      result: null,
      completed: 0,
    },
    initial: 'closed',
    states: {
      closed: {
        on: {
          OPEN: {
            target: 'editing',
            actions: assign({
              draft: () => rules.fresh(),
              errors: {},
              submitted: false,
              error: null,
            }),
          },
        },
      },
      editing: {
        tags: ['open'],
        on: {
          EDIT: {
            actions: assign(({ context, event }) => {
              const draft = { ...context.draft, ...event.patch };
              return {
                draft,
                errors: context.submitted ? rules.check(draft).errors : {},
              };
            }),
          },
          SUBMIT: [
            {
              guard: 'passes',
              target: 'submitting',
              actions: assign(({ context }) => ({
                body: rules.check(context.draft).body,
                errors: {},
                error: null,
                submitted: true,
              })),
            },
            {
              actions: assign(({ context }) => ({
                errors: rules.check(context.draft).errors,
                submitted: true,
              })),
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
          input: ({ context }) => ({ body: context.body as B }),
          onDone: {
            target: 'closed',
            actions: assign({
              result: ({ event }) => event.output,
              completed: ({ context }) => context.completed + 1,
            }),
          },
          onError: {
            target: 'editing',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
        },
      },
    },
  });
}

export type CloneFormMachine<D, B, R> = ReturnType<typeof createCloneFormMachine<D, B, R>>;
export type CloneFormSnapshot<D, B, R> = SnapshotFrom<CloneFormMachine<D, B, R>>;
