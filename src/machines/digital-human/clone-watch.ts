import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CloneStatus, ImageClone, VoiceClone } from '../../api/contract/digital-human';
import { pollDelay } from '../video-tasks/task-watch';

/**
 * The training watch of the clones area: while any clone on show (the image clone
 * list's rows, the voice clone list's) is queued or training, it asks every POLL_MS (the video
 * task watch's figure and backoff: doubled per failed check, at most MAX_POLL_MS) for the lists on
 * show again; when none is, it stops. What it learns is kept as the latest known state of each
 * clone (`images`, `voices` by id: the lists show a row as it is there). A list loaded afresh
 * tells it (`SEEN`): those rows are the latest, and a check under way is dropped and asked again.
 * The `check` actor is a placeholder the area provides: it reads what is on show itself.
 */

export const ACTIVE_CLONE_STATUSES: readonly CloneStatus[] = ['queued', 'training'];
export const isTraining = (status: CloneStatus) => ACTIVE_CLONE_STATUSES.includes(status);

export interface CloneCheck {
  images: readonly ImageClone[];
  voices: readonly VoiceClone[];
}

export type CloneWatchEvent =
  { type: 'ACTIVE'; active: boolean } | ({ type: 'SEEN' } & Partial<CloneCheck>);

export interface CloneWatchContext {
  images: Record<number, ImageClone>;
  voices: Record<number, VoiceClone>;
  failures: number;
  active: boolean;
}

const merge = <T extends { id: number }>(known: Record<number, T>, rows: readonly T[] = []) => {
  if (rows.length === 0) return known;
  const next = { ...known };
  for (const row of rows) next[row.id] = row;
  return next;
};

const keep = assign<CloneWatchContext, CloneWatchEvent, undefined, CloneWatchEvent, never>(
  ({ context, event }) => {
    assertEvent(event, 'SEEN');
    return {
      images: merge(context.images, event.images),
      voices: merge(context.voices, event.voices),
    };
  },
);

export const cloneWatchMachine = setup({
  types: { context: {} as CloneWatchContext, events: {} as CloneWatchEvent },
  actors: {
    check: fromPromise<CloneCheck>(async () => {
      throw new Error('cloneWatch: provide the check actor');
    }),
  },
  delays: { next: ({ context }) => pollDelay(context.failures) },
  guards: { active: ({ context }) => context.active },
  actions: {
    setActive: assign({
      active: ({ event }) => {
        assertEvent(event, 'ACTIVE');
        return event.active;
      },
    }),
  },
}).createMachine({
  id: 'cloneWatch',
  context: { images: {}, voices: {}, failures: 0, active: false },
  initial: 'idle',
  on: { SEEN: { actions: keep } },
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
          actions: assign(({ context, event }) => ({
            images: merge(context.images, event.output.images),
            voices: merge(context.voices, event.output.voices),
            failures: 0,
          })),
        },
        onError: {
          target: 'settled',
          actions: assign({ failures: ({ context }) => context.failures + 1 }),
        },
      },
      on: {
        // Asked before this news: its answer could be older. Ask again.
        SEEN: { target: 'checking', reenter: true, actions: keep },
        ACTIVE: { actions: 'setActive' },
      },
    },
    settled: { always: [{ guard: 'active', target: 'waiting' }, { target: 'idle' }] },
  },
});

export type CloneWatchSnapshot = SnapshotFrom<typeof cloneWatchMachine>;
