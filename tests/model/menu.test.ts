/**
 * Model-based path tests of the server-menu machine: every shortest path on a real actor whose
 * fetch is a fake settled by the path's steps.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { MenuItem } from '../../src/api/contract/dashboard';
import { menuMachine, menuNotice, type MenuSnapshot } from '../../src/machines/menu';
import type { MessageId } from '../../src/i18n/messages';
import { describePath, fakeCalls, runPath } from './harness';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.

export interface MenuSees {
  /** The notice shown: loading, then success or error (spec §4, §8). */
  notice: { type: 'loading' | 'success' | 'error'; text: MessageId } | null;
  /** Whether the side menu lists the server's entries ('kept': what it listed before). */
  listsServerMenu: boolean | 'kept';
}

export const MENU_STATES: Record<
  string,
  { tags: ('menuLoading' | 'menuSettled')[]; waitingFor: string[]; sees: MenuSees }
> = {
  idle: { tags: [], waitingFor: [], sees: { notice: null, listsServerMenu: false } },
  loading: {
    tags: ['menuLoading'],
    waitingFor: ['fetchMenu'],
    sees: { notice: { type: 'loading', text: 'menuLoad.loading' }, listsServerMenu: 'kept' },
  },
  loaded: {
    tags: ['menuSettled'],
    waitingFor: [],
    sees: { notice: { type: 'success', text: 'menuLoad.success' }, listsServerMenu: true },
  },
  failed: {
    tags: ['menuSettled'],
    waitingFor: [],
    sees: { notice: { type: 'error', text: 'menuLoad.error' }, listsServerMenu: false },
  },
};

// ---------------------------------------------------------------------------------------------

const item = (name: string, children: MenuItem[] = [], hidden = false): MenuItem => ({
  name,
  path: `/${name}`,
  titleId: `route.${name}`,
  hidden,
  children,
});
const MENU: MenuItem[] = [
  item('dashboard', [item('workBench'), item('toCreateVideo', [], true)]),
  item('creation', [item('clip'), item('mixedshear', [], true)]),
];
const MENU_NAMES = ['dashboard', 'workBench', 'toCreateVideo', 'creation', 'clip', 'mixedshear'];

const EVENTS = [
  { type: 'LOAD' },
  { type: 'CLEAR' },
  { type: 'xstate.done.actor.fetchMenu', output: MENU },
  { type: 'xstate.error.actor.fetchMenu', error: { msg: 'Server busy' } },
];

function serialize(snapshot: MenuSnapshot, event?: { type: string }): string {
  return JSON.stringify({
    state: snapshot.value,
    items: snapshot.context.items.length,
    via: event?.type ?? 'init',
  });
}

describe('menu', () => {
  const paths = getShortestPaths(menuMachine, {
    events: (snapshot) => EVENTS.filter((e) => snapshot.can(e as never)) as never[],
    serializeState: (state, event) => serialize(state, event),
  });
  const reached = new Set<string>();

  test.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const calls = fakeCalls();
    const actor = createActor(menuMachine.provide({ actors: { fetchMenu: calls.logic() } }));
    await runPath({
      path,
      actor,
      calls,
      serialize: (s: MenuSnapshot, e?: { type: string }) => serialize(s, e),
      check: (snapshot, _event, previous) => {
        const key = String(snapshot.value);
        reached.add(key);
        const promised = MENU_STATES[key];
        expect(promised, `no row for ${key}`).toBeDefined();
        expect((['menuLoading', 'menuSettled'] as const).filter((t) => snapshot.hasTag(t))).toEqual(
          promised.tags,
        );
        expect(calls.waiting()).toEqual(promised.waitingFor);
        const notice = menuNotice(snapshot);
        expect(notice && { type: notice.type, text: notice.messageId }).toEqual(
          promised.sees.notice,
        );
        const lists =
          promised.sees.listsServerMenu === 'kept'
            ? (previous?.context.items.length ?? 0) > 0
            : promised.sees.listsServerMenu;
        expect(snapshot.context.items.length > 0).toBe(lists);
        expect(snapshot.context.names).toEqual(lists ? MENU_NAMES : []);
        if (key === 'failed') expect(snapshot.context.error).toBe('Server busy');
      },
    });
    actor.stop();
  });

  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(MENU_STATES).sort());
  });

  test('CLEAR while loading drops the answer that arrives later', async () => {
    const calls = fakeCalls();
    const actor = createActor(
      menuMachine.provide({ actors: { fetchMenu: calls.logic() } }),
    ).start();
    actor.send({ type: 'LOAD' });
    const pending = calls.pending.get('fetchMenu')!;
    actor.send({ type: 'CLEAR' });
    pending.resolve(MENU);
    await Promise.resolve();
    await Promise.resolve();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.items).toEqual([]);
  });
});
