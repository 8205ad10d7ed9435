/**
 * The layout settings as tables: what a stored value restores (sanitizeSettings), and the
 * rules of docs/domain.md §13/§14 on a real actor, one row each. Expected answers are written out here.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import {
  DEFAULT_SETTINGS,
  MENU_WIDTH_LIMITS,
  SWITCH_KEYS,
  restoreSettings,
  sanitizeSettings,
  settingsMachine,
  type LayoutSettings,
  type SettingsEvent,
} from '../../src/machines/settings';

describe('the defaults (docs/domain.md §13 "Default layout", §9)', () => {
  test('light theme, navbar and side menu 220 wide, no footer, no tab bar, no server menu', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      theme: 'light',
      navbar: true,
      menu: true,
      topMenu: false,
      footer: false,
      tabBar: false,
      menuFromServer: false,
      colorWeak: false,
      menuWidth: 220,
      menuCollapse: false,
      globalSettings: false,
    });
  });

  test('the drawer lists its switches in the order of docs/domain.md §13', () => {
    expect(SWITCH_KEYS).toEqual([
      'navbar',
      'menu',
      'topMenu',
      'footer',
      'tabBar',
      'menuFromServer',
      'colorWeak',
    ]);
  });

  test('the default width lies within the limits', () => {
    expect(MENU_WIDTH_LIMITS.min).toBeLessThan(DEFAULT_SETTINGS.menuWidth);
    expect(MENU_WIDTH_LIMITS.max).toBeGreaterThan(DEFAULT_SETTINGS.menuWidth);
  });
});

describe('sanitizeSettings: what a stored value restores', () => {
  const polluted = Object.create({ navbar: false }) as object;
  test.each<[string, unknown, Partial<LayoutSettings>]>([
    ['nothing stored', null, {}],
    ['undefined', undefined, {}],
    ['a number', 42, {}],
    ['an array', [{ navbar: false }], {}],
    ['text that is not JSON', '{navbar: false', {}],
    ['JSON that is not an object', '"dark"', {}],
    [
      'a JSON string of settings',
      '{"theme":"dark","footer":true}',
      { theme: 'dark', footer: true },
    ],
    ['a parsed object', { tabBar: true, colorWeak: true }, { tabBar: true, colorWeak: true }],
    [
      'every known key',
      { ...DEFAULT_SETTINGS, theme: 'dark', menuCollapse: true, globalSettings: false },
      {
        theme: 'dark',
        navbar: true,
        menu: true,
        topMenu: false,
        footer: false,
        tabBar: false,
        menuFromServer: false,
        colorWeak: false,
        menuWidth: 220,
        menuCollapse: true,
      },
    ],
    ['unknown keys dropped', { navbar: false, primaryColor: 'red' }, { navbar: false }],
    ['a theme that does not exist', { theme: 'blue', footer: true }, { footer: true }],
    ['a switch stored as text', { navbar: 'false', menu: 0, topMenu: null }, {}],
    ['menuWidth as text', { menuWidth: '300' }, {}],
    ['menuWidth within the limits', { menuWidth: 300 }, { menuWidth: 300 }],
    ['menuWidth rounded to whole pixels', { menuWidth: 300.6 }, { menuWidth: 301 }],
    ['menuWidth below the minimum', { menuWidth: 20 }, { menuWidth: MENU_WIDTH_LIMITS.min }],
    ['menuWidth above the maximum', { menuWidth: 5000 }, { menuWidth: MENU_WIDTH_LIMITS.max }],
    ['menuWidth negative', { menuWidth: -220 }, { menuWidth: MENU_WIDTH_LIMITS.min }],
    ['menuWidth not finite', { menuWidth: Number.POSITIVE_INFINITY }, {}],
    ['menuWidth NaN', { menuWidth: Number.NaN }, {}],
    ['the drawer open: never restored', { globalSettings: true, footer: true }, { footer: true }],
    ['inherited properties ignored', polluted, {}],
    ['a __proto__ key ignored', '{"__proto__":{"navbar":false},"footer":true}', { footer: true }],
  ])('%s', (_, stored, expected) => {
    expect(sanitizeSettings(stored)).toEqual(expected);
  });

  test('a __proto__ key pollutes nothing', () => {
    sanitizeSettings('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('restoring merges over the defaults, the drawer closed, a top menu never collapsed', () => {
    expect(
      restoreSettings({ topMenu: true, menuCollapse: true, globalSettings: true, footer: true }),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      topMenu: true,
      menuCollapse: false,
      footer: true,
    });
  });
});

// ---------------------------------------------------------------------------------------------

type Effect = [string, unknown?];

function start(stored: unknown = null) {
  const effects: Effect[] = [];
  const actor = createActor(
    settingsMachine.provide({
      actions: {
        applyTheme: (_, p) => effects.push(['applyTheme', p]),
        applyColorWeak: (_, p) => effects.push(['applyColorWeak', p]),
        loadServerMenu: () => effects.push(['loadServerMenu']),
        clearServerMenu: () => effects.push(['clearServerMenu']),
        persist: (_, p) => effects.push(['persist', p.settings]),
      },
    }),
    { input: { stored } },
  ).start();
  return { actor, effects };
}

interface Row {
  rule: string;
  stored?: Partial<LayoutSettings>;
  before?: SettingsEvent[];
  event: SettingsEvent;
  /** null: the event is not handled (nothing changes, nothing runs). */
  changes: Partial<LayoutSettings> | null;
  /** The effects besides `persist` (which runs after every change). */
  effects?: Effect[];
}

describe('the rules, one event at a time', () => {
  const bad = (value: unknown) => value as number;
  test.each<Row>([
    // Switches
    {
      rule: 'a switch turned off',
      event: { type: 'SET', key: 'navbar', value: false },
      changes: { navbar: false },
    },
    {
      rule: 'a switch set to what it is: nothing',
      event: { type: 'SET', key: 'navbar', value: true },
      changes: null,
    },
    {
      rule: 'an unknown key: nothing',
      event: { type: 'SET', key: 'primaryColor' as 'navbar', value: true },
      changes: null,
    },
    {
      rule: 'a value that is not a boolean: nothing',
      event: { type: 'SET', key: 'footer', value: 'yes' as unknown as boolean },
      changes: null,
    },
    {
      rule: 'footer on',
      event: { type: 'SET', key: 'footer', value: true },
      changes: { footer: true },
    },
    {
      rule: 'tab bar on',
      event: { type: 'SET', key: 'tabBar', value: true },
      changes: { tabBar: true },
    },
    {
      rule: 'side menu off',
      event: { type: 'SET', key: 'menu', value: false },
      changes: { menu: false },
    },
    // Spec §4: top menu on expands the menu.
    {
      rule: 'top menu on, menu collapsed: no longer collapsed',
      stored: { menuCollapse: true },
      event: { type: 'SET', key: 'topMenu', value: true },
      changes: { topMenu: true, menuCollapse: false },
    },
    {
      rule: 'top menu on again after collapsing the side menu: expanded',
      stored: { topMenu: true },
      before: [{ type: 'SET', key: 'topMenu', value: false }, { type: 'TOGGLE_COLLAPSE' }],
      event: { type: 'SET', key: 'topMenu', value: true },
      changes: { topMenu: true, menuCollapse: false },
    },
    // Spec §4: menu from server fetches the menu; off clears it.
    {
      rule: 'menu from server on: load it',
      event: { type: 'SET', key: 'menuFromServer', value: true },
      changes: { menuFromServer: true },
      effects: [['loadServerMenu']],
    },
    {
      rule: 'menu from server off: clear it',
      stored: { menuFromServer: true },
      event: { type: 'SET', key: 'menuFromServer', value: false },
      changes: { menuFromServer: false },
      effects: [['clearServerMenu']],
    },
    // Spec §4, §9: colour weak inverts the page by 80 %.
    {
      rule: 'colour weak on',
      event: { type: 'SET', key: 'colorWeak', value: true },
      changes: { colorWeak: true },
      effects: [['applyColorWeak', { on: true }]],
    },
    {
      rule: 'colour weak off',
      stored: { colorWeak: true },
      event: { type: 'SET', key: 'colorWeak', value: false },
      changes: { colorWeak: false },
      effects: [['applyColorWeak', { on: false }]],
    },
    // Theme
    {
      rule: 'light to dark',
      event: { type: 'TOGGLE_THEME' },
      changes: { theme: 'dark' },
      effects: [['applyTheme', { theme: 'dark' }]],
    },
    {
      rule: 'dark to light',
      stored: { theme: 'dark' },
      event: { type: 'TOGGLE_THEME' },
      changes: { theme: 'light' },
      effects: [['applyTheme', { theme: 'light' }]],
    },
    // Collapse: only the side menu collapses.
    {
      rule: 'collapse the side menu',
      event: { type: 'TOGGLE_COLLAPSE' },
      changes: { menuCollapse: true },
    },
    {
      rule: 'expand it again',
      stored: { menuCollapse: true },
      event: { type: 'TOGGLE_COLLAPSE' },
      changes: { menuCollapse: false },
    },
    {
      rule: 'no collapsing a top menu',
      stored: { topMenu: true },
      event: { type: 'TOGGLE_COLLAPSE' },
      changes: null,
    },
    {
      rule: 'no collapsing a hidden side menu',
      stored: { menu: false },
      event: { type: 'TOGGLE_COLLAPSE' },
      changes: null,
    },
    // Menu width
    {
      rule: 'a width within the limits',
      event: { type: 'SET_MENU_WIDTH', value: 260 },
      changes: { menuWidth: 260 },
    },
    {
      rule: 'a fractional width: rounded',
      event: { type: 'SET_MENU_WIDTH', value: 259.5 },
      changes: { menuWidth: 260 },
    },
    {
      rule: 'below the minimum: the minimum',
      event: { type: 'SET_MENU_WIDTH', value: 80 },
      changes: { menuWidth: MENU_WIDTH_LIMITS.min },
    },
    {
      rule: 'above the maximum: the maximum',
      event: { type: 'SET_MENU_WIDTH', value: 9999 },
      changes: { menuWidth: MENU_WIDTH_LIMITS.max },
    },
    {
      rule: 'the same width: nothing',
      event: { type: 'SET_MENU_WIDTH', value: 220.2 },
      changes: null,
    },
    {
      rule: 'beyond the maximum when at it: nothing',
      stored: { menuWidth: MENU_WIDTH_LIMITS.max },
      event: { type: 'SET_MENU_WIDTH', value: 500 },
      changes: null,
    },
    {
      rule: 'an emptied field (NaN): nothing',
      event: { type: 'SET_MENU_WIDTH', value: Number.NaN },
      changes: null,
    },
    {
      rule: 'infinity: nothing',
      event: { type: 'SET_MENU_WIDTH', value: Number.POSITIVE_INFINITY },
      changes: null,
    },
    { rule: 'text: nothing', event: { type: 'SET_MENU_WIDTH', value: bad('300') }, changes: null },
    // Drawer: not persisted.
    { rule: 'the drawer opens', event: { type: 'OPEN_DRAWER' }, changes: { globalSettings: true } },
    {
      rule: 'an open drawer does not open again',
      before: [{ type: 'OPEN_DRAWER' }],
      event: { type: 'OPEN_DRAWER' },
      changes: null,
    },
    {
      rule: 'the drawer closes',
      before: [{ type: 'OPEN_DRAWER' }],
      event: { type: 'CLOSE_DRAWER' },
      changes: { globalSettings: false },
    },
    { rule: 'a closed drawer does not close', event: { type: 'CLOSE_DRAWER' }, changes: null },
    // Reset
    { rule: 'reset at the defaults: nothing', event: { type: 'RESET' }, changes: null },
    {
      rule: 'reset: the defaults, with the page effects of what changes on the way',
      stored: {
        theme: 'dark',
        colorWeak: true,
        menuFromServer: true,
        topMenu: true,
        menuWidth: 300,
        tabBar: true,
      },
      event: { type: 'RESET' },
      changes: {
        theme: 'light',
        colorWeak: false,
        menuFromServer: false,
        topMenu: false,
        menuWidth: 220,
        tabBar: false,
      },
      effects: [
        ['applyTheme', { theme: 'light' }],
        ['applyColorWeak', { on: false }],
        ['clearServerMenu'],
      ],
    },
    {
      rule: 'reset of a width only: no page effects',
      stored: { menuWidth: 300 },
      event: { type: 'RESET' },
      changes: { menuWidth: 220 },
    },
    {
      rule: 'reset keeps the drawer open',
      before: [{ type: 'OPEN_DRAWER' }, { type: 'SET', key: 'footer', value: true }],
      event: { type: 'RESET' },
      changes: { footer: false },
    },
  ])('$rule', ({ stored, before = [], event, changes, effects = [] }) => {
    const { actor, effects: ran } = start(stored ?? null);
    for (const e of before) actor.send(e);
    const was = actor.getSnapshot();
    ran.length = 0;
    expect(was.can(event)).toBe(changes !== null);
    actor.send(event);
    const now = actor.getSnapshot();
    if (changes === null) {
      expect(now.context).toEqual(was.context);
      expect(now.value).toBe(was.value);
      expect(ran).toEqual([]);
      return;
    }
    expect(now.context).toEqual({ ...was.context, ...changes });
    const { globalSettings: _drawer, ...persisted } = now.context;
    const drawerOnly = Object.keys(changes).every((key) => key === 'globalSettings');
    expect(ran).toEqual(drawerOnly ? effects : [...effects, ['persist', persisted]]);
    expect(now.hasTag('drawerOpen')).toBe(now.context.globalSettings);
  });

  test('at start the restored theme and filter are applied; nothing is loaded or stored', () => {
    const { actor, effects } = start('{"theme":"dark","colorWeak":true,"menuFromServer":true}');
    expect(effects).toEqual([
      ['applyTheme', { theme: 'dark' }],
      ['applyColorWeak', { on: true }],
    ]);
    expect(actor.getSnapshot().context.menuFromServer).toBe(true);
  });

  test('the injected actions survive a later provide (reset still runs its page effects)', () => {
    const { actor, effects } = start({ theme: 'dark' });
    effects.length = 0;
    actor.send({ type: 'RESET' });
    expect(effects.map(([name]) => name)).toEqual(['applyTheme', 'persist']);
  });
});
