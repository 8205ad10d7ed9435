/**
 * The settings machine's test model, shared by the logic path tests (settings.test.ts) and view
 * path tests: what a person sees in each state, the events, the serialisation, and the spec's
 * rules written out again here (not read from the machine) as the oracle of every step.
 */
import { getInitialSnapshot, transition } from 'xstate';
import {
  MENU_WIDTH_LIMITS,
  settingsMachine,
  type LayoutSettings,
  type SettingsEvent,
  type SettingsSnapshot,
  type SwitchKey,
  type Theme,
} from '../../src/machines/settings';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.
// The layout is the same in both drawer states and follows the settings (context), row by row.

export type SettingsTag = 'drawerOpen';

/** Spec §2: the drawer's controls, in order (menuWidth is the numeric field, 80 px wide). */
export const DRAWER_CONTROLS = [
  'navbar',
  'menu',
  'topMenu',
  'footer',
  'tabBar',
  'menuFromServer',
  'menuWidth',
  'colorWeak',
] as const;

export interface LayoutSees {
  /** The top navbar (brand, locale, theme, settings, user menu). */
  navbar: boolean;
  /** Spec §2: with the navbar hidden, a floating button opens the settings drawer. */
  floatingSettingsButton: boolean;
  /** The side menu, unless switched off or replaced by the top menu ("or top menu"). */
  sideMenu: { width: number; collapsed: boolean } | null;
  /** The menu as a horizontal bar. */
  topMenu: boolean;
  footer: boolean;
  /** The tab bar (role tablist). */
  tabBar: boolean;
  /** The class on <html> (`light` / `dark`). */
  theme: Theme;
  /** The page's CSS filter (docs/domain.md §14, §17: colour weak inverts by 80 %). */
  filter: 'invert(80%)' | null;
}

export interface SettingsSees extends LayoutSees {
  /**
   * The settings drawer (a dialog, 300 px wide, with a close button, a cancel button, a copy
   * settings button and an info alert): its switches, checked or not, and the width field's
   * value; null when closed.
   */
  drawer: { switches: Record<SwitchKey, boolean>; menuWidth: number } | null;
}

export function layoutSees(s: LayoutSettings): LayoutSees {
  return {
    navbar: s.navbar,
    floatingSettingsButton: !s.navbar,
    sideMenu: s.menu && !s.topMenu ? { width: s.menuWidth, collapsed: s.menuCollapse } : null,
    topMenu: s.topMenu,
    footer: s.footer,
    tabBar: s.tabBar,
    theme: s.theme,
    filter: s.colorWeak ? 'invert(80%)' : null,
  };
}

const drawerOf = (s: LayoutSettings): SettingsSees['drawer'] => ({
  switches: {
    navbar: s.navbar,
    menu: s.menu,
    topMenu: s.topMenu,
    footer: s.footer,
    tabBar: s.tabBar,
    menuFromServer: s.menuFromServer,
    colorWeak: s.colorWeak,
  },
  menuWidth: s.menuWidth,
});

export const SETTINGS_STATES: Record<
  'closed' | 'open',
  { tags: SettingsTag[]; sees: (settings: LayoutSettings) => SettingsSees }
> = {
  closed: { tags: [], sees: (s) => ({ ...layoutSees(s), drawer: null }) },
  open: { tags: ['drawerOpen'], sees: (s) => ({ ...layoutSees(s), drawer: drawerOf(s) }) },
};

export function settingsSees(snapshot: SettingsSnapshot): SettingsSees {
  return SETTINGS_STATES[snapshot.value].sees(snapshot.context);
}

// ---------------------------------------------------------------------------------------------
// The spec's rules, written out again (the oracle)

/** Spec §2 "Default layout" (and §9: menu width 220). */
export const SPEC_DEFAULTS: LayoutSettings = {
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
};

const clampWidth = (value: number) =>
  Math.min(MENU_WIDTH_LIMITS.max, Math.max(MENU_WIDTH_LIMITS.min, Math.round(value)));

/** The settings after `event`, by the rules of docs/domain.md §14 (and our width limits). */
export function expectedAfter(prev: LayoutSettings, event: SettingsEvent): LayoutSettings {
  switch (event.type) {
    case 'SET': {
      const next = { ...prev, [event.key]: event.value };
      // Turning on topMenu sets menuCollapse to false.
      if (event.key === 'topMenu' && event.value) next.menuCollapse = false;
      return next;
    }
    case 'SET_MENU_WIDTH':
      return Number.isFinite(event.value) ? { ...prev, menuWidth: clampWidth(event.value) } : prev;
    case 'TOGGLE_THEME':
      return { ...prev, theme: prev.theme === 'dark' ? 'light' : 'dark' };
    case 'TOGGLE_COLLAPSE':
      return { ...prev, menuCollapse: !prev.menuCollapse };
    case 'OPEN_DRAWER':
      return { ...prev, globalSettings: true };
    case 'CLOSE_DRAWER':
      return { ...prev, globalSettings: false };
    case 'RESET':
      return { ...SPEC_DEFAULTS, globalSettings: prev.globalSettings };
  }
}

export type Effect =
  | ['applyTheme', { theme: Theme }]
  | ['applyColorWeak', { on: boolean }]
  | ['loadServerMenu']
  | ['clearServerMenu']
  | ['persist', Omit<LayoutSettings, 'globalSettings'>];

/** The page effects a change from `prev` to `next` runs, in this order. */
export function expectedEffects(prev: LayoutSettings, next: LayoutSettings): Effect[] {
  const effects: Effect[] = [];
  if (next.theme !== prev.theme) effects.push(['applyTheme', { theme: next.theme }]);
  if (next.colorWeak !== prev.colorWeak) effects.push(['applyColorWeak', { on: next.colorWeak }]);
  if (next.menuFromServer && !prev.menuFromServer) effects.push(['loadServerMenu']);
  if (!next.menuFromServer && prev.menuFromServer) effects.push(['clearServerMenu']);
  const { globalSettings: _a, ...stored } = next;
  const { globalSettings: _b, ...before } = prev;
  if (JSON.stringify(stored) !== JSON.stringify(before)) effects.push(['persist', stored]);
  return effects;
}

// ---------------------------------------------------------------------------------------------
// The model: events and serialisation

/** Behaves like the others: only stored. Their flips are one facet of the model. */
const PLAIN_SWITCHES = ['navbar', 'footer', 'tabBar'] as const;
const ALL_SWITCHES: SwitchKey[] = [
  'navbar',
  'menu',
  'topMenu',
  'footer',
  'tabBar',
  'menuFromServer',
  'colorWeak',
];

export function initialSettings(stored: unknown): SettingsSnapshot {
  return getInitialSnapshot(settingsMachine, { stored });
}

const differences = (a: LayoutSettings, b: LayoutSettings) =>
  (Object.keys(a) as (keyof LayoutSettings)[]).filter((key) => a[key] !== b[key]).length;

/**
 * Every event a person can cause, as handled in this state, kept to a bounded model: at most
 * `cap` settings (the drawer counts) differ from the start, except RESET, which is always offered.
 */
export function eventsFor(start: LayoutSettings, cap: number) {
  return (snapshot: SettingsSnapshot): SettingsEvent[] => {
    const { context } = snapshot;
    const events: SettingsEvent[] = [
      { type: 'OPEN_DRAWER' },
      { type: 'CLOSE_DRAWER' },
      { type: 'TOGGLE_THEME' },
      { type: 'TOGGLE_COLLAPSE' },
      ...ALL_SWITCHES.map((key): SettingsEvent => ({ type: 'SET', key, value: !context[key] })),
      { type: 'SET_MENU_WIDTH', value: 300 },
      // Beyond the maximum: clamped.
      { type: 'SET_MENU_WIDTH', value: 1000 },
      // Not a number (an emptied field): ignored, so never offered.
      { type: 'SET_MENU_WIDTH', value: Number.NaN },
      { type: 'RESET' },
    ];
    return events.filter(
      (event) =>
        snapshot.can(event) &&
        (event.type === 'RESET' ||
          differences(start, transition(settingsMachine, snapshot, event)[0].context) <= cap),
    );
  };
}

export function describeEvent(event: SettingsEvent): string {
  if (event.type === 'SET') return `SET ${event.key}=${event.value}`;
  if (event.type === 'SET_MENU_WIDTH') return `SET_MENU_WIDTH ${event.value}`;
  return event.type;
}

/**
 * The drawer state, the settings that change behaviour, how many plain switches moved, and the
 * type of the event that led in (so that each kind of way into a state is tested once).
 */
export function serializeFrom(start: LayoutSettings) {
  return (snapshot: SettingsSnapshot, event?: { type: string }): string => {
    const c = snapshot.context;
    return JSON.stringify({
      state: snapshot.value,
      theme: c.theme,
      menu: c.menu,
      topMenu: c.topMenu,
      collapse: c.menuCollapse,
      server: c.menuFromServer,
      colorWeak: c.colorWeak,
      width: c.menuWidth,
      plain: PLAIN_SWITCHES.filter((key) => c[key] !== start[key]).length,
      via: event?.type ?? 'init',
    });
  };
}
