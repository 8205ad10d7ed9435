import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { MenuItem } from '../api/contract/dashboard';

/**
 * The server menu (docs/domain.md §14: "Turning on menuFromServer fetches the menu config"; "Menu loading
 * shows a notice with loading, then success or error"). App-level actor; `fetchMenu` is injected.
 * The notices are shown by the view from the state (see `menuNotice`). CLEAR on logout.
 */

export type MenuEvent = { type: 'LOAD' } | { type: 'CLEAR' };

export interface MenuContext {
  items: MenuItem[];
  /** Every route name in the menu, hidden entries included (they are reachable). */
  names: string[];
  error: string | null;
}

export type MenuNotice = {
  type: 'loading' | 'success' | 'error';
  messageId: 'menuLoad.loading' | 'menuLoad.success' | 'menuLoad.error';
};

export function menuNames(items: readonly MenuItem[]): string[] {
  return items.flatMap((item) => [item.name, ...menuNames(item.children ?? [])]);
}

const empty: MenuContext = { items: [], names: [], error: null };

export const menuMachine = setup({
  types: {
    context: {} as MenuContext,
    events: {} as MenuEvent,
    tags: {} as 'menuLoading' | 'menuSettled',
  },
  actors: {
    fetchMenu: fromPromise<MenuItem[]>(async () => {
      throw new Error('menu: provide fetchMenu');
    }),
  },
}).createMachine({
  id: 'menu',
  context: empty,
  initial: 'idle',
  on: { CLEAR: { target: '.idle', actions: assign(empty) } },
  states: {
    idle: { on: { LOAD: 'loading' } },
    loading: {
      tags: ['menuLoading'],
      invoke: {
        id: 'fetchMenu',
        src: 'fetchMenu',
        onDone: {
          target: 'loaded',
          actions: assign(({ event }) => ({
            items: event.output,
            names: menuNames(event.output),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            items: [],
            names: [],
            error: ({ event }) => {
              const msg = (event.error as { msg?: unknown } | null)?.msg;
              return typeof msg === 'string' && msg ? msg : 'menuLoad.error';
            },
          }),
        },
      },
    },
    loaded: { tags: ['menuSettled'], on: { LOAD: 'loading' } },
    failed: { tags: ['menuSettled'], on: { LOAD: 'loading' } },
  },
});

export type MenuMachine = typeof menuMachine;
export type MenuSnapshot = SnapshotFrom<typeof menuMachine>;

/** The notice a person sees in this state (loading, then success or error), or none. */
export function menuNotice(snapshot: MenuSnapshot): MenuNotice | null {
  if (snapshot.hasTag('menuLoading')) return { type: 'loading', messageId: 'menuLoad.loading' };
  if (snapshot.matches('loaded')) return { type: 'success', messageId: 'menuLoad.success' };
  if (snapshot.matches('failed')) return { type: 'error', messageId: 'menuLoad.error' };
  return null;
}
