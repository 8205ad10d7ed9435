/**
 * The server menu through the real console: an admin signed in at /home/index, the
 * real shell and its settings drawer. The menu machine only proposes event sequences
 * (`getShortestPaths`); each step is the drawer's "Menu from server" switch turned on or off (open
 * the drawer, click the switch, Cancel) or the menu endpoint answering, and the state after it
 * comes from the hand-written table below, asserted on screen: the side menu's sections and
 * entries and the notices (loading, then success or error; docs/domain.md §14).
 *
 * Not reachable through the console, so not proposed: LOAD once the menu has loaded or failed.
 * The switch is then on, and only turning it on loads (the route guard loads only an idle menu).
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { MenuItem } from '../../src/api/contract/dashboard';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { menuMachine, type MenuSnapshot } from '../../src/machines/menu';
import { appWorld, preloadConsole, USERS, type World } from './app-world';
import { replyError } from './fixtures';
import {
  coverRows,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  settle,
  withoutPrefixes,
} from './ui-paths';
import { BRANDING, isOpen } from './view-harness';

// ---------------------------------------------------------------------------------------------
// The oracle, written from docs/domain.md §14. A state is what the side menu lists and which notice is up.

const TRANSITIONS: Record<string, string> = {
  // Turning the switch on asks the server; the route table's menu stays until it answers.
  'table menu LOAD': 'loading',
  'loading fetchMenu done': 'server menu',
  'loading fetchMenu fails': 'failed, table menu',
  // Turning the switch off: the route table's menu again, whatever the server said.
  'loading CLEAR': 'table menu',
  'server menu CLEAR': 'table menu',
  'failed, table menu CLEAR': 'table menu',
};

const STATES = ['table menu', 'loading', 'server menu', 'failed, table menu'];

// ---------------------------------------------------------------------------------------------

const text = enUS;
const entry = (name: string, path: string, hidden = false): MenuItem => ({
  name,
  path,
  titleId: `route.${name}`,
  hidden,
  children: [],
});
const MENU: MenuItem[] = [
  {
    name: 'dashboard',
    path: '/dashboard',
    titleId: 'menu.dashboard',
    hidden: false,
    children: [
      entry('workBench', '/dashboard/workBench'),
      entry('toCreateVideo', '/dashboard/to-create-video', true),
    ],
  },
  {
    name: 'creation',
    path: '/creation',
    titleId: 'menu.creation',
    hidden: false,
    children: [entry('clip', '/creation/clip'), entry('mixedshear', '/creation/mixedshear', true)],
  },
];

/** The side menu as a person reads it: each section and its entries. */
function sideMenu(): string[][] {
  const menu = within(screen.getByTestId('side-menu'));
  return menu.getAllByRole('group').map((g) => [
    g.getAttribute('aria-label')!,
    ...within(g)
      .getAllByRole('link')
      .map((l) => l.textContent),
  ]);
}

/** The notices shown (a closing one stays in the DOM for its exit animation: open ones only). */
function notices(): string[] {
  return [...screen.queryAllByRole('status'), ...screen.queryAllByRole('alert')]
    .filter((n) => n.closest('[data-state="closed"]') === null)
    .map((n) => n.textContent ?? '');
}

function sees(state: string) {
  return () => {
    const menu = sideMenu();
    if (state === 'server menu') {
      // Hidden entries are never listed.
      expect(menu).toEqual([
        [text['menu.dashboard'], text['route.workBench']],
        [text['menu.creation'], text['route.clip']],
      ]);
    } else {
      // An admin's menu from the route table: Home first, no video creation.
      expect(menu[0]).toEqual([text['menu.home'], text['route.home']]);
      expect(menu.map((s) => s[0])).not.toContain(text['menu.creation']);
    }
    const shown = notices().join(' | ');
    expect(shown.includes(text['menuLoad.loading']), `notices: ${shown}`).toBe(state === 'loading');
    if (state === 'server menu') expect(shown).toContain(text['menuLoad.success']);
    if (state.startsWith('failed')) expect(shown).toContain(text['menuLoad.error']);
  };
}

/** What a person can do: the switch turns on (LOAD) when off, off (CLEAR) when on. */
function personEvents(snapshot: MenuSnapshot) {
  const events: { type: string; output?: unknown; error?: unknown }[] = snapshot.matches('idle')
    ? [{ type: 'LOAD' }]
    : [{ type: 'CLEAR' }];
  if (snapshot.matches('loading')) {
    events.push(
      { type: 'xstate.done.actor.fetchMenu', output: MENU },
      { type: 'xstate.error.actor.fetchMenu', error: replyError('Busy') },
    );
  }
  return events as never[];
}

const label = (event: { type: string }) =>
  event.type === 'xstate.done.actor.fetchMenu'
    ? 'fetchMenu done'
    : event.type === 'xstate.error.actor.fetchMenu'
      ? 'fetchMenu fails'
      : event.type;

async function signedInAdmin(): Promise<World> {
  const world = appWorld({
    token: 'local',
    url: '/home/index',
    systemInfo: async () => BRANDING,
  });
  await world.endpoints.settle('getUserInfo', 'done', USERS.admin);
  for (let i = 0; i < 6; i++) await settle();
  return world;
}

function executor(world: World) {
  const user = person();
  const flipSwitch = async () => {
    await user.click(screen.getByRole('button', { name: text['settings.title'] }));
    await settle(); // the drawer's code comes with its first opening
    const drawer = within(screen.getAllByRole('dialog').filter(isOpen)[0]);
    await user.click(drawer.getByRole('checkbox', { name: text['settings.menuFromServer'] }));
    await user.click(drawer.getByRole('button', { name: text['form.cancel'] }));
  };
  return async (event: { type: string }) => {
    switch (label(event)) {
      case 'LOAD':
      case 'CLEAR':
        return flipSwitch();
      case 'fetchMenu done':
        return world.endpoints.settle('getUserMenu', 'done', MENU);
      case 'fetchMenu fails':
        return world.endpoints.settle('getUserMenu', 'error', replyError('Busy'));
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };
}

beforeAll(preloadConsole, 180_000);
beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('the server menu, for an admin at home', () => {
  const rows = rowsUsed();
  const oracle = { initial: 'table menu', transitions: TRANSITIONS, label };
  const paths = withoutPrefixes(
    coverRows(
      getShortestPaths(menuMachine, {
        events: personEvents,
        serializeState: (s, e) => `${JSON.stringify(s.value)} via ${e ? label(e) : 'start'}`,
      }),
      oracle,
    ),
    label,
  );

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = await signedInAdmin();
      await runUiPath(
        path,
        {
          ...oracle,
          exec: executor(world),
          sees: Object.fromEntries(STATES.map((s) => [s, sees(s)])),
        },
        rows.used,
      );
      world.dispose();
    },
    180_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(TRANSITIONS)).toEqual([]);
  });

  test('a menu that answers after the switch went off is not shown', async () => {
    const world = await signedInAdmin();
    const exec = executor(world);
    await exec({ type: 'LOAD' });
    await exec({ type: 'CLEAR' });
    await world.endpoints.settle('getUserMenu', 'done', MENU);
    await settle();
    sees('table menu')();
    expect(notices().join(' | ')).not.toContain(text['menuLoad.success']);
    world.dispose();
  }, 180_000);

  // Spec §4: logout clears the server menu. The server is not asked for it again on the way out
  // (there is no session left to ask with): the next sign-in's guard loads it afresh.
  test('a logout forgets the server menu: it is not asked for again on the way out', async () => {
    const world = await signedInAdmin();
    const exec = executor(world);
    await exec({ type: 'LOAD' });
    await exec({ type: 'xstate.done.actor.fetchMenu' });
    sees('server menu')();
    const user = person();
    // By keyboard: zag's menu ignores user-event's pointer on items in jsdom.
    screen.getByRole('button', { name: `User menu of ${USERS.admin.nickname}` }).focus();
    await user.keyboard('{Enter}');
    await vi.advanceTimersByTimeAsync(100);
    await user.keyboard('{End}');
    await vi.advanceTimersByTimeAsync(100);
    await user.keyboard('{Enter}');
    await world.endpoints.settle('logout', 'done', null);
    for (let i = 0; i < 4; i++) await settle();
    expect(world.url()).toMatch(/^\/login/);
    expect(world.endpoints.waiting()).toEqual([]);
    expect(notices().join(' | ')).not.toContain(text['menuLoad.loading']);
    world.dispose();
  }, 180_000);
});
