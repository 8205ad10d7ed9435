import { assign, fromPromise, setup } from 'xstate';
import type { SystemInfo } from '../api/contract/system';

/**
 * White-label branding of the current host (docs/domain.md §13: fetched on first load by the current origin,
 * used for the page title and tab icon). App-level actor; `fetchSystemInfo` is injected.
 */
export const brandingMachine = setup({
  types: {
    context: {} as { info: SystemInfo | null },
    events: {} as { type: 'RELOAD' },
  },
  actors: {
    fetchSystemInfo: fromPromise<SystemInfo>(async () => {
      throw new Error('branding: provide fetchSystemInfo');
    }),
  },
  actions: {
    applyToDocument: () => {},
  },
}).createMachine({
  id: 'branding',
  context: { info: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['brandingPending'],
      invoke: {
        id: 'fetchSystemInfo',
        src: 'fetchSystemInfo',
        onDone: {
          target: 'ready',
          actions: [assign({ info: ({ event }) => event.output }), 'applyToDocument'],
        },
        onError: { target: 'failed' },
      },
    },
    ready: { on: { RELOAD: 'loading' } },
    failed: { on: { RELOAD: 'loading' } },
  },
});
