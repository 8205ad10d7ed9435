/**
 * The tabs machine's test model, shared by the logic path tests (tabs.test.ts) and view path
 * tests: what a person sees in each state, three pages to open, the events, the serialisation,
 * and the tab rules written out again here (not read from the machine) as the oracle of every step.
 */
import { getInitialSnapshot } from 'xstate';
import {
  tabsMachine,
  type TabEntry,
  type TabsContext,
  type TabsEvent,
  type TabsSnapshot,
} from '../../src/machines/tabs';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.
// (`restoring` is eventless: no one ever sees it.)

export interface TabsSees {
  /** The tablist's tabs in order: title (message id) and the page it opens. Two tabs may share a title. */
  tabs: { title: string; fullPath: string }[];
  /** The position of the tab with aria-selected=true; null when none is (after a reload, before the first page). */
  selected: number | null;
  /** Pages that keep their state while another tab is shown, in tab order (never an ignoreCache page). */
  kept: string[];
  /** The selected tab's menu: which of its commands do something (reload and close always do). */
  commands: { closeOthers: boolean; closeRight: boolean } | null;
}

export const TABS_STATES: Record<'empty' | 'tabbed', { sees: (context: TabsContext) => TabsSees }> =
  {
    empty: { sees: () => ({ tabs: [], selected: null, kept: [], commands: null }) },
    tabbed: {
      sees: ({ tabs, active, cacheList }) => {
        const selected = tabs.findIndex((tab) => tab.fullPath === active);
        return {
          tabs: tabs.map(({ title, fullPath }) => ({ title, fullPath })),
          selected: selected < 0 ? null : selected,
          kept: tabs.map((tab) => tab.fullPath).filter((path) => cacheList.includes(path)),
          commands:
            selected < 0
              ? null
              : { closeOthers: tabs.length > 1, closeRight: selected < tabs.length - 1 },
        };
      },
    },
  };

export function tabsSees(snapshot: TabsSnapshot): TabsSees {
  const row = TABS_STATES[snapshot.value as 'empty' | 'tabbed'];
  if (!row) throw new Error(`no row for ${String(snapshot.value)}`);
  return row.sees(snapshot.context);
}

// ---------------------------------------------------------------------------------------------
// Three pages: one route with two queries (two tabs), and a page marked ignoreCache.

const page = (
  title: string,
  name: string,
  path: string,
  query: Record<string, string>,
  ignoreCache = false,
): TabEntry => {
  const search = new URLSearchParams(query).toString();
  return { title, name, fullPath: search ? `${path}?${search}` : path, query, ignoreCache };
};

export const CLIP_1 = page('route.clip', 'clip', '/creation/clip', { task: '1' });
export const CLIP_2 = page('route.clip', 'clip', '/creation/clip', { task: '2' });
export const FRESH = page('route.mixedTask', 'mixedTask', '/creation/mixed-task', {}, true);
export const PAGES = [CLIP_1, CLIP_2, FRESH];

const LABELS: Record<string, string> = {
  [CLIP_1.fullPath]: 'clip#1',
  [CLIP_2.fullPath]: 'clip#2',
  [FRESH.fullPath]: 'fresh',
};

export function describeEvent(event: TabsEvent): string {
  if (event.type === 'OPEN') return `OPEN ${LABELS[event.tab.fullPath] ?? event.tab.fullPath}`;
  if ('fullPath' in event) return `${event.type} ${LABELS[event.fullPath] ?? event.fullPath}`;
  return event.type;
}

// ---------------------------------------------------------------------------------------------
// The tab rules, written out again (the oracle)

export function expectedAfter(prev: TabsContext, event: TabsEvent): TabsContext {
  const paths = prev.tabs.map((tab) => tab.fullPath);
  const keep = (tabs: TabEntry[]) => {
    const open = tabs.map((tab) => tab.fullPath);
    return prev.cacheList.filter((path) => open.includes(path));
  };
  switch (event.type) {
    case 'OPEN': {
      const { tab } = event;
      const cached = prev.cacheList.includes(tab.fullPath);
      const cacheList =
        tab.ignoreCache || cached ? prev.cacheList : [...prev.cacheList, tab.fullPath];
      // Tabs are keyed by full path: an open one is selected, a new one is added at the end.
      const tabs = paths.includes(tab.fullPath) ? prev.tabs : [...prev.tabs, tab];
      return { tabs, cacheList, active: tab.fullPath };
    }
    case 'SELECT':
      // A picked tab is selected; what is kept changes only when its page is shown (OPEN).
      return { ...prev, active: event.fullPath };
    case 'CLOSE': {
      const at = paths.indexOf(event.fullPath);
      const tabs = prev.tabs.filter((_, index) => index !== at);
      // The selected tab closing selects its right neighbour, else its left one, else none.
      const active =
        prev.active === event.fullPath
          ? (tabs[at]?.fullPath ?? tabs[at - 1]?.fullPath ?? null)
          : prev.active;
      return { tabs, cacheList: keep(tabs), active };
    }
    case 'CLOSE_OTHERS': {
      const tabs = prev.tabs.filter((tab) => tab.fullPath === event.fullPath);
      return { tabs, cacheList: keep(tabs), active: event.fullPath };
    }
    case 'CLOSE_RIGHT': {
      const tabs = prev.tabs.slice(0, paths.indexOf(event.fullPath) + 1);
      const stays = prev.active === null || tabs.some((tab) => tab.fullPath === prev.active);
      return { tabs, cacheList: keep(tabs), active: stays ? prev.active : event.fullPath };
    }
    case 'RELOAD':
      return { ...prev, cacheList: prev.cacheList.filter((path) => path !== event.fullPath) };
    case 'RESET':
      return { tabs: [], cacheList: [], active: null };
  }
}

// ---------------------------------------------------------------------------------------------
// The model: events and serialisation

export function initialTabs(stored: unknown): TabsSnapshot {
  return getInitialSnapshot(tabsMachine, { stored });
}

/**
 * Every event a person (or the router) can cause, as handled in this state: a page shown (OPEN),
 * a tab picked (SELECT), a tab's close button, the selected tab's menu (close others, close right, reload) and logout.
 * A reload is followed by the redirect's way back to the same page, and by nothing else.
 */
export function eventsFor(snapshot: TabsSnapshot): TabsEvent[] {
  const { tabs, active, cacheList } = snapshot.context;
  const selected = tabs.find((tab) => tab.fullPath === active);
  if (selected && !selected.ignoreCache && !cacheList.includes(selected.fullPath))
    return [{ type: 'OPEN', tab: selected }];
  const events: TabsEvent[] = [
    ...PAGES.map((tab): TabsEvent => ({ type: 'OPEN', tab })),
    ...tabs.map((tab): TabsEvent => ({ type: 'SELECT', fullPath: tab.fullPath })),
    ...tabs.map((tab): TabsEvent => ({ type: 'CLOSE', fullPath: tab.fullPath })),
    ...(selected
      ? [
          // None of the model's pages is the user's home.
          { type: 'CLOSE_OTHERS', fullPath: selected.fullPath, home: null } as const,
          { type: 'CLOSE_RIGHT', fullPath: selected.fullPath, home: null } as const,
          { type: 'RELOAD', fullPath: selected.fullPath } as const,
        ]
      : []),
    { type: 'RESET' },
  ];
  return events.filter((event) => snapshot.can(event));
}

/** The kinds of step the model must take (see stepKind). */
export const STEP_KINDS = [
  'OPEN new',
  'OPEN open',
  'OPEN reloaded',
  'SELECT another',
  'SELECT selected',
  'CLOSE unselected',
  'CLOSE selected only',
  'CLOSE selected first',
  'CLOSE selected middle',
  'CLOSE selected last',
  'CLOSE_OTHERS of selected',
  'CLOSE_RIGHT keeping selected',
  'RELOAD kept',
  'RELOAD unkept',
  'RESET',
];

/** What kind of step `event` is from `prev`: which rule of the tab bar it exercises. */
export function stepKind(prev: TabsContext, event: TabsEvent): string {
  if (event.type === 'RESET') return 'RESET';
  const fullPath = event.type === 'OPEN' ? event.tab.fullPath : event.fullPath;
  const at = prev.tabs.findIndex((tab) => tab.fullPath === fullPath);
  const selected = prev.active === fullPath;
  const kept = prev.cacheList.includes(fullPath);
  switch (event.type) {
    case 'OPEN':
      if (at < 0) return 'OPEN new';
      return kept || event.tab.ignoreCache ? 'OPEN open' : 'OPEN reloaded';
    case 'SELECT':
      return `SELECT ${selected ? 'selected' : 'another'}`;
    case 'CLOSE': {
      if (!selected) return 'CLOSE unselected';
      const last = prev.tabs.length - 1;
      return `CLOSE selected ${last === 0 ? 'only' : at === 0 ? 'first' : at === last ? 'last' : 'middle'}`;
    }
    case 'CLOSE_RIGHT': {
      const activeAt = prev.tabs.findIndex((tab) => tab.fullPath === prev.active);
      return `CLOSE_RIGHT ${activeAt > at ? 'of selected' : 'keeping selected'}`;
    }
    case 'CLOSE_OTHERS':
      return `CLOSE_OTHERS ${selected ? 'of selected' : 'of unselected'}`;
    case 'RELOAD':
      return `RELOAD ${kept ? 'kept' : 'unkept'}`;
  }
}

/**
 * The tabs in order, the selected one and the kept ones; for the traversal (`prev` given) also
 * the kind of step that led in, so that each rule is taken into each state it leads to (the
 * executor compares the state part only).
 */
export function serializeTabs(
  snapshot: TabsSnapshot,
  event?: TabsEvent,
  prev?: TabsSnapshot,
): string {
  const { tabs, active, cacheList } = snapshot.context;
  const name = (path: string) => LABELS[path] ?? path;
  return JSON.stringify({
    state: snapshot.value,
    tabs: tabs.map((tab) => name(tab.fullPath)),
    active: active && name(active),
    kept: cacheList.map(name).sort(),
    ...(prev && event ? { via: stepKind(prev.context, event) } : {}),
  });
}
