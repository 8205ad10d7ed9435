import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { VideoPreview } from '../../api/contract/video-task-preview';
import type { VideoTaskBody } from '../../api/contract/video-tasks';

/**
 * A task form's preview (docs/domain.md §9 "Presets, batches and previews"): PREVIEW with the
 * form's body → asking (the call) → watching (waiting POLL_MS, then checking, while the preview
 * is queued or rendering) → ready (it plays) | failed (the render failed: its reason) | refused
 * (the server refused the body, or the preview is gone) | throttled (too many previews in a
 * minute: HTTP 429, its sentence says when to try again). PREVIEW again from any settled state
 * asks anew; CLEAR (the form closed or started afresh) forgets it all. A check that fails
 * (network) is tried again later, each time waiting twice as long (at most MAX_POLL_MS).
 * `start` and `check` are placeholder actors the area provides (the endpoints).
 */
export type TaskPreviewEvent = { type: 'PREVIEW'; body: VideoTaskBody } | { type: 'CLEAR' };

export interface TaskPreviewContext {
  /** The body last asked for (the view tells whether the form still matches it). */
  body: VideoTaskBody | null;
  preview: VideoPreview | null;
  /** The server's sentence (refused, throttled) or a message id. */
  error: string | null;
  /** Checks that failed in a row. */
  failures: number;
}

export const POLL_MS = 500;
export const MAX_POLL_MS = 8000;

/** The wait before the next check after `failures` failed checks in a row. */
export const previewPollDelay = (failures: number) =>
  Math.min(MAX_POLL_MS, POLL_MS * 2 ** Math.max(0, failures));

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  return typeof msg === 'string' && msg ? msg : 'http.requestError';
};
/** The server answered (a refusal of what was sent), not the network. */
const isRefusal = (error: unknown) => (error as { kind?: unknown } | null)?.kind === 'reply';
/** Too many previews in a minute (HTTP 429). */
const isThrottled = (error: unknown) => (error as { status?: unknown } | null)?.status === 429;

const FRESH: TaskPreviewContext = { body: null, preview: null, error: null, failures: 0 };

export const taskPreviewMachine = setup({
  types: { context: {} as TaskPreviewContext, events: {} as TaskPreviewEvent },
  actors: {
    start: fromPromise<VideoPreview, { body: VideoTaskBody }>(async () => {
      throw new Error('taskPreview: provide the start actor');
    }),
    check: fromPromise<VideoPreview, { id: number }>(async () => {
      throw new Error('taskPreview: provide the check actor');
    }),
  },
  delays: { poll: ({ context }) => previewPollDelay(context.failures) },
  actions: {
    ask: assign(({ event }) => ({
      ...FRESH,
      body: event.type === 'PREVIEW' ? event.body : null,
    })),
  },
  guards: {
    done: ({ context }) => context.preview?.status === 'done',
    failed: ({ context }) => context.preview?.status === 'failed',
  },
}).createMachine({
  id: 'taskPreview',
  context: FRESH,
  initial: 'idle',
  on: { CLEAR: { target: '.idle', actions: assign(FRESH) } },
  states: {
    idle: { on: { PREVIEW: { target: 'asking', actions: 'ask' } } },
    asking: {
      tags: ['busy'],
      invoke: {
        id: 'start',
        src: 'start',
        input: ({ context }) => ({ body: context.body! }),
        onDone: { target: 'settling', actions: assign({ preview: ({ event }) => event.output }) },
        onError: [
          {
            guard: ({ event }) => isThrottled(event.error),
            target: 'throttled',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
          {
            target: 'refused',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
        ],
      },
    },
    /** Where an answer leads: done, failed, or on watching. */
    settling: {
      always: [
        { guard: 'done', target: 'ready' },
        { guard: 'failed', target: 'failed' },
        { target: 'watching' },
      ],
    },
    watching: {
      tags: ['busy'],
      initial: 'waiting',
      states: {
        waiting: { after: { poll: 'checking' } },
        checking: {
          invoke: {
            id: 'check',
            src: 'check',
            input: ({ context }) => ({ id: context.preview!.id }),
            onDone: {
              target: '#taskPreview.settling',
              actions: assign({ preview: ({ event }) => event.output, failures: 0 }),
            },
            onError: [
              {
                guard: ({ event }) => isRefusal(event.error),
                target: '#taskPreview.refused',
                actions: assign({ error: ({ event }) => errorText(event.error) }),
              },
              {
                target: 'waiting',
                actions: assign({ failures: ({ context }) => context.failures + 1 }),
              },
            ],
          },
        },
      },
    },
    // Settled: PREVIEW asks for a new one.
    ready: { on: { PREVIEW: { target: 'asking', actions: 'ask' } } },
    failed: { on: { PREVIEW: { target: 'asking', actions: 'ask' } } },
    refused: { on: { PREVIEW: { target: 'asking', actions: 'ask' } } },
    throttled: { on: { PREVIEW: { target: 'asking', actions: 'ask' } } },
  },
});

export type TaskPreviewSnapshot = SnapshotFrom<typeof taskPreviewMachine>;
