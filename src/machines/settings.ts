import { assertEvent, assign, enqueueActions, setup, type SnapshotFrom } from 'xstate';

/**
 * The layout settings and the settings drawer (docs/domain.md §13 "Global settings drawer" and "Default
 * layout", §3 "Layout settings", §4). App-level actor. Pure: the page effects (theme class,
 * colour-weak filter, server menu, local storage) are placeholder actions injected with
 * `.provide()`; the machine never touches the DOM.
 *
 * Every change that alters a setting runs `persist`; events that would change nothing (a switch
 * set to its current value, an invalid width, RESET at the defaults) are not handled, so
 * `snapshot.can(event)` tells a view whether a control would do anything.
 */

export type Theme = 'light' | 'dark';

export interface LayoutSettings {
  theme: Theme;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  footer: boolean;
  tabBar: boolean;
  menuFromServer: boolean;
  colorWeak: boolean;
  menuWidth: number;
  menuCollapse: boolean;
  /** The drawer is open; mirrors the `open` state and is never persisted. */
  globalSettings: boolean;
}

/** What is stored and copied: the layout without the drawer's visibility. */
export type PersistedSettings = Omit<LayoutSettings, 'globalSettings'>;

/** Spec §2 "Default layout". */
export const DEFAULT_SETTINGS: Readonly<LayoutSettings> = {
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

/** The drawer's switches in drawer order (the menu width field sits between menuFromServer and colorWeak). */
export const SWITCH_KEYS = [
  'navbar',
  'menu',
  'topMenu',
  'footer',
  'tabBar',
  'menuFromServer',
  'colorWeak',
] as const;

export type SwitchKey = (typeof SWITCH_KEYS)[number];

/**
 * The spec gives only the default (220). Below 160 px the longer section names no longer fit
 * beside their icons (collapsing is the way to a narrow menu); above 400 px a 1280-px screen
 * keeps too little room for the tables. Widths are whole pixels.
 */
export const MENU_WIDTH_LIMITS = { min: 160, max: 400 } as const;

export interface SettingsInput {
  /** What local storage held (a JSON string or a parsed value); sanitised, merged over the defaults. */
  stored: unknown;
}

export type SettingsEvent =
  | { type: 'SET'; key: SwitchKey; value: boolean }
  /** Rounded and clamped to MENU_WIDTH_LIMITS; a non-finite value is ignored. */
  | { type: 'SET_MENU_WIDTH'; value: number }
  | { type: 'TOGGLE_THEME' }
  /** Only while the side menu is shown (menu on, top menu off). */
  | { type: 'TOGGLE_COLLAPSE' }
  | { type: 'OPEN_DRAWER' }
  | { type: 'CLOSE_DRAWER' }
  /** Back to the default layout; the drawer stays as it is. */
  | { type: 'RESET' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseStored(stored: unknown): unknown {
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return null;
  }
}

/** A whole number of pixels within MENU_WIDTH_LIMITS, or null for anything that is not a finite number. */
export function normalizeMenuWidth(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.min(MENU_WIDTH_LIMITS.max, Math.max(MENU_WIDTH_LIMITS.min, Math.round(value)));
}

/**
 * The known settings of a stored value (an object or its JSON), each only with the right type;
 * anything else is dropped key by key, so one bad key keeps the others. `globalSettings` is never
 * restored: the drawer starts closed.
 */
export function sanitizeSettings(stored: unknown): Partial<LayoutSettings> {
  const source = parseStored(stored);
  if (!isRecord(source)) return {};
  const own = (key: string): unknown => (Object.hasOwn(source, key) ? source[key] : undefined);
  const out: Partial<LayoutSettings> = {};
  const theme = own('theme');
  if (theme === 'light' || theme === 'dark') out.theme = theme;
  for (const key of [...SWITCH_KEYS, 'menuCollapse'] as const) {
    const value = own(key);
    if (typeof value === 'boolean') out[key] = value;
  }
  const width = normalizeMenuWidth(own('menuWidth'));
  if (width !== null) out.menuWidth = width;
  return out;
}

/** The settings a start with `stored` begins with (docs/domain.md §14: a top menu is never collapsed). */
export function restoreSettings(stored: unknown): LayoutSettings {
  const settings = { ...DEFAULT_SETTINGS, ...sanitizeSettings(stored), globalSettings: false };
  if (settings.topMenu) settings.menuCollapse = false;
  return settings;
}

export function persistedSettings(settings: LayoutSettings): PersistedSettings {
  const { globalSettings: _drawer, ...rest } = settings;
  return rest;
}

function differsFromDefaults(settings: LayoutSettings): boolean {
  const current = persistedSettings(settings);
  const defaults = persistedSettings(DEFAULT_SETTINGS);
  return (Object.keys(defaults) as (keyof PersistedSettings)[]).some(
    (key) => current[key] !== defaults[key],
  );
}

/** The switch an event would change, or null (unknown key, non-boolean, or already so). */
function switchChange(
  context: LayoutSettings,
  event: SettingsEvent,
): { key: SwitchKey; value: boolean } | null {
  if (event.type !== 'SET') return null;
  const { key, value } = event;
  if (!(SWITCH_KEYS as readonly string[]).includes(key) || typeof value !== 'boolean') return null;
  return context[key] === value ? null : { key, value };
}

/** Every change ends with this. */
const persist = {
  type: 'persist',
  params: ({ context }: { context: LayoutSettings }) => ({ settings: persistedSettings(context) }),
} as const;

const settingsChart = setup({
  types: {
    context: {} as LayoutSettings,
    events: {} as SettingsEvent,
    input: {} as SettingsInput,
    tags: {} as 'drawerOpen',
  },
  actions: {
    /** `html.light` / `html.dark` and the colour scheme. */
    applyTheme: (_, _params: { theme: Theme }) => {},
    /** `filter: invert(80%)` on the page when on, none when off (docs/domain.md §14, §17). */
    applyColorWeak: (_, _params: { on: boolean }) => {},
    /** Fetch the server menu (the menu actor's LOAD, with its notices). */
    loadServerMenu: () => {},
    clearServerMenu: () => {},
    /** Write the layout to local storage. */
    persist: (_, _params: { settings: PersistedSettings }) => {},

    setSwitch: assign(({ context, event }) => {
      assertEvent(event, 'SET');
      return { ...context, [event.key]: event.value };
    }),
    /** Spec §4: turning on topMenu sets menuCollapse to false. */
    expandMenu: assign({ menuCollapse: false }),
    setMenuWidth: assign({
      menuWidth: ({ context, event }) => {
        assertEvent(event, 'SET_MENU_WIDTH');
        return normalizeMenuWidth(event.value) ?? context.menuWidth;
      },
    }),
    toggleTheme: assign({
      theme: ({ context }) => (context.theme === 'light' ? 'dark' : 'light'),
    }),
    toggleCollapse: assign({ menuCollapse: ({ context }) => !context.menuCollapse }),
    /** The defaults and the page effects of what changes on the way (implemented below). */
    resetToDefaults: () => {},
  },
  guards: {
    turnsTopMenuOn: ({ context, event }) => {
      const change = switchChange(context, event);
      return change?.key === 'topMenu' && change.value;
    },
    turnsServerMenuOn: ({ context, event }) => {
      const change = switchChange(context, event);
      return change?.key === 'menuFromServer' && change.value;
    },
    turnsServerMenuOff: ({ context, event }) => {
      const change = switchChange(context, event);
      return change?.key === 'menuFromServer' && !change.value;
    },
    changesColorWeak: ({ context, event }) => switchChange(context, event)?.key === 'colorWeak',
    changesSwitch: ({ context, event }) => switchChange(context, event) !== null,
    changesMenuWidth: ({ context, event }) => {
      if (event.type !== 'SET_MENU_WIDTH') return false;
      const width = normalizeMenuWidth(event.value);
      return width !== null && width !== context.menuWidth;
    },
    /** The collapse button belongs to the side menu (none when hidden or replaced by the top menu). */
    sideMenuShown: ({ context }) => context.menu && !context.topMenu,
    differsFromDefaults: ({ context }) => differsFromDefaults(context),
  },
}).createMachine({
  id: 'settings',
  context: ({ input }) => restoreSettings(input.stored),
  // A reload restores the theme and the filter. A restored server menu is loaded by the route
  // guard at the first navigation that needs it (there is no token yet at start).
  entry: [
    { type: 'applyTheme', params: ({ context }) => ({ theme: context.theme }) },
    { type: 'applyColorWeak', params: ({ context }) => ({ on: context.colorWeak }) },
  ],
  on: {
    SET: [
      {
        guard: 'turnsTopMenuOn',
        actions: ['setSwitch', 'expandMenu', persist],
      },
      {
        guard: 'turnsServerMenuOn',
        actions: ['setSwitch', 'loadServerMenu', persist],
      },
      {
        guard: 'turnsServerMenuOff',
        actions: ['setSwitch', 'clearServerMenu', persist],
      },
      {
        guard: 'changesColorWeak',
        actions: [
          'setSwitch',
          { type: 'applyColorWeak', params: ({ context }) => ({ on: context.colorWeak }) },
          persist,
        ],
      },
      {
        guard: 'changesSwitch',
        actions: ['setSwitch', persist],
      },
    ],
    SET_MENU_WIDTH: {
      guard: 'changesMenuWidth',
      actions: ['setMenuWidth', persist],
    },
    TOGGLE_THEME: {
      actions: [
        'toggleTheme',
        { type: 'applyTheme', params: ({ context }) => ({ theme: context.theme }) },
        persist,
      ],
    },
    TOGGLE_COLLAPSE: {
      guard: 'sideMenuShown',
      actions: ['toggleCollapse', persist],
    },
    RESET: {
      guard: 'differsFromDefaults',
      actions: ['resetToDefaults', persist],
    },
  },
  initial: 'closed',
  states: {
    closed: { on: { OPEN_DRAWER: 'open' } },
    /** Spec §2: the drawer (300 wide, not routed); closed by its close and cancel buttons. */
    open: {
      tags: ['drawerOpen'],
      entry: assign({ globalSettings: true }),
      exit: assign({ globalSettings: false }),
      on: { CLOSE_DRAWER: 'closed' },
    },
  },
});

/**
 * `resetToDefaults` enqueues its siblings, which an action declared inside `setup` cannot name
 * with their types; provided here it can. Later `.provide()` calls keep it.
 */
export const settingsMachine = settingsChart.provide({
  actions: {
    resetToDefaults: enqueueActions(({ context, enqueue }) => {
      const next: LayoutSettings = { ...DEFAULT_SETTINGS, globalSettings: context.globalSettings };
      enqueue.assign(next);
      if (next.theme !== context.theme)
        enqueue({ type: 'applyTheme', params: { theme: next.theme } });
      if (next.colorWeak !== context.colorWeak)
        enqueue({ type: 'applyColorWeak', params: { on: next.colorWeak } });
      if (context.menuFromServer && !next.menuFromServer) enqueue('clearServerMenu');
    }),
  },
});

export type SettingsMachine = typeof settingsMachine;
export type SettingsSnapshot = SnapshotFrom<typeof settingsMachine>;
