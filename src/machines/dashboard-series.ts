import { assign, fromPromise, setup } from 'xstate';
import type { DashboardSeries, SeriesDays } from '../api/contract/dashboard';

/**
 * The dashboard's charts (docs/domain.md §22): the series of the chosen range (7 or 30 days).
 * RANGE asks for another range (the last answer stays shown until the new one comes); RELOAD asks
 * again for the same one (something it counts changed elsewhere). The `load` actor is provided by
 * the dashboard area (src/app/actors/dashboard.ts).
 */
export type DashboardSeriesEvent = { type: 'RANGE'; days: SeriesDays } | { type: 'RELOAD' };

export const dashboardSeriesMachine = setup({
  types: {
    context: {} as { days: SeriesDays; data: DashboardSeries | null; error: string | null },
    events: {} as DashboardSeriesEvent,
  },
  actors: {
    load: fromPromise<DashboardSeries, { days: SeriesDays }>(async () => {
      throw new Error('dashboardSeries: provide the load actor');
    }),
  },
}).createMachine({
  id: 'dashboardSeries',
  context: { days: 7, data: null, error: null },
  initial: 'loading',
  on: {
    RANGE: {
      guard: ({ context, event }) => event.days !== context.days,
      target: '.loading',
      actions: assign({ days: ({ event }) => event.days }),
    },
    RELOAD: '.loading',
  },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ days: context.days }),
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
    ready: {},
    failed: {},
  },
});
