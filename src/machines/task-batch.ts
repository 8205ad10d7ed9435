import { assign, fromPromise, setup } from 'xstate';
import type {
  BatchError,
  VideoTaskBatchAddReply,
  VideoTaskBatchBody,
  VideoTaskBatchEstimate,
} from '../api/contract/video-task-batch';

/**
 * A batch of mixed-cut tasks from a CSV file (docs/domain.md §9 "Presets, batches and
 * previews"), the dialog of the create form: closed → (OPEN) choosing a file → (CHOOSE) checking
 * (the whole file, by the server) → refused (every error, by row and column) or estimated (the
 * batch's tasks and price) → (CONFIRM) submitting → done (how many tasks were made) or failed
 * (the reason kept, the estimate still shown; CONFIRM sends the same again). Another file can be
 * chosen whenever none is being checked or sent; a check that could not be made goes back to
 * choosing with its reason. CLOSE leaves from any state but submitting.
 * The request sent is the one checked (the `check` actor's `request`: the file's text and the
 * settings it was checked with), under one idempotency key per check, so sending it again after
 * a lost reply never adds it twice.
 * Placeholder actors (`.provide()` by the area): `check {file}` → {estimate, request},
 * `add {request, key}`.
 */
export type TaskBatchEvent =
  { type: 'OPEN' } | { type: 'CLOSE' } | { type: 'CHOOSE'; file: File } | { type: 'CONFIRM' };

export interface CheckedBatch {
  estimate: VideoTaskBatchEstimate;
  request: VideoTaskBatchBody;
}

export interface TaskBatchInput {
  /** Makes a fresh idempotency key (the api layer's `newIdempotencyKey`). */
  newKey: () => string;
}

export interface TaskBatchContext extends TaskBatchInput {
  /** The file chosen last. */
  fileName: string;
  /** What the server said of it: the errors, or the estimate of a valid file. */
  errors: BatchError[];
  estimate: VideoTaskBatchEstimate | null;
  request: VideoTaskBatchBody | null;
  key: string | null;
  /** The last failure (a sentence or a message id). */
  error: string | null;
  /** Tasks the last batch made. */
  made: number;
  /** Batches added: a change means "tasks were made". */
  completed: number;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

/** Another file, from any state that waits for the person (a sibling of each). */
const CHOOSE = { target: 'checking' } as const;

export const taskBatchMachine = setup({
  types: {
    context: {} as TaskBatchContext,
    events: {} as TaskBatchEvent,
    input: {} as TaskBatchInput,
  },
  actors: {
    check: fromPromise<CheckedBatch, { file: File }>(async () => {
      throw new Error('taskBatch: provide the check actor');
    }),
    add: fromPromise<VideoTaskBatchAddReply, { request: VideoTaskBatchBody; key: string }>(
      async () => {
        throw new Error('taskBatch: provide the add actor');
      },
    ),
  },
  guards: {
    valid: (_, output: CheckedBatch) => output.estimate.valid,
  },
}).createMachine({
  id: 'taskBatch',
  context: ({ input }) => ({
    newKey: input.newKey,
    fileName: '',
    errors: [],
    estimate: null,
    request: null,
    key: null,
    error: null,
    made: 0,
    completed: 0,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          target: 'open',
          actions: assign({
            fileName: '',
            errors: [],
            estimate: null,
            request: null,
            key: null,
            error: null,
            made: 0,
          }),
        },
      },
    },
    open: {
      tags: ['open'],
      initial: 'choosing',
      on: { CLOSE: '#taskBatch.closed' },
      states: {
        choosing: { on: { CHOOSE } },
        checking: {
          tags: ['busy'],
          entry: assign(({ event }) => ({
            fileName: event.type === 'CHOOSE' ? event.file.name : '',
            errors: [],
            estimate: null,
            request: null,
            key: null,
            error: null,
          })),
          invoke: {
            id: 'check',
            src: 'check',
            input: ({ event }) => ({ file: (event as { file: File }).file }),
            onDone: [
              {
                guard: { type: 'valid', params: ({ event }) => event.output },
                target: 'estimated',
                actions: assign(({ context, event }) => ({
                  estimate: event.output.estimate,
                  request: event.output.request,
                  key: context.newKey(),
                })),
              },
              {
                target: 'refused',
                actions: assign({ errors: ({ event }) => event.output.estimate.errors }),
              },
            ],
            onError: {
              target: 'choosing',
              actions: assign({ error: ({ event }) => errorText(event.error) }),
            },
          },
        },
        refused: { on: { CHOOSE } },
        estimated: { on: { CHOOSE, CONFIRM: 'submitting' } },
        submitting: {
          tags: ['busy'],
          // Under way: neither closed nor replaced (its outcome is shown).
          on: { CLOSE: {} },
          entry: assign({ error: null }),
          invoke: {
            id: 'add',
            src: 'add',
            input: ({ context }) => ({ request: context.request!, key: context.key! }),
            onDone: {
              target: 'done',
              actions: assign(({ context, event }) => ({
                made: event.output.ids.length,
                completed: context.completed + 1,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign({ error: ({ event }) => errorText(event.error) }),
            },
          },
        },
        failed: { on: { CHOOSE, CONFIRM: 'submitting' } },
        done: {},
      },
    },
  },
});
