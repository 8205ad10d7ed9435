import { assertEvent, assign, fromPromise, setup } from 'xstate';
import {
  INIT_CONFIG_FIELDS,
  initValueProblem,
  isWriteOnly,
  type CertKind,
  type InitConfigGroup,
  type InitConfigSetBody,
  type InitConfigTestReply,
  type InitGroupValues,
  type SecretState,
} from '../api/contract/init-config';

/**
 * One group of the system init settings (/account/system-init; docs/domain.md §System init): its
 * values as saved, the person's draft (plain fields start at their value, secrets empty: an empty
 * secret is left unchanged), saving the draft (checked first by the contract's rule per field),
 * clearing one write-only field after a confirmation, uploading a WeChat Pay file, and the
 * connection test with its last result. The calls are the area's, provided with `.provide()`.
 *
 * loading → ready (idle | saving | confirmingClear | clearing | uploading | testing) | failed.
 */

export type InitGroupEvent =
  | { type: 'RETRY' }
  | { type: 'EDIT'; key: string; value: string }
  | { type: 'SAVE' }
  | { type: 'ASK_CLEAR'; key: string }
  | { type: 'CONFIRM_CLEAR' }
  | { type: 'CANCEL_CLEAR' }
  | { type: 'UPLOAD'; kind: CertKind; file: File }
  | { type: 'TEST' };

export interface InitGroupContext {
  group: InitConfigGroup;
  /** As saved (the server's answer); null until loaded. */
  saved: InitGroupValues | null;
  /** The person's values by key. */
  draft: Record<string, string>;
  /** A field's problem (a validation message id) by key. */
  errors: Record<string, string>;
  /** The write-only field a clear is being confirmed for. */
  clearing: string | null;
  /** The last failure of a call (a message id or the server's sentence). */
  error: string | null;
  test: InitConfigTestReply | null;
  /** Counts the saves that went through (the view's notice follows it). */
  saves: number;
}

/** The draft of saved values: plain fields as they are, write-only ones empty. */
export function draftOf(group: InitConfigGroup, saved: InitGroupValues): Record<string, string> {
  return Object.fromEntries(
    INIT_CONFIG_FIELDS[group].map((field) => {
      const value = saved[field.key];
      return [field.key, !isWriteOnly(field) && typeof value === 'string' ? value : ''];
    }),
  );
}

/** The draft's problems by key (the contract's rule, as the server checks it). */
export function draftProblems(group: InitConfigGroup, draft: Record<string, string>) {
  const errors: Record<string, string> = {};
  for (const field of INIT_CONFIG_FIELDS[group]) {
    if (field.type === 'file') continue;
    const problem = initValueProblem(field, (draft[field.key] ?? '').trim());
    if (problem) errors[field.key] = problem;
  }
  return errors;
}

/** What SAVE sends: the group's editable fields (files are uploaded on their own). */
export function saveBody(group: InitConfigGroup, draft: Record<string, string>): InitConfigSetBody {
  const values: Record<string, string> = {};
  for (const field of INIT_CONFIG_FIELDS[group]) {
    if (field.type !== 'file') values[field.key] = (draft[field.key] ?? '').trim();
  }
  return { group, values };
}

export const secretStateOf = (saved: InitGroupValues | null, key: string): SecretState | null => {
  const value = saved?.[key];
  return value && typeof value === 'object' ? value : null;
};

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'http.requestError';

export const initConfigGroupMachine = setup({
  types: {
    context: {} as InitGroupContext,
    events: {} as InitGroupEvent,
    input: {} as { group: InitConfigGroup },
  },
  actors: {
    load: fromPromise<InitGroupValues, { group: InitConfigGroup }>(async () => {
      throw new Error('initConfigGroup: provide load');
    }),
    save: fromPromise<InitGroupValues, InitConfigSetBody>(async () => {
      throw new Error('initConfigGroup: provide save');
    }),
    upload: fromPromise<InitGroupValues, { kind: CertKind; file: File }>(async () => {
      throw new Error('initConfigGroup: provide upload');
    }),
    test: fromPromise<InitConfigTestReply, { group: InitConfigGroup }>(async () => {
      throw new Error('initConfigGroup: provide test');
    }),
  },
  actions: {
    takeSaved: assign(({ context }, values: InitGroupValues) => ({
      saved: values,
      draft: draftOf(context.group, values),
      errors: {},
      error: null,
    })),
  },
}).createMachine({
  id: 'initConfigGroup',
  context: ({ input }) => ({
    group: input.group,
    saved: null,
    draft: {},
    errors: {},
    clearing: null,
    error: null,
    test: null,
    saves: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ group: context.group }),
        onDone: {
          target: 'ready',
          actions: { type: 'takeSaved', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => messageOf(event.error) }),
        },
      },
    },
    failed: { on: { RETRY: { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            EDIT: {
              actions: assign(({ context, event }) => {
                const errors = { ...context.errors };
                delete errors[event.key];
                return { draft: { ...context.draft, [event.key]: event.value }, errors };
              }),
            },
            SAVE: [
              {
                guard: ({ context }) =>
                  Object.keys(draftProblems(context.group, context.draft)).length > 0,
                actions: assign({
                  errors: ({ context }) => draftProblems(context.group, context.draft),
                }),
              },
              { target: 'saving' },
            ],
            ASK_CLEAR: {
              guard: ({ context, event }) =>
                secretStateOf(context.saved, event.key)?.source === 'settings',
              target: 'confirmingClear',
              actions: assign({ clearing: ({ event }) => event.key }),
            },
            UPLOAD: 'uploading',
            TEST: 'testing',
          },
        },
        saving: {
          tags: ['busy'],
          entry: assign({ error: null }),
          invoke: {
            id: 'save',
            src: 'save',
            input: ({ context }) => saveBody(context.group, context.draft),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'takeSaved', params: ({ event }) => event.output },
                assign({ saves: ({ context }) => context.saves + 1 }),
              ],
            },
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
          },
        },
        confirmingClear: {
          on: {
            CONFIRM_CLEAR: 'clearing',
            CANCEL_CLEAR: { target: 'idle', actions: assign({ clearing: null }) },
          },
        },
        clearing: {
          tags: ['busy'],
          entry: assign({ error: null }),
          invoke: {
            id: 'clear',
            src: 'save',
            input: ({ context }) => ({
              group: context.group,
              values: {},
              clear: [context.clearing!],
            }),
            onDone: {
              target: 'idle',
              // The other fields' drafts stay as the person left them.
              actions: assign(({ context, event }) => ({
                saved: event.output,
                clearing: null,
                saves: context.saves + 1,
              })),
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ clearing: null }),
                assign({ error: ({ event }) => messageOf(event.error) }),
              ],
            },
          },
        },
        uploading: {
          tags: ['busy'],
          entry: assign({ error: null }),
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ event }) => {
              assertEvent(event, 'UPLOAD');
              return { kind: event.kind, file: event.file };
            },
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => ({
                saved: event.output,
                saves: context.saves + 1,
              })),
            },
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
          },
        },
        testing: {
          tags: ['busy'],
          entry: assign({ test: null, error: null }),
          invoke: {
            id: 'test',
            src: 'test',
            input: ({ context }) => ({ group: context.group }),
            onDone: { target: 'idle', actions: assign({ test: ({ event }) => event.output }) },
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => messageOf(event.error) }),
            },
          },
        },
      },
    },
  },
});
