/**
 * The settings machine through the real shell and its settings drawer, against a hand-written
 * oracle: the machine's shortest paths only propose event sequences; each step is a click (the
 * navbar's theme and settings buttons, the side menu's collapse button, a drawer switch, its
 * Cancel button) or typing in the width field, and the state after it comes from the table below,
 * asserted on screen (layout, theme class, filter, the drawer's controls).
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { applyColorWeakToDocument, applyThemeToDocument } from '../../src/app/theme/document-theme';
import { Shell } from '../../src/app/shell/shell';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  settingsMachine,
  type LayoutSettings,
  type SettingsEvent,
  type SettingsSnapshot,
  type SwitchKey,
} from '../../src/machines/settings';
import { SPEC_DEFAULTS, layoutSees } from './settings-model';
import { coverRows, pathName, person, rowsUsed, runUiPath, withoutPrefixes } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

// ---------------------------------------------------------------------------------------------
// The oracle, written from docs/domain.md §13 and §14. A state is the drawer (closed/open) and the one
// setting that differs from the default layout, if any (the model keeps at most one).

/** Each setting a person can change, by its name in the table. */
const CHANGES: Record<string, Partial<LayoutSettings>> = {
  dark: { theme: 'dark' },
  collapsed: { menuCollapse: true },
  'navbar off': { navbar: false },
  'menu off': { menu: false },
  'top menu': { topMenu: true },
  footer: { footer: true },
  'tab bar': { tabBar: true },
  'server menu': { menuFromServer: true },
  'colour weak': { colorWeak: true },
  'width 300': { menuWidth: 300 },
};

/** The drawer's switches: the change a click makes from the default layout. */
const SWITCHES: [SwitchKey, boolean, string][] = [
  ['navbar', false, 'navbar off'],
  ['menu', false, 'menu off'],
  ['topMenu', true, 'top menu'],
  ['footer', true, 'footer'],
  ['tabBar', true, 'tab bar'],
  ['menuFromServer', true, 'server menu'],
  ['colorWeak', true, 'colour weak'],
];

const TRANSITIONS: Record<string, string> = {
  'closed OPEN_DRAWER': 'open',
  'open CLOSE_DRAWER': 'closed',
  // The navbar's theme button and the side menu's collapse button (closed drawer only: the
  // drawer is modal).
  'closed TOGGLE_THEME': 'closed, dark',
  'closed, dark TOGGLE_THEME': 'closed',
  'closed TOGGLE_COLLAPSE': 'closed, collapsed',
  'closed, collapsed TOGGLE_COLLAPSE': 'closed',
  // Spec §4: turning the top menu on expands the menu.
  'open, collapsed SET topMenu=true': 'open, top menu',
  'open SET_MENU_WIDTH 300': 'open, width 300',
  'open, width 300 SET_MENU_WIDTH 220': 'open',
};
for (const [key, value, change] of SWITCHES) {
  TRANSITIONS[`open SET ${key}=${value}`] = `open, ${change}`;
  TRANSITIONS[`open, ${change} SET ${key}=${!value}`] = 'open';
}
// Every change outlives closing and opening the drawer.
for (const change of Object.keys(CHANGES)) {
  TRANSITIONS[`open, ${change} CLOSE_DRAWER`] = `closed, ${change}`;
  TRANSITIONS[`closed, ${change} OPEN_DRAWER`] = `open, ${change}`;
}

/** The settings a state of the table stands for. */
function settingsOf(state: string): LayoutSettings {
  const [drawer, change] = state.split(', ');
  return {
    ...SPEC_DEFAULTS,
    ...(change ? CHANGES[change] : {}),
    globalSettings: drawer === 'open',
  };
}

const STATES = Object.keys(CHANGES).flatMap((c) => [`closed, ${c}`, `open, ${c}`]);
STATES.push('closed', 'open');

// ---------------------------------------------------------------------------------------------

const text = enUS;
const SWITCH_LABELS: Record<SwitchKey, string> = {
  navbar: text['settings.navbar'],
  menu: text['settings.menu'],
  topMenu: text['settings.topMenu'],
  footer: text['settings.footer'],
  tabBar: text['settings.tabBar'],
  menuFromServer: text['settings.menuFromServer'],
  colorWeak: text['settings.colorWeak'],
};

const label = (event: SettingsEvent) => {
  if (event.type === 'SET') return `SET ${event.key}=${event.value}`;
  if (event.type === 'SET_MENU_WIDTH') return `SET_MENU_WIDTH ${event.value}`;
  return event.type;
};

/** The actor's state under the table's names (checked against the table, never the expectation). */
function nameOf(snapshot: SettingsSnapshot): string {
  const c = snapshot.context;
  const changes = Object.entries(CHANGES)
    .filter(([, change]) =>
      Object.entries(change).every(([k, v]) => c[k as keyof LayoutSettings] === v),
    )
    .map(([name]) => name);
  const others = (Object.keys(SPEC_DEFAULTS) as (keyof LayoutSettings)[]).filter(
    (k) =>
      k !== 'globalSettings' && c[k] !== SPEC_DEFAULTS[k] && !changes.some((n) => k in CHANGES[n]),
  );
  return [snapshot.value, ...changes, ...others.map((k) => `${k}=${String(c[k])}`)].join(', ');
}

/** What a person can do in each drawer state: the drawer is modal. */
function personEvents(snapshot: SettingsSnapshot): SettingsEvent[] {
  const events: SettingsEvent[] =
    snapshot.value === 'open'
      ? [
          ...SWITCHES.flatMap(([key]) => [
            { type: 'SET', key, value: true } as const,
            { type: 'SET', key, value: false } as const,
          ]),
          { type: 'SET_MENU_WIDTH', value: 300 },
          { type: 'SET_MENU_WIDTH', value: 220 },
          { type: 'CLOSE_DRAWER' },
        ]
      : [{ type: 'OPEN_DRAWER' }, { type: 'TOGGLE_THEME' }, { type: 'TOGGLE_COLLAPSE' }];
  // The bounded model: at most one setting differs from the default layout.
  return events.filter((e) => {
    if (!snapshot.can(e)) return false;
    const next = transition(settingsMachine, snapshot, e)[0].context;
    const differing = (Object.keys(SPEC_DEFAULTS) as (keyof LayoutSettings)[]).filter(
      (k) => k !== 'globalSettings' && next[k] !== SPEC_DEFAULTS[k],
    );
    return differing.length <= 1;
  });
}

function setup() {
  const settings = createActor(
    settingsMachine.provide({
      actions: {
        applyTheme: (_a, { theme }) => applyThemeToDocument(theme),
        applyColorWeak: (_a, { on }) => applyColorWeakToDocument(on),
      },
    }),
    { input: { stored: null } },
  ).start();
  const actors = appActors({ settings });
  renderAt(actors, <Shell />);
  const user = person();
  const drawer = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open).toHaveLength(1);
    return within(open[0]);
  };
  const exec = async (event: SettingsEvent) => {
    switch (event.type) {
      case 'OPEN_DRAWER':
        return user.click(screen.getByRole('button', { name: text['settings.title'] }));
      case 'CLOSE_DRAWER':
        return user.click(drawer().getByRole('button', { name: text['form.cancel'] }));
      case 'TOGGLE_THEME':
        return user.click(
          screen.getByRole('button', {
            name: new RegExp(`^(${text['shell.darkTheme']}|${text['shell.lightTheme']})$`),
          }),
        );
      case 'TOGGLE_COLLAPSE':
        return user.click(
          screen.getByRole('button', {
            name: new RegExp(`^(${text['shell.collapseMenu']}|${text['shell.expandMenu']})$`),
          }),
        );
      case 'SET':
        return user.click(drawer().getByRole('checkbox', { name: SWITCH_LABELS[event.key] }));
      case 'SET_MENU_WIDTH': {
        const field = drawer().getByRole('spinbutton', { name: text['settings.menuWidth'] });
        await user.clear(field);
        return user.type(field, String(event.value));
      }
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };
  return { settings, actors, exec };
}

function sees(state: string) {
  return () => {
    const settings = settingsOf(state);
    const layout = layoutSees(settings);
    expect(screen.queryByRole('banner') !== null, 'navbar').toBe(layout.navbar);
    // One "Settings" button: in the navbar, or floating when the navbar is hidden.
    const buttons = screen.queryAllByRole('button', { name: text['settings.title'] });
    expect(buttons).toHaveLength(1);
    expect(buttons[0].closest('header') !== null).toBe(!layout.floatingSettingsButton);
    const side = screen.queryByTestId('side-menu');
    expect(side !== null, 'side menu').toBe(layout.sideMenu !== null);
    if (layout.sideMenu) {
      const width = layout.sideMenu.collapsed ? 56 : layout.sideMenu.width;
      expect(getComputedStyle(side!).width).toBe(`${width}px`);
    }
    expect(screen.queryByTestId('top-menu') !== null, 'top menu').toBe(layout.topMenu);
    expect(screen.queryByRole('contentinfo') !== null, 'footer').toBe(layout.footer);
    expect(screen.queryByRole('tablist') !== null, 'tab bar').toBe(layout.tabBar);
    expect(document.documentElement.classList.contains(layout.theme), 'theme').toBe(true);
    expect(document.body.style.filter || null, 'filter').toBe(layout.filter);

    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open, 'the drawer').toHaveLength(settings.globalSettings ? 1 : 0);
    if (!settings.globalSettings) return;
    const drawer = within(open[0]);
    for (const [key, name] of Object.entries(SWITCH_LABELS) as [SwitchKey, string][]) {
      const control = drawer.getByRole('checkbox', { name }) as HTMLInputElement;
      expect(control.checked, key).toBe(settings[key]);
    }
    const width = drawer.getByRole('spinbutton', { name: text['settings.menuWidth'] });
    expect((width as HTMLInputElement).value).toBe(String(settings.menuWidth));
  };
}

// The drawer's code comes with its first opening (React.lazy): loaded up front, as fake timers
// wait for no I/O.
beforeAll(async () => {
  await Promise.all([
    import('../../src/app/theme/theme-later'),
    import('../../src/app/shell/settings-drawer'),
  ]);
});

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  document.documentElement.className = '';
  document.body.style.filter = '';
  vi.useRealTimers();
});

describe('the settings drawer and layout, from the default layout', () => {
  const rows = rowsUsed();
  const oracle = { initial: 'closed', transitions: TRANSITIONS, label };
  const paths = withoutPrefixes(
    coverRows(
      getShortestPaths(settingsMachine, {
        input: { stored: null },
        events: personEvents,
        // Each way into a state once (an undo click leads back to a state reached before).
        serializeState: (s, e) => `${nameOf(s)} via ${e ? label(e as SettingsEvent) : 'start'}`,
      }),
      oracle,
    ),
    (e) => label(e as SettingsEvent),
  );

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = setup();
      await runUiPath(
        path,
        {
          ...oracle,
          exec: world.exec,
          sees: Object.fromEntries(STATES.map((s) => [s, sees(s)])),
          actual: () => nameOf(world.settings.getSnapshot()),
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
});
