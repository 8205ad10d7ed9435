import { assign, fromPromise, setup } from 'xstate';

/**
 * Loads one piece of data for a view: loading → ready | failed, RELOAD to fetch again.
 * The `load` actor is a placeholder; views provide the API call with `.provide()`.
 */
export type LoadEvent = { type: 'RELOAD' };

export function createLoadMachine<T>(id: string) {
  return setup({
    types: {
      context: {} as { data: T | null; error: string | null },
      events: {} as LoadEvent,
    },
    actors: {
      load: fromPromise<T>(async () => {
        throw new Error(`${id}: provide the load actor`);
      }),
    },
  }).createMachine({
    id,
    context: { data: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: {
            target: 'ready',
            actions: assign({ data: ({ event }) => event.output, error: null }),
          },
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : 'http.requestError',
            }),
          },
        },
      },
      ready: { on: { RELOAD: 'loading' } },
      failed: { on: { RELOAD: 'loading' } },
    },
  });
}
