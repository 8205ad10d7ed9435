import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';

/**
 * The tab bar (docs/domain.md §13: "keeps opened pages as tabs with a cache list"; §3 "Tab entry"). App-level
 * actor; `persist` (the tabs to local storage) is injected, so tabs survive a browser reload.
 *
 * Tabs are keyed by full path (path + query string): the same route with another query is another
 * tab. `cacheList` holds the full paths whose pages are kept alive while another tab is shown; a
 * tab marked `ignoreCache` is never in it, so its page is dropped when left and renders afresh on
 * return. RELOAD drops a page from it (the view then goes through `/redirect/:path`, and the
 * OPEN that follows brings it back, fresh).
 *
 * The view sends OPEN for each page it shows and navigates to `context.active` whenever that
 * changes to something other than the current location (a tab was selected, a close moved the
 * selection); `active` is null when there are no tabs, and after a reload until the first OPEN.
 * SELECT moves the selection before the router does, so that a kept page can be shown at once.
 */

export interface TabEntry {
  /** The page title's message id. */
  title: string;
  /** The route name. */
  name: string;
  /** Path and query string: the tab's key. */
  fullPath: string;
  query: Record<string, string>;
  /** Render the page afresh whenever its tab is shown again instead of keeping it alive. */
  ignoreCache: boolean;
}

export interface TabsContext {
  tabs: TabEntry[];
  /** Full paths of the pages kept alive. */
  cacheList: string[];
  /** The selected tab's full path. */
  active: string | null;
}

export interface TabsInput {
  /** What local storage held (a JSON string or a parsed value); sanitised. */
  stored: unknown;
}

export type TabsEvent =
  /** A page was shown: select its tab, adding it if new. */
  | { type: 'OPEN'; tab: TabEntry }
  /** The user picked an open tab: select it (the view shows its kept page and navigates there). */
  | { type: 'SELECT'; fullPath: string }
  | { type: 'CLOSE'; fullPath: string }
  /** `home`: the signed-in user's home page (route-table's homeRoute); its tab stays. */
  | { type: 'CLOSE_OTHERS'; fullPath: string; home: string | null }
  | { type: 'CLOSE_RIGHT'; fullPath: string; home: string | null }
  /** Render the page afresh (the view navigates via `/redirect/:path`). */
  | { type: 'RELOAD'; fullPath: string }
  /** Logout: no tabs. */
  | { type: 'RESET' };

/** The reload route (docs/domain.md §13): never shown as a tab. */
export const REDIRECT_PREFIX = '/redirect/';

/**
 * The user's home page (each role's own: docs/domain.md §13's default route for the admin, the first page
 * the others may open): its tab stays when others or those to the right are closed.
 */
const isHome = (tab: TabEntry, home: string | null) => tab.fullPath.split('?')[0] === home;

/** The tab key of a location: path and query string (the hash does not make another page). */
export function tabKey(location: { pathname: string; search?: string }): string {
  const search = location.search ?? '';
  return location.pathname + (search === '?' ? '' : search);
}

/** The query of a full path or query string; a repeated name keeps its last value. */
export function queryOf(pathOrSearch: string): Record<string, string> {
  const at = pathOrSearch.indexOf('?');
  return at < 0 ? {} : Object.fromEntries(new URLSearchParams(pathOrSearch.slice(at + 1)));
}

/** A full path that may be a tab: absolute, and not the reload route. */
export function isTabPath(fullPath: string): boolean {
  return (
    fullPath.startsWith('/') && !fullPath.startsWith('//') && !fullPath.startsWith(REDIRECT_PREFIX)
  );
}

/** The tab of a route shown at a location. */
export function tabEntry(
  route: { name: string; titleId: string; ignoreCache?: boolean },
  location: { pathname: string; search?: string },
): TabEntry {
  const fullPath = tabKey(location);
  return {
    title: route.titleId,
    name: route.name,
    fullPath,
    query: queryOf(fullPath),
    ignoreCache: route.ignoreCache === true,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sanitizeTab(value: unknown): TabEntry | null {
  if (!isRecord(value)) return null;
  const { title, name, fullPath, query, ignoreCache } = value;
  if (typeof title !== 'string' || !title || typeof name !== 'string' || !name) return null;
  if (typeof fullPath !== 'string' || !isTabPath(fullPath)) return null;
  return {
    title,
    name,
    fullPath,
    // A stored query that is not a plain object of strings is read again from the path.
    query:
      isRecord(query) && Object.values(query).every((v) => typeof v === 'string')
        ? (Object.fromEntries(Object.entries(query)) as Record<string, string>)
        : queryOf(fullPath),
    ignoreCache: ignoreCache === true,
  };
}

/**
 * The valid tabs of a stored value (an array or its JSON), in order; a tab with a missing or
 * mistyped field, a relative or reload path, or a full path already seen is dropped.
 */
export function sanitizeTabs(stored: unknown): TabEntry[] {
  let source = stored;
  if (typeof source === 'string') {
    try {
      source = JSON.parse(source) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(source)) return [];
  const seen = new Set<string>();
  const tabs: TabEntry[] = [];
  for (const item of source) {
    const tab = sanitizeTab(item);
    if (!tab || seen.has(tab.fullPath)) continue;
    seen.add(tab.fullPath);
    tabs.push(tab);
  }
  return tabs;
}

/** The context a start with `stored` begins with: the tabs, those not ignoreCache cached, none active. */
export function restoreTabs(stored: unknown): TabsContext {
  const tabs = sanitizeTabs(stored);
  return {
    tabs,
    cacheList: tabs.filter((tab) => !tab.ignoreCache).map((tab) => tab.fullPath),
    active: null,
  };
}

const indexOf = (context: TabsContext, fullPath: string) =>
  context.tabs.findIndex((tab) => tab.fullPath === fullPath);

/** The context after removing every tab `remove` picks; `active` is the caller's. */
function without(
  context: TabsContext,
  remove: (tab: TabEntry, index: number) => boolean,
): Omit<TabsContext, 'active'> {
  const tabs = context.tabs.filter((tab, index) => !remove(tab, index));
  const kept = new Set(tabs.map((tab) => tab.fullPath));
  return { tabs, cacheList: context.cacheList.filter((path) => kept.has(path)) };
}

/** Every change of the tabs ends with this. */
const persist = {
  type: 'persist',
  params: ({ context }: { context: TabsContext }) => ({ tabs: context.tabs }),
} as const;

export const tabsMachine = setup({
  types: {
    context: {} as TabsContext,
    events: {} as TabsEvent,
    input: {} as TabsInput,
  },
  actions: {
    /** Write the tabs to local storage. */
    persist: (_, _params: { tabs: TabEntry[] }) => {},

    /** Select an open tab; a page dropped by RELOAD is kept alive again from here on. */
    activate: assign(({ context, event }) => {
      assertEvent(event, 'OPEN');
      const { fullPath } = event.tab;
      const tab = context.tabs[indexOf(context, fullPath)];
      const cache = !tab.ignoreCache && !context.cacheList.includes(fullPath);
      return {
        active: fullPath,
        cacheList: cache ? [...context.cacheList, fullPath] : context.cacheList,
      };
    }),
    addTab: assign(({ context, event }) => {
      assertEvent(event, 'OPEN');
      const tab = sanitizeTab(event.tab)!;
      return {
        tabs: [...context.tabs, tab],
        cacheList: tab.ignoreCache ? context.cacheList : [...context.cacheList, tab.fullPath],
        active: tab.fullPath,
      };
    }),
    /** The selected tab closing selects its right neighbour, else its left one. */
    closeTab: assign(({ context, event }) => {
      assertEvent(event, 'CLOSE');
      const at = indexOf(context, event.fullPath);
      const rest = without(context, (_, index) => index === at);
      if (context.active !== event.fullPath) return { ...rest, active: context.active };
      const neighbour = rest.tabs[at] ?? rest.tabs[at - 1];
      return { ...rest, active: neighbour?.fullPath ?? null };
    }),
    closeOthers: assign(({ context, event }) => {
      assertEvent(event, 'CLOSE_OTHERS');
      return {
        ...without(context, (tab) => tab.fullPath !== event.fullPath && !isHome(tab, event.home)),
        active: event.fullPath,
      };
    }),
    /** The selected tab among the closed ones moves the selection to the one kept at the edge (Home stays). */
    closeRight: assign(({ context, event }) => {
      assertEvent(event, 'CLOSE_RIGHT');
      const at = indexOf(context, event.fullPath);
      const rest = without(context, (tab, index) => index > at && !isHome(tab, event.home));
      const stays = context.active === null || rest.tabs.some((t) => t.fullPath === context.active);
      return { ...rest, active: stays ? context.active : event.fullPath };
    }),
    select: assign({
      active: ({ event }) => {
        assertEvent(event, 'SELECT');
        return event.fullPath;
      },
    }),
    dropFromCache: assign({
      cacheList: ({ context, event }) => {
        assertEvent(event, 'RELOAD');
        return context.cacheList.filter((path) => path !== event.fullPath);
      },
    }),
    clearTabs: assign({ tabs: [], cacheList: [], active: null }),
  },
  guards: {
    hasTabs: ({ context }) => context.tabs.length > 0,
    isOpenTab: ({ context, event }) =>
      event.type === 'OPEN' && isRecord(event.tab) && indexOf(context, event.tab.fullPath) >= 0,
    /** A well-formed entry whose path may be a tab (never the reload route). */
    isNewTab: ({ event }) => event.type === 'OPEN' && sanitizeTab(event.tab) !== null,
    hasTab: ({ context, event }) => 'fullPath' in event && indexOf(context, event.fullPath) >= 0,
    isOnlyTab: ({ context, event }) =>
      'fullPath' in event &&
      context.tabs.length === 1 &&
      context.tabs[0].fullPath === event.fullPath,
    hasOtherTabs: ({ context, event }) =>
      event.type === 'CLOSE_OTHERS' &&
      indexOf(context, event.fullPath) >= 0 &&
      context.tabs.some((tab) => tab.fullPath !== event.fullPath && !isHome(tab, event.home)),
    hasTabsToTheRight: ({ context, event }) => {
      if (event.type !== 'CLOSE_RIGHT') return false;
      const at = indexOf(context, event.fullPath);
      return at >= 0 && context.tabs.some((tab, index) => index > at && !isHome(tab, event.home));
    },
  },
}).createMachine({
  id: 'tabs',
  context: ({ input }) => restoreTabs(input.stored),
  initial: 'restoring',
  on: { RESET: { target: '.empty', actions: ['clearTabs', persist] } },
  states: {
    restoring: {
      always: [{ guard: 'hasTabs', target: 'tabbed' }, { target: 'empty' }],
    },
    empty: {
      on: { OPEN: { guard: 'isNewTab', target: 'tabbed', actions: ['addTab', persist] } },
    },
    tabbed: {
      on: {
        OPEN: [
          { guard: 'isOpenTab', actions: 'activate' },
          { guard: 'isNewTab', actions: ['addTab', persist] },
        ],
        SELECT: { guard: 'hasTab', actions: 'select' },
        CLOSE: [
          { guard: 'isOnlyTab', target: 'empty', actions: ['closeTab', persist] },
          { guard: 'hasTab', actions: ['closeTab', persist] },
        ],
        CLOSE_OTHERS: { guard: 'hasOtherTabs', actions: ['closeOthers', persist] },
        CLOSE_RIGHT: { guard: 'hasTabsToTheRight', actions: ['closeRight', persist] },
        RELOAD: { guard: 'hasTab', actions: 'dropFromCache' },
      },
    },
  },
});

export type TabsMachine = typeof tabsMachine;
export type TabsSnapshot = SnapshotFrom<typeof tabsMachine>;
