/**
 * The tabs machine through the real tab bar, against a hand-written oracle: the machine's
 * shortest paths only propose event sequences; each step is a click on a tab, on a tab's close
 * icon, or an entry of the selected tab's actions menu (Reload, Close, Close others, Close tabs
 * to the right; by keyboard: Zag ignores user-event's pointer on menu items in jsdom), and the
 * tabs shown after it come from the table below. The route follower (OPEN) and logout (RESET)
 * are not rendered here: the start has Home shown, as the follower leaves it. The table runs once
 * per role, signed in as that role: Home is the role's own home page.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise, getInitialSnapshot, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { UserInfo } from '../../src/api/contract/auth';
import type { Role } from '../../src/api/contract/roles';
import { TabBar } from '../../src/app/shell/tab-bar';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { authMachine } from '../../src/machines/auth';
import {
  tabsMachine,
  type TabEntry,
  type TabsEvent,
  type TabsSnapshot,
} from '../../src/machines/tabs';
import { coverRows, pathName, person, rowsUsed, runUiPath, withoutPrefixes } from './ui-paths';
import { appActors, flush, renderAt } from './view-harness';

const tab = (
  short: string,
  title: string,
  name: string,
  fullPath: string,
): TabEntry & { short: string } => ({
  short,
  title,
  name,
  fullPath,
  query: Object.fromEntries(new URLSearchParams(fullPath.split('?')[1] ?? '')),
  ignoreCache: false,
});
/**
 * Each role's home page, H in the table (docs/domain.md §13: the admin's is the default route /home/index;
 * the others go to the first page they may open: the dashboard's workBench for partner and
 * merchant, /user/info for an agent).
 */
const HOMES: Record<Exclude<Role, 'developer'>, ReturnType<typeof tab>> = {
  admin: tab('H', 'route.home', 'home', '/home/index'),
  partner: tab('H', 'route.workBench', 'workBench', '/dashboard/workBench'),
  merchant: tab('H', 'route.workBench', 'workBench', '/dashboard/workBench'),
  agent: tab('H', 'route.userInfo', 'userInfo', '/user/info'),
};
const USER_TYPE = { admin: 0, partner: 1, merchant: 2, agent: 3 } as const;
const OTHERS = [
  tab('C', 'route.clip', 'clip', '/creation/clip?task=1'),
  tab('M', 'route.mixedTask', 'mixedTask', '/creation/mixed-task'),
];

// ---------------------------------------------------------------------------------------------
// The oracle, written from docs/domain.md §13 (tabs): a state is the tabs shown, in order, the selected one
// in brackets. Closing the selected tab selects its right neighbour, else its left one; "close
// others" and "close to the right" keep Home, whatever the role.

const TRANSITIONS: Record<string, string> = {
  '[H] C M SELECT C': 'H [C] M',
  '[H] C M SELECT M': 'H C [M]',
  '[H] C M CLOSE H': '[C] M',
  '[H] C M CLOSE C': '[H] M',
  '[H] C M CLOSE M': '[H] C',
  '[H] C M CLOSE_RIGHT H': '[H]',
  'H [C] M CLOSE_OTHERS C': 'H [C]',
  'H [C] M CLOSE_RIGHT C': 'H [C]',
  'H [C] M CLOSE C': 'H [M]',
  'H C [M] CLOSE M': 'H [C]',
  'H C [M] CLOSE_OTHERS M': 'H [M]',
  '[C] M CLOSE C': '[M]',
  '[C] M CLOSE_RIGHT C': '[C]',
  '[M] CLOSE M': '(none)',
  'H [C] M SELECT H': '[H] C M',
  '[H] M SELECT M': 'H [M]',
  '[H] M CLOSE M': '[H]',
  'H C [M] CLOSE H': 'C [M]',
  '[H] C SELECT C': 'H [C]',
  // Home stays.
  '[H] C M CLOSE_OTHERS H': '[H]',
  'H [C] M CLOSE M': 'H [C]',
  'H [C] SELECT H': '[H] C',
  'H [M] SELECT H': '[H] M',
  '[C] M SELECT M': 'C [M]',
  '[C] M CLOSE M': '[C]',
  // No Home to keep.
  '[C] M CLOSE_OTHERS C': '[C]',
  '[H] CLOSE H': '(none)',
  'C [M] SELECT C': '[C] M',
  'C [M] CLOSE_OTHERS M': '[M]',
};
// "Reload" renders the selected page afresh and keeps the tabs as they are.
for (const state of new Set(Object.values(TRANSITIONS))) {
  const selected = /\[(\w)\]/.exec(state)?.[1];
  if (selected) TRANSITIONS[`${state} RELOAD ${selected}`] = state;
}

// ---------------------------------------------------------------------------------------------

const text = enUS;

/** The role's pages and the helpers that name them. */
function pagesFor(role: keyof typeof HOMES) {
  const pages = [HOMES[role], ...OTHERS];
  const stored = pages.map(({ short: _short, ...entry }) => entry);
  const shortOf = (fullPath: string) => pages.find((p) => p.fullPath === fullPath)!.short;
  const pageOf = (short: string) => pages.find((p) => p.short === short)!;
  const label = (event: TabsEvent) =>
    'fullPath' in event ? `${event.type} ${shortOf(event.fullPath)}` : event.type;
  /** The actor's state under the table's names (checked against the table, never the expectation). */
  const nameOf = (snapshot: TabsSnapshot): string => {
    const { tabs, active } = snapshot.context;
    if (tabs.length === 0) return '(none)';
    return tabs
      .map((t) => (t.fullPath === active ? `[${shortOf(t.fullPath)}]` : shortOf(t.fullPath)))
      .join(' ');
  };
  return { role, home: HOMES[role].fullPath, stored, shortOf, pageOf, label, nameOf };
}
type Pages = ReturnType<typeof pagesFor>;

/** What a person can do: pick another tab, close one, or use the selected tab's menu. */
function personEvents(pages: Pages) {
  return (snapshot: TabsSnapshot): TabsEvent[] => {
    const { tabs, active } = snapshot.context;
    const events: TabsEvent[] = [];
    for (const t of tabs) {
      if (t.fullPath !== active) events.push({ type: 'SELECT', fullPath: t.fullPath });
      events.push({ type: 'CLOSE', fullPath: t.fullPath });
    }
    if (active) {
      events.push({ type: 'CLOSE_OTHERS', fullPath: active, home: pages.home });
      events.push({ type: 'CLOSE_RIGHT', fullPath: active, home: pages.home });
      events.push({ type: 'RELOAD', fullPath: active });
    }
    return events.filter((e) => snapshot.can(e));
  };
}

const MENU: Partial<Record<TabsEvent['type'], string>> = {
  RELOAD: text['tabs.reload'],
  CLOSE: text['tabs.close'],
  CLOSE_OTHERS: text['tabs.closeOthers'],
  CLOSE_RIGHT: text['tabs.closeRight'],
};

/** An auth actor signed in as `role` (its user info answers at once). */
async function signedInAs(role: keyof typeof HOMES) {
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(
          async () => ({ accountId: 1, user_type: USER_TYPE[role] }) as unknown as UserInfo,
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  await flush();
  expect(auth.getSnapshot().context.role).toBe(role);
  return auth;
}

async function setup(pages: Pages) {
  const tabs = createActor(tabsMachine, {
    input: { stored: JSON.stringify(pages.stored) },
  }).start();
  // The route follower shows Home first (not rendered here: the tab bar alone).
  tabs.send({ type: 'OPEN', tab: pages.stored[0] });
  const actors = appActors({ tabs, auth: await signedInAs(pages.role) });
  renderAt(actors, <TabBar />, '/elsewhere');
  const user = person();
  const tabNamed = (short: string) =>
    within(screen.getByRole('tablist', { name: text['tabs.label'] })).getByRole('tab', {
      name: text[pages.pageOf(short).title as keyof typeof text],
    });
  const menuItem = async (name: string) => {
    screen.getByRole('button', { name: text['tabs.actions'] }).focus();
    await user.keyboard('{Enter}');
    await vi.advanceTimersByTimeAsync(100);
    // Arrow down to the entry (disabled entries are skipped), then choose it.
    for (let i = 0; i < 6; i++) {
      const highlighted = screen
        .queryAllByRole('menuitem')
        .find((item) => item.hasAttribute('data-highlighted'));
      if (highlighted?.textContent === name) return user.keyboard('{Enter}');
      await user.keyboard('{ArrowDown}');
      await vi.advanceTimersByTimeAsync(100);
    }
    throw new Error(`no menu entry '${name}'`);
  };
  const exec = async (event: TabsEvent) => {
    if (event.type === 'SELECT') return user.click(tabNamed(pages.shortOf(event.fullPath)));
    if (event.type === 'CLOSE' && event.fullPath !== tabs.getSnapshot().context.active) {
      const icon = within(tabNamed(pages.shortOf(event.fullPath))).getByTestId('tab-close');
      return user.click(icon);
    }
    const name = MENU[event.type];
    if (!name) throw new Error(`a person cannot cause ${event.type}`);
    return menuItem(name);
  };
  return { tabs, actors, exec };
}

function sees(pages: Pages, state: string) {
  return () => {
    const list = screen.getByRole('tablist', { name: text['tabs.label'] });
    const shown = within(list).queryAllByRole('tab');
    const expected = state === '(none)' ? [] : state.split(' ');
    expect(shown.map((t) => t.textContent)).toEqual(
      expected.map((s) => text[pages.pageOf(s.replace(/[[\]]/g, '')).title as keyof typeof text]),
    );
    expect(shown.map((t) => t.getAttribute('aria-selected'))).toEqual(
      expected.map((s) => String(s.startsWith('['))),
    );
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe.each(Object.keys(HOMES) as (keyof typeof HOMES)[])(
  'the tab bar of the %s, from Home, a clip task and the mixed-cut tasks',
  (role) => {
    const pages = pagesFor(role);
    const { label, nameOf } = pages;
    const rows = rowsUsed();
    const start = transition(
      tabsMachine,
      getInitialSnapshot(tabsMachine, { stored: pages.stored }),
      { type: 'OPEN', tab: pages.stored[0] },
    )[0];
    const paths = withoutPrefixes(
      coverRows(
        getShortestPaths(tabsMachine, {
          fromState: start,
          events: personEvents(pages),
          // Each kind of way into a state once.
          serializeState: (s, e) => `${nameOf(s)} via ${e ? (e as TabsEvent).type : 'start'}`,
        }),
        { initial: '[H] C M', transitions: TRANSITIONS, label },
      ),
      (e) => label(e as TabsEvent),
    );
    const states = new Set([...Object.keys(TRANSITIONS), ...Object.values(TRANSITIONS)]);

    test.each(paths.map((p) => [pathName(p, label), p] as const))(
      '%s',
      async (_, path) => {
        const world = await setup(pages);
        await runUiPath(
          path,
          {
            initial: '[H] C M',
            transitions: TRANSITIONS,
            label,
            exec: world.exec,
            sees: Object.fromEntries(
              [...states].map((row) => {
                const state = row.replace(/ (SELECT|CLOSE|CLOSE_OTHERS|CLOSE_RIGHT) \w+$/, '');
                return [state, sees(pages, state)];
              }),
            ),
            actual: () => nameOf(world.tabs.getSnapshot()),
          },
          rows.used,
        );
        world.actors.dispose();
      },
      30_000,
    );

    test('every row of the table is taken by a path', () => {
      expect(rows.unused(TRANSITIONS)).toEqual([]);
    });
  },
);
