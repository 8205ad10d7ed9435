import { assign, fromPromise, setup } from 'xstate';
import type { VideoData } from '../api/contract/matrix-plans';

/**
 * The video data page (/matrix-distribution/video-data, docs/domain.md §20): the published posts'
 * numbers over a period (the last 7, 30 or 90 days), for one account and one plan or all.
 * loading → ready | failed; a change of period, account or plan loads again (a load under way is
 * dropped); RELOAD after a refusal; EXPORT (ready, with rows) saves the rows as a CSV through the
 * `save` action, which the area provides (it writes the file). `load` is a placeholder actor.
 */
export const VIDEO_DATA_PERIODS = [7, 30, 90] as const;
export type VideoDataPeriod = (typeof VIDEO_DATA_PERIODS)[number];

export interface VideoDataFilters {
  period: VideoDataPeriod;
  accountId: number | null;
  planId: number | null;
}

/** The texts of the CSV (its header row) and the viewer's locale (its dates). */
export interface VideoDataExport {
  locale: string;
  headers: readonly string[];
}

export type MatrixVideoDataEvent =
  | { type: 'SET_PERIOD'; period: VideoDataPeriod }
  | { type: 'SET_ACCOUNT'; accountId: number | null }
  | { type: 'SET_PLAN'; planId: number | null }
  | { type: 'RELOAD' }
  | ({ type: 'EXPORT' } & VideoDataExport);

export interface MatrixVideoDataContext {
  filters: VideoDataFilters;
  data: VideoData | null;
  /** A refused load: a message id or the server's sentence. */
  error: string | null;
  /** How many exports were saved. */
  exported: number;
}

export const DEFAULT_VIDEO_DATA_FILTERS: VideoDataFilters = {
  period: 30,
  accountId: null,
  planId: null,
};

export const matrixVideoDataMachine = setup({
  types: {
    context: {} as MatrixVideoDataContext,
    events: {} as MatrixVideoDataEvent,
  },
  actors: {
    load: fromPromise<VideoData, VideoDataFilters>(async () => {
      throw new Error('matrixVideoData: provide the load actor');
    }),
  },
  actions: {
    save: (_, _params: { data: VideoData } & VideoDataExport) => {},
  },
  guards: {
    hasRows: ({ context }) => (context.data?.rows.length ?? 0) > 0,
  },
}).createMachine({
  id: 'matrixVideoData',
  context: { filters: DEFAULT_VIDEO_DATA_FILTERS, data: null, error: null, exported: 0 },
  initial: 'loading',
  on: {
    SET_PERIOD: {
      target: '.loading',
      actions: assign({
        filters: ({ context, event }) => ({ ...context.filters, period: event.period }),
      }),
    },
    SET_ACCOUNT: {
      target: '.loading',
      actions: assign({
        filters: ({ context, event }) => ({ ...context.filters, accountId: event.accountId }),
      }),
    },
    SET_PLAN: {
      target: '.loading',
      actions: assign({
        filters: ({ context, event }) => ({ ...context.filters, planId: event.planId }),
      }),
    },
  },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.filters,
        onDone: {
          target: 'ready',
          actions: assign({ data: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({
            data: null,
            error: ({ event }) =>
              event.error instanceof Error ? event.error.message : 'http.requestError',
          }),
        },
      },
    },
    ready: {
      on: {
        RELOAD: 'loading',
        EXPORT: {
          guard: 'hasRows',
          actions: [
            {
              type: 'save',
              params: ({ context, event }) => ({
                data: context.data!,
                locale: event.locale,
                headers: event.headers,
              }),
            },
            assign({ exported: ({ context }) => context.exported + 1 }),
          ],
        },
      },
    },
    failed: { tags: ['failed'], on: { RELOAD: 'loading' } },
  },
});
