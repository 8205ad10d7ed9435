import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * Moving a recharge package one place up or down (/account/recharge): idle → reading (the whole
 * current order, from the server) → saving (that order with the package swapped with its
 * neighbour; `sortPackages` numbers them 1, 2, …) → idle. Reading afresh, instead of trusting the
 * rows on screen, keeps the move right when the list is stale or spans pages. A package already at
 * that end saves nothing. One move at a time: MOVE is ignored while one is under way. `readOrder`
 * (output: the ids in their order) and `saveOrder` (input `{ ids }`) are placeholders
 * (`.provide()`).
 */
export type MoveDirection = 'up' | 'down';

export interface PackageMove {
  id: number;
  direction: MoveDirection;
}

export type PackageSortEvent = { type: 'MOVE' } & PackageMove;

export interface PackageSortContext {
  move: PackageMove | null;
  /** The order being saved. */
  ids: number[] | null;
  /** A message id or the server's sentence, of the last move that failed. */
  error: string | null;
  /** Moves that ended (saved, nothing to do, or failed): a change means "show the list afresh". */
  settled: number;
  /** The move just saved (null while one runs and after one that saved nothing). */
  moved: PackageMove | null;
}

/** The order after moving `id` one place; null when it is not there or already at that end. */
export function moveInOrder(
  ids: readonly number[],
  id: number,
  direction: MoveDirection,
): number[] | null {
  const from = ids.indexOf(id);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return null;
  const next = [...ids];
  next[from] = next[to];
  next[to] = id;
  return next;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const packageSortMachine = setup({
  types: {
    context: {} as PackageSortContext,
    events: {} as PackageSortEvent,
  },
  actors: {
    readOrder: fromPromise<number[]>(async () => {
      throw new Error('packageSort: provide the readOrder actor');
    }),
    saveOrder: fromPromise<unknown, { ids: number[] }>(async () => {
      throw new Error('packageSort: provide the saveOrder actor');
    }),
  },
  actions: {
    /** The move ended without saving: the error is kept for the view, the list shown afresh. */
    fail: assign({
      error: ({ event }) => errorText((event as { error?: unknown }).error),
      settled: ({ context }) => context.settled + 1,
      ids: null,
    }),
  },
  guards: {
    movable: ({ context, event }) => {
      const ids = (event as { output?: number[] }).output ?? [];
      return !!context.move && moveInOrder(ids, context.move.id, context.move.direction) !== null;
    },
  },
}).createMachine({
  id: 'packageSort',
  context: { move: null, ids: null, error: null, settled: 0, moved: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        MOVE: {
          target: 'reading',
          actions: assign({
            move: ({ event }) => {
              assertEvent(event, 'MOVE');
              return { id: event.id, direction: event.direction };
            },
            moved: null,
            error: null,
          }),
        },
      },
    },
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'readOrder',
        src: 'readOrder',
        onDone: [
          {
            guard: 'movable',
            target: 'saving',
            actions: assign({
              ids: ({ context, event }) =>
                moveInOrder(event.output, context.move!.id, context.move!.direction),
            }),
          },
          // Already first (or last), or gone meanwhile: nothing to save; the list is shown afresh.
          { target: 'idle', actions: assign({ settled: ({ context }) => context.settled + 1 }) },
        ],
        onError: { target: 'idle', actions: 'fail' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveOrder',
        src: 'saveOrder',
        input: ({ context }) => ({ ids: context.ids ?? [] }),
        onDone: {
          target: 'idle',
          actions: assign({
            moved: ({ context }) => context.move,
            settled: ({ context }) => context.settled + 1,
            ids: null,
          }),
        },
        onError: { target: 'idle', actions: 'fail' },
      },
    },
  },
});

export type PackageSortSnapshot = SnapshotFrom<typeof packageSortMachine>;
