import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { VideoTaskDetail } from '../../api/contract/video-tasks';

/**
 * The open video task's detail (the drawer of /creation/mixed-task and /creation/clip):
 * closed → loading → ready | failed. OPEN names the task; RELOAD asks again (after a retry or a
 * cancel); REFRESHED is the progress watch's newer copy of the same task (taken when ready, so a
 * load under way is not overtaken by an older answer). CLOSE forgets it. `load` is a placeholder
 * actor the area provides (input: the task's id).
 */
export type TaskDetailEvent<D = VideoTaskDetail> =
  | { type: 'OPEN'; id: number }
  | { type: 'RELOAD' }
  | { type: 'REFRESHED'; detail: D }
  | { type: 'CLOSE' };

export interface TaskDetailContext<D = VideoTaskDetail> {
  id: number | null;
  data: D | null;
  /** A message id or the server's sentence. */
  error: string | null;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

/** The detail of a work item D (a video task's; a digital-human video's is another instance). */
export const createTaskDetailMachine = <D extends { id: number }>(id: string) =>
  setup({
    types: {
      context: {} as TaskDetailContext<D>,
      events: {} as TaskDetailEvent<D>,
    },
    actors: {
      load: fromPromise<D, number>(async () => {
        throw new Error(`${id}: provide the load actor`);
      }),
    },
    actions: {
      open: assign({
        id: ({ event }) => {
          assertEvent(event, 'OPEN');
          return event.id;
        },
        data: null,
        error: null,
      }),
    },
  }).createMachine({
    id,
    context: { id: null, data: null, error: null },
    initial: 'closed',
    states: {
      closed: {
        on: { OPEN: { target: 'loading', actions: 'open' } },
      },
      loading: {
        tags: ['open', 'loading'],
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => context.id ?? 0,
          onDone: {
            target: 'ready',
            actions: assign({ data: ({ event }) => event.output, error: null }),
          },
          onError: {
            target: 'failed',
            actions: assign({ error: ({ event }) => errorText(event.error) }),
          },
        },
      },
      ready: {
        tags: ['open'],
        on: {
          RELOAD: 'loading',
          REFRESHED: {
            guard: ({ context, event }) => event.detail.id === context.id,
            actions: assign({ data: ({ event }) => event.detail }),
          },
        },
      },
      failed: {
        tags: ['open'],
        on: { RELOAD: 'loading' },
      },
    },
    on: {
      OPEN: { target: '.loading', reenter: true, actions: 'open' },
      CLOSE: { target: '.closed', actions: assign({ id: null, data: null, error: null }) },
    },
  });

export const taskDetailMachine = createTaskDetailMachine<VideoTaskDetail>('taskDetail');

export type TaskDetailSnapshot = SnapshotFrom<typeof taskDetailMachine>;
