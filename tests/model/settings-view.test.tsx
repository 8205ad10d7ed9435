/**
 * Model-based path tests of the settings machine through the real shell: the shortest paths of a
 * small bounded model run on a real actor (with the real page effects) while the shell and its
 * settings drawer are rendered; each step asserts what a person sees, from SETTINGS_STATES.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { applyColorWeakToDocument, applyThemeToDocument } from '../../src/app/theme/document-theme';
import { Shell } from '../../src/app/shell/shell';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  settingsMachine,
  type SettingsSnapshot,
  type SwitchKey,
} from '../../src/machines/settings';
import { describePath, fakeCalls, runPath } from './harness';
import {
  describeEvent,
  eventsFor,
  initialSettings,
  serializeFrom,
  settingsSees,
} from './settings-model';
import { appActors, flush, isOpen, renderAt } from './view-harness';

const SWITCH_LABELS: Record<SwitchKey, string> = {
  navbar: enUS['settings.navbar'],
  menu: enUS['settings.menu'],
  topMenu: enUS['settings.topMenu'],
  footer: enUS['settings.footer'],
  tabBar: enUS['settings.tabBar'],
  menuFromServer: enUS['settings.menuFromServer'],
  colorWeak: enUS['settings.colorWeak'],
};

async function assertSees(snapshot: SettingsSnapshot) {
  await flush();
  const sees = settingsSees(snapshot);
  expect(screen.queryByRole('banner') !== null).toBe(sees.navbar);
  // One "Settings" button: in the navbar, or floating when the navbar is hidden.
  const settingsButtons = screen.queryAllByRole('button', { name: enUS['settings.title'] });
  expect(settingsButtons).toHaveLength(1);
  expect(settingsButtons[0].closest('header') !== null).toBe(!sees.floatingSettingsButton);

  const side = screen.queryByTestId('side-menu');
  if (sees.sideMenu) {
    expect(side).not.toBeNull();
    const width = sees.sideMenu.collapsed ? 56 : sees.sideMenu.width;
    expect(getComputedStyle(side!).width).toBe(`${width}px`);
  } else {
    expect(side).toBeNull();
  }
  expect(screen.queryByTestId('top-menu') !== null).toBe(sees.topMenu);
  expect(screen.queryByRole('contentinfo') !== null).toBe(sees.footer);
  expect(screen.queryByRole('tablist') !== null).toBe(sees.tabBar);
  expect(document.documentElement.classList.contains(sees.theme)).toBe(true);
  expect(document.body.style.filter || null).toBe(sees.filter);

  const drawers = screen.queryAllByRole('dialog').filter(isOpen);
  if (!sees.drawer) {
    expect(drawers).toHaveLength(0);
    return;
  }
  expect(drawers).toHaveLength(1);
  const drawer = within(drawers[0]);
  for (const [key, on] of Object.entries(sees.drawer.switches) as [SwitchKey, boolean][]) {
    const control = drawer.getByRole('checkbox', { name: SWITCH_LABELS[key] }) as HTMLInputElement;
    expect(control.checked, key).toBe(on);
  }
  const width = drawer.getByRole('spinbutton', { name: enUS['settings.menuWidth'] });
  expect((width as HTMLInputElement).value).toBe(String(sees.drawer.menuWidth));
  drawer.getByRole('button', { name: enUS['form.cancel'] });
  drawer.getByRole('button', { name: enUS['settings.copy'] });
  drawer.getByRole('button', { name: enUS['form.close'] });
}

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

describe('settings views, from the default layout', () => {
  const start = initialSettings(null).context;
  const serialize = serializeFrom(start);
  const paths = getShortestPaths(settingsMachine, {
    input: { stored: null },
    events: eventsFor(start, 1),
    serializeState: (state, event) => serialize(state, event),
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const settings = createActor(
        settingsMachine.provide({
          actions: {
            applyTheme: (_a, { theme }) => applyThemeToDocument(theme),
            applyColorWeak: (_a, { on }) => applyColorWeakToDocument(on),
          },
        }),
        { input: { stored: null } },
      );
      const actors = appActors({ settings });
      renderAt(actors, <Shell />);
      await runPath({
        path,
        actor: settings,
        calls: fakeCalls(),
        serialize: (s: SettingsSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actors.dispose();
    },
  );
});
