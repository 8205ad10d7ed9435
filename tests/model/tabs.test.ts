// @vitest-environment node
/**
 * Model-based path tests of the tabs machine: every shortest path of a bounded model (three
 * pages: one route with two queries, and a page marked ignoreCache) of the real machine, run on a
 * real actor whose storage is recorded. Each step asserts what the state promises: the tabs, the
 * selection and the cache list the tab rules give, the commands that do something, that storage
 * was written exactly when the tabs changed, and that a reload restores the same tabs.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  REDIRECT_PREFIX,
  tabsMachine,
  type TabEntry,
  type TabsEvent,
  type TabsSnapshot,
} from '../../src/machines/tabs';
import { describePath, fakeCalls, runPath } from './harness';
import {
  CLIP_1,
  FRESH,
  TABS_STATES,
  STEP_KINDS,
  describeEvent,
  eventsFor,
  expectedAfter,
  initialTabs,
  serializeTabs,
  stepKind,
  tabsSees,
} from './tabs-model';

interface FakeStorage {
  stored: unknown;
  writes: TabEntry[][];
}

function makeActor(stored: unknown, storage: FakeStorage) {
  return createActor(
    tabsMachine.provide({
      actions: {
        persist: (_, { tabs }) => {
          storage.stored = JSON.stringify(tabs);
          storage.writes.push(tabs);
        },
      },
    }),
    { input: { stored } },
  );
}

const sorted = (list: readonly string[]) => [...list].sort();

function checkStep(
  snapshot: TabsSnapshot,
  event: TabsEvent | null,
  previous: TabsSnapshot | null,
  storage: FakeStorage,
) {
  const { tabs, cacheList, active } = snapshot.context;
  expect(Object.keys(TABS_STATES)).toContain(snapshot.value);
  expect(snapshot.value).toBe(tabs.length ? 'tabbed' : 'empty');

  if (event && previous) {
    const expected = expectedAfter(previous.context, event);
    expect(tabs).toEqual(expected.tabs);
    expect(active).toBe(expected.active);
    expect(sorted(cacheList)).toEqual(sorted(expected.cacheList));
    const changed =
      JSON.stringify(previous.context.tabs) !== JSON.stringify(tabs) || event.type === 'RESET';
    expect(storage.writes).toEqual(changed ? [tabs] : []);
  } else {
    // A start writes nothing.
    expect(storage.writes).toEqual([]);
  }
  storage.writes.length = 0;

  // Rules that hold in every state.
  const paths = tabs.map((tab) => tab.fullPath);
  expect(new Set(paths).size).toBe(paths.length);
  expect(paths.some((path) => path.startsWith(REDIRECT_PREFIX))).toBe(false);
  if (active !== null) expect(paths).toContain(active);
  if (!tabs.length) expect(active).toBeNull();
  expect(new Set(cacheList).size).toBe(cacheList.length);
  for (const path of cacheList) {
    expect(paths).toContain(path);
    expect(tabs.find((tab) => tab.fullPath === path)?.ignoreCache).toBe(false);
  }
  // The page on show is kept when left unless it is marked ignoreCache (or was just reloaded).
  if (event?.type === 'OPEN') expect(cacheList.includes(active!)).toBe(!event.tab.ignoreCache);

  // The selected tab's commands are enabled exactly when the machine handles them.
  const sees = tabsSees(snapshot);
  if (sees.commands && active) {
    expect(snapshot.can({ type: 'CLOSE_OTHERS', fullPath: active, home: null })).toBe(
      sees.commands.closeOthers,
    );
    expect(snapshot.can({ type: 'CLOSE_RIGHT', fullPath: active, home: null })).toBe(
      sees.commands.closeRight,
    );
    expect(snapshot.can({ type: 'CLOSE', fullPath: active })).toBe(true);
    expect(snapshot.can({ type: 'RELOAD', fullPath: active })).toBe(true);
  }

  // A browser reload restores the same tabs, every page not marked ignoreCache kept, none selected.
  const reloaded = initialTabs(storage.stored);
  expect(tabsSees(reloaded)).toEqual({
    ...sees,
    selected: null,
    commands: null,
    kept: paths.filter((path) => !tabs.find((tab) => tab.fullPath === path)!.ignoreCache),
  });
}

const reached = new Set<string>();

const STARTS = [
  { stored: 'no tabs', value: null, withVia: true },
  {
    // What storage holds after a reload, with one entry spoiled by hand.
    stored: 'two tabs and a spoiled entry',
    value: JSON.stringify([CLIP_1, { title: 'route.clip', fullPath: 42 }, FRESH]),
    withVia: false,
  },
];

describe.each(STARTS)('tabs, starting with $stored', ({ value, withVia }) => {
  const paths = getShortestPaths(tabsMachine, {
    input: { stored: value },
    events: eventsFor,
    serializeState: (state, event, prev) =>
      withVia ? serializeTabs(state, event, prev) : serializeTabs(state),
  });

  test('the model takes every kind of step', () => {
    const kinds = new Set<string>();
    for (const path of paths) {
      let prev = path.steps[0].state;
      for (const step of path.steps.slice(1)) {
        kinds.add(stepKind(prev.context, step.event));
        prev = step.state;
      }
    }
    const expected = withVia
      ? STEP_KINDS
      : ['OPEN new', 'OPEN open', 'CLOSE unselected', 'CLOSE selected first', 'RESET'];
    for (const kind of expected) expect(kinds, kind).toContain(kind);
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const storage: FakeStorage = { stored: value, writes: [] };
      const actor = makeActor(value, storage);
      await runPath({
        path,
        actor,
        calls: fakeCalls(),
        serialize: (s: TabsSnapshot) => serializeTabs(s),
        check: (snapshot, event, previous) => {
          reached.add(String(snapshot.value));
          checkStep(snapshot, event, previous, storage);
        },
      });
      actor.stop();
    },
  );
});

describe('tabs, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(TABS_STATES).sort());
  });

  test('a restored start shows the stored tabs, the cacheable ones kept, none selected', () => {
    const snapshot = initialTabs(JSON.stringify([CLIP_1, FRESH]));
    expect(tabsSees(snapshot)).toEqual({
      tabs: [
        { title: 'route.clip', fullPath: '/creation/clip?task=1' },
        { title: 'route.mixedTask', fullPath: '/creation/mixed-task' },
      ],
      selected: null,
      kept: ['/creation/clip?task=1'],
      commands: null,
    });
  });
});
