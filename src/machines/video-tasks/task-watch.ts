import { assertEvent, assign, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { TaskStatus, VideoTask, VideoTaskDetail } from '../../api/contract/video-tasks';

/**
 * The progress watch of the video tasks area: while any task on show (a list's rows,
 * the open detail) is pending or running, it asks every POLL_MS for what changed; when none is,
 * it stops. A failed check waits longer each time (POLL_MS doubled per failure, at most
 * MAX_POLL_MS) and an answer starts again at POLL_MS. What it learns is kept as the latest known
 * state of each task (`tasks`, by id: the lists show a row as it is there), and an open detail's
 * is emitted (`detail`) for the detail actor. A list loaded afresh tells it (`SEEN`): the new rows
 * are the latest, and a check under way (asked before) is dropped and asked again.
 * The `check` actor is a placeholder the area provides: it reads what is on show itself.
 */

export const POLL_MS = 2000;
export const MAX_POLL_MS = 30_000;

/** A task with outputs still to make: watched. */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['pending', 'running'];
export const isActive = (status: TaskStatus) => ACTIVE_STATUSES.includes(status);

/** The wait before the next check after `failures` failed checks in a row. */
export function pollDelay(failures: number): number {
  return Math.min(MAX_POLL_MS, POLL_MS * 2 ** Math.max(0, failures));
}

export interface CheckOutput<T = VideoTask, D = VideoTaskDetail> {
  tasks: T[];
  /** The open tasks' details that were asked (an active one's). */
  details: D[];
}

export type TaskWatchEvent<T = VideoTask> =
  /** Whether anything on show is pending or running (the area works it out). */
  | { type: 'ACTIVE'; active: boolean }
  /** Tasks loaded afresh elsewhere (a list's page, the detail): the latest known. */
  | { type: 'SEEN'; tasks: readonly T[] };

export interface TaskWatchContext<T = VideoTask> {
  tasks: Record<number, T>;
  failures: number;
  active: boolean;
}

const merge = <T extends { id: number }>(known: Record<number, T>, tasks: readonly T[]) => {
  const next = { ...known };
  for (const task of tasks) next[task.id] = task;
  return next;
};

/**
 * A watch of work items of type T (by id) with details D: the video tasks' (below) and the
 * digital-human videos' (src/app/actors/digital-human-videos.ts) are instances.
 */
export const createTaskWatchMachine = <T extends { id: number }, D>(id: string) =>
  setup({
    types: {
      context: {} as TaskWatchContext<T>,
      events: {} as TaskWatchEvent<T>,
      emitted: {} as { type: 'detail'; detail: D },
    },
    actors: {
      check: fromPromise<CheckOutput<T, D>>(async () => {
        throw new Error(`${id}: provide the check actor`);
      }),
    },
    delays: {
      next: ({ context }) => pollDelay(context.failures),
    },
    guards: {
      active: ({ context }) => context.active,
    },
    actions: {
      setActive: assign({
        active: ({ event }) => {
          assertEvent(event, 'ACTIVE');
          return event.active;
        },
      }),
      keep: assign({
        tasks: ({ context, event }) => {
          assertEvent(event, 'SEEN');
          return merge(context.tasks, event.tasks);
        },
      }),
    },
  }).createMachine({
    id,
    context: { tasks: {}, failures: 0, active: false },
    initial: 'idle',
    on: {
      SEEN: { actions: 'keep' },
    },
    states: {
      idle: {
        on: {
          ACTIVE: [
            { guard: ({ event }) => event.active, target: 'waiting', actions: 'setActive' },
            { actions: 'setActive' },
          ],
        },
      },
      waiting: {
        tags: ['watching'],
        after: { next: 'checking' },
        on: {
          ACTIVE: [
            { guard: ({ event }) => !event.active, target: 'idle', actions: 'setActive' },
            { actions: 'setActive' },
          ],
        },
      },
      checking: {
        tags: ['watching', 'checking'],
        invoke: {
          id: 'check',
          src: 'check',
          onDone: {
            target: 'settled',
            actions: [
              assign({
                tasks: ({ context, event }) => merge(context.tasks, event.output.tasks),
                failures: 0,
              }),
              enqueueActions(({ event, enqueue }) => {
                for (const detail of event.output.details) enqueue.emit({ type: 'detail', detail });
              }),
            ],
          },
          onError: {
            target: 'settled',
            actions: assign({ failures: ({ context }) => context.failures + 1 }),
          },
        },
        on: {
          // Asked before this news: its answer could be older. Ask again.
          SEEN: { target: 'checking', reenter: true, actions: 'keep' },
          ACTIVE: { actions: 'setActive' },
        },
      },
      /** A check answered: go on while something on show is still active. */
      settled: {
        always: [{ guard: 'active', target: 'waiting' }, { target: 'idle' }],
      },
    },
  });

export const taskWatchMachine = createTaskWatchMachine<VideoTask, VideoTaskDetail>('taskWatch');

export type TaskWatchSnapshot = SnapshotFrom<typeof taskWatchMachine>;
