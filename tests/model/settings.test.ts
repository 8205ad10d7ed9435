/**
 * Model-based path tests of the settings machine: every shortest path of a bounded model of the
 * real machine, run on a real actor whose page effects are recorded on a fake page. Each step
 * asserts what the state promises: tags, the settings the spec's rules give, the effects that ran
 * (theme, colour-weak filter, server menu, storage), and that the page and storage now show what
 * the per-state table says a person sees — also after a reload from what was stored.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  MENU_WIDTH_LIMITS,
  settingsMachine,
  type SettingsEvent,
  type SettingsSnapshot,
} from '../../src/machines/settings';
import { describePath, fakeCalls, runPath } from './harness';
import {
  SETTINGS_STATES,
  describeEvent,
  eventsFor,
  expectedAfter,
  expectedEffects,
  initialSettings,
  layoutSees,
  serializeFrom,
  settingsSees,
  type Effect,
  type SettingsTag,
} from './settings-model';

/** What the injected effects did to the page and to local storage. */
interface FakePage {
  theme: string | null;
  filter: string | null;
  stored: unknown;
  effects: Effect[];
}

function makeActor(stored: unknown, page: FakePage) {
  return createActor(
    settingsMachine.provide({
      actions: {
        applyTheme: (_, params) => {
          page.theme = params.theme;
          page.effects.push(['applyTheme', params]);
        },
        applyColorWeak: (_, params) => {
          page.filter = params.on ? 'invert(80%)' : null;
          page.effects.push(['applyColorWeak', params]);
        },
        loadServerMenu: () => page.effects.push(['loadServerMenu']),
        clearServerMenu: () => page.effects.push(['clearServerMenu']),
        persist: (_, params) => {
          // What local storage would hold: a string, read back on the next start.
          page.stored = JSON.stringify(params.settings);
          page.effects.push(['persist', params.settings]);
        },
      },
    }),
    { input: { stored } },
  );
}

function checkStep(
  snapshot: SettingsSnapshot,
  event: SettingsEvent | null,
  previous: SettingsSnapshot | null,
  page: FakePage,
) {
  const row = SETTINGS_STATES[snapshot.value];
  expect(row, `no row for ${snapshot.value}`).toBeDefined();
  expect((['drawerOpen'] as SettingsTag[]).filter((tag) => snapshot.hasTag(tag))).toEqual(row.tags);
  const { context } = snapshot;
  // The drawer flag mirrors the state.
  expect(context.globalSettings).toBe(snapshot.value === 'open');

  if (event && previous) {
    expect(context).toEqual(expectedAfter(previous.context, event));
    expect(page.effects).toEqual(expectedEffects(previous.context, context));
  } else {
    // At start the restored theme and filter are applied; nothing is stored or fetched.
    expect(page.effects).toEqual([
      ['applyTheme', { theme: context.theme }],
      ['applyColorWeak', { on: context.colorWeak }],
    ]);
  }
  page.effects.length = 0;

  // Rules that hold in every state.
  if (context.topMenu) expect(context.menuCollapse).toBe(false);
  expect(Number.isInteger(context.menuWidth)).toBe(true);
  expect(context.menuWidth).toBeGreaterThanOrEqual(MENU_WIDTH_LIMITS.min);
  expect(context.menuWidth).toBeLessThanOrEqual(MENU_WIDTH_LIMITS.max);

  // The page shows the theme and filter the table promises.
  const sees = settingsSees(snapshot);
  expect(page.theme).toBe(sees.theme);
  expect(page.filter).toBe(sees.filter);
  // A reload from what is stored shows the same layout, with the drawer closed.
  const reloaded = initialSettings(page.stored);
  expect(reloaded.value).toBe('closed');
  expect(layoutSees(reloaded.context)).toEqual(layoutSees(context));
}

const STARTS = [
  { stored: 'nothing stored', value: null, cap: 2 },
  {
    stored: 'a changed layout',
    value: JSON.stringify({
      theme: 'dark',
      colorWeak: true,
      menuFromServer: true,
      menuCollapse: true,
      menuWidth: 260,
      footer: true,
      globalSettings: true,
      unknown: 1,
    }),
    cap: 1,
  },
];

const reached = new Set<string>();

describe.each(STARTS)('settings, starting with $stored', ({ value, cap }) => {
  const start = initialSettings(value).context;
  const serialize = serializeFrom(start);
  const paths = getShortestPaths(settingsMachine, {
    input: { stored: value },
    events: eventsFor(start, cap),
    serializeState: (state, event) => serialize(state, event),
  });

  test('the model has paths through every event', () => {
    const types = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)));
    expect([...types].sort()).toEqual([
      'CLOSE_DRAWER',
      'OPEN_DRAWER',
      'RESET',
      'SET',
      'SET_MENU_WIDTH',
      'TOGGLE_COLLAPSE',
      'TOGGLE_THEME',
    ]);
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const page: FakePage = { theme: null, filter: null, stored: value, effects: [] };
      const actor = makeActor(value, page);
      await runPath({
        path,
        actor,
        calls: fakeCalls(),
        serialize: (s: SettingsSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot, event, previous) => {
          reached.add(snapshot.value);
          checkStep(snapshot, event, previous, page);
        },
      });
      actor.stop();
    },
  );
});

describe('settings, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(SETTINGS_STATES).sort());
  });
});
