import { assertEvent, assign, emit, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import type { NotificationReadReply } from '../api/contract/notifications';

/**
 * The notifications bell (docs/domain.md §18): keeps the count of the signed-in user's unread
 * notifications live and marks them read. Two regions:
 * - `poll`: asks the count at once, then every POLL_MS while the page is visible; a hidden page
 *   (VISIBILITY false: another tab, a minimised window) asks nothing until it is shown again, and
 *   then asks at once. A failed check waits longer each time (doubled, at most MAX_POLL_MS).
 *   REFRESH asks now (the list was opened, something was marked read).
 * - `mark`: MARK_READ {ids} / MARK_ALL_READ, one call at a time; the count follows the answer at
 *   once and is asked again. A session that may not mark (login-as) sends nothing.
 * The `count` and `markRead` actors are placeholders the area provides.
 */

export const POLL_MS = 30_000;
export const MAX_POLL_MS = 5 * 60_000;

/** The wait before the next check after `failures` failed checks in a row. */
export function pollDelay(failures: number): number {
  return Math.min(MAX_POLL_MS, POLL_MS * 2 ** Math.max(0, failures));
}

export type MarkRequest = { ids: number[] } | { all: true };

export type NotificationsEvent =
  | { type: 'VISIBILITY'; visible: boolean }
  | { type: 'REFRESH' }
  | { type: 'MARK_READ'; ids: number[] }
  | { type: 'MARK_ALL_READ' };

export interface NotificationsContext {
  /** Unread notifications; null until the first answer. */
  count: number | null;
  failures: number;
  visible: boolean;
  /** Whether this session may mark notifications read (not a login-as session). */
  canMark: boolean;
  /** The mark call under way. */
  marking: MarkRequest | null;
  /** The last mark call failed (a message id or the server's sentence). */
  markError: string | null;
}

export interface NotificationsInput {
  visible: boolean;
  canMark: boolean;
}

const errorText = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'notifications.markFailed';

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as NotificationsInput,
    emitted: {} as { type: 'marked'; count: number },
  },
  actors: {
    count: fromPromise<number>(async () => {
      throw new Error('notifications: provide the count actor');
    }),
    markRead: fromPromise<NotificationReadReply, MarkRequest>(async () => {
      throw new Error('notifications: provide the markRead actor');
    }),
  },
  delays: {
    next: ({ context }) => pollDelay(context.failures),
  },
  guards: {
    visible: ({ context }) => context.visible,
    shown: ({ event }) => event.type === 'VISIBILITY' && event.visible,
    hidden: ({ event }) => event.type === 'VISIBILITY' && !event.visible,
    canMark: ({ context }) => context.canMark,
    someIds: ({ context, event }) =>
      context.canMark && event.type === 'MARK_READ' && event.ids.length > 0,
  },
  actions: {
    setVisible: assign({
      visible: ({ event }) => {
        assertEvent(event, 'VISIBILITY');
        return event.visible;
      },
    }),
  },
}).createMachine({
  id: 'notifications',
  type: 'parallel',
  context: ({ input }) => ({
    count: null,
    failures: 0,
    visible: input.visible,
    canMark: input.canMark,
    marking: null,
    markError: null,
  }),
  on: {
    VISIBILITY: { actions: 'setVisible' },
  },
  states: {
    poll: {
      initial: 'starting',
      states: {
        starting: {
          always: [{ guard: 'visible', target: 'checking' }, { target: 'paused' }],
        },
        checking: {
          tags: ['checking'],
          invoke: {
            id: 'count',
            src: 'count',
            onDone: {
              target: 'settled',
              actions: assign({ count: ({ event }) => event.output, failures: 0 }),
            },
            onError: {
              target: 'settled',
              actions: assign({ failures: ({ context }) => context.failures + 1 }),
            },
          },
          on: {
            // Asked before this change: its answer could be older. Ask again.
            REFRESH: { target: 'checking', reenter: true },
          },
        },
        /** A check answered: wait for the next while visible, else pause. */
        settled: {
          always: [{ guard: 'visible', target: 'waiting' }, { target: 'paused' }],
        },
        waiting: {
          after: { next: 'checking' },
          on: {
            REFRESH: 'checking',
            VISIBILITY: { guard: 'hidden', target: 'paused', actions: 'setVisible' },
          },
        },
        /** The page is hidden: nothing is asked until it is shown. */
        paused: {
          tags: ['paused'],
          on: {
            VISIBILITY: { guard: 'shown', target: 'checking', actions: 'setVisible' },
          },
        },
      },
    },
    mark: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            MARK_READ: {
              guard: 'someIds',
              target: 'marking',
              actions: assign({ marking: ({ event }) => ({ ids: [...event.ids] }) }),
            },
            MARK_ALL_READ: {
              guard: 'canMark',
              target: 'marking',
              actions: assign({ marking: { all: true } }),
            },
          },
        },
        marking: {
          tags: ['marking'],
          entry: assign({ markError: null }),
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => context.marking!,
            onDone: {
              target: 'idle',
              actions: [
                assign({
                  count: ({ context, event }) =>
                    context.marking && 'all' in context.marking
                      ? 0
                      : Math.max(0, (context.count ?? 0) - event.output.count),
                  marking: null,
                }),
                emit(({ event }) => ({ type: 'marked' as const, count: event.output.count })),
                // The count may have moved meanwhile: ask it again (a hidden page waits).
                raise({ type: 'REFRESH' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: assign({
                marking: null,
                markError: ({ event }) => errorText(event.error),
              }),
            },
          },
        },
      },
    },
  },
});

export type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>;
