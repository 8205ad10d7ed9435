import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * One server-paginated list: a query (filters + page + limit) → loading → ready | failed.
 * Every change of the query loads again and cancels the load under way (the invoke is re-entered),
 * so the latest query wins however the replies arrive. New filters start again at page 1.
 * The `fetchPage` actor is a placeholder; views provide the API call with `.provide()`.
 */
export interface ListQuery<F> {
  filters: F;
  /** 1-based. */
  page: number;
  limit: number;
}

export interface ListPage<R> {
  list: R[];
  total: number;
}

export type ListEvent<F> =
  | { type: 'SET_FILTERS'; filters: F }
  | { type: 'SET_PAGE'; page: number }
  | { type: 'SET_LIMIT'; limit: number }
  | { type: 'RELOAD' };

export interface ListContext<F, R> {
  query: ListQuery<F>;
  rows: R[];
  total: number;
  /** A message id or the server's sentence. */
  error: string | null;
}

export interface ListInput<F> {
  filters: F;
  limit?: number;
}

export const DEFAULT_LIMIT = 20;
/** The largest page a list asks for unless its API allows more (the card list: 1000). */
export const MAX_LIMIT = 100;

export interface ListOptions {
  /** The largest page size the list's API accepts (default {@link MAX_LIMIT}). */
  maxLimit?: number;
}

/** The last page that has rows (1 when there are none). */
export const lastPage = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

const wholeAtLeastOne = (n: number) => (Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1);

export function createListMachine<F, R>(id: string, options: ListOptions = {}) {
  const maxLimit = options.maxLimit ?? MAX_LIMIT;
  return setup({
    types: {
      context: {} as ListContext<F, R>,
      events: {} as ListEvent<F>,
      input: {} as ListInput<F>,
    },
    actors: {
      fetchPage: fromPromise<ListPage<R>, ListQuery<F>>(async () => {
        throw new Error(`${id}: provide the fetchPage actor`);
      }),
    },
    guards: {
      /** A page past the end (rows went away meanwhile): go to the last page that has rows. */
      pastTheEnd: ({ context, event }) => {
        const page = (event as { output?: ListPage<R> }).output;
        return (
          !!page &&
          page.list.length === 0 &&
          page.total > 0 &&
          context.query.page > lastPage(page.total, context.query.limit)
        );
      },
    },
  }).createMachine({
    id,
    context: ({ input }) => ({
      query: { filters: input.filters, page: 1, limit: input.limit ?? DEFAULT_LIMIT },
      rows: [],
      total: 0,
      error: null,
    }),
    initial: 'loading',
    on: {
      SET_FILTERS: {
        target: '.loading',
        reenter: true,
        actions: assign({
          query: ({ context, event }) => {
            assertEvent(event, 'SET_FILTERS');
            return { ...context.query, filters: event.filters, page: 1 };
          },
        }),
      },
      SET_PAGE: {
        target: '.loading',
        reenter: true,
        actions: assign({
          query: ({ context, event }) => {
            assertEvent(event, 'SET_PAGE');
            return { ...context.query, page: wholeAtLeastOne(event.page) };
          },
        }),
      },
      SET_LIMIT: {
        target: '.loading',
        reenter: true,
        actions: assign({
          query: ({ context, event }) => {
            assertEvent(event, 'SET_LIMIT');
            return {
              ...context.query,
              limit: Math.min(maxLimit, wholeAtLeastOne(event.limit)),
              page: 1,
            };
          },
        }),
      },
      RELOAD: { target: '.loading', reenter: true },
    },
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => context.query,
          onDone: [
            {
              guard: 'pastTheEnd',
              target: 'loading',
              reenter: true,
              actions: assign({
                query: ({ context, event }) => ({
                  ...context.query,
                  page: lastPage(event.output.total, context.query.limit),
                }),
              }),
            },
            {
              target: 'ready',
              actions: assign({
                rows: ({ event }) => event.output.list,
                total: ({ event }) => event.output.total,
                error: null,
              }),
            },
          ],
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : 'http.requestError',
            }),
          },
        },
      },
      ready: {},
      failed: {},
    },
  });
}

export type ListMachine<F, R> = ReturnType<typeof createListMachine<F, R>>;
export type ListSnapshot<F, R> = SnapshotFrom<ListMachine<F, R>>;
