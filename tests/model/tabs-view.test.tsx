/**
 * Model-based path tests of the tabs machine through the real tab bar: the shortest paths (from
 * no tabs) run on a real actor while the tab bar is rendered; each step asserts the tabs a person
 * sees, in order, and which one is selected, from TABS_STATES.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { TabBar } from '../../src/app/shell/tab-bar';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { tabsMachine, type TabsSnapshot } from '../../src/machines/tabs';
import { describePath, fakeCalls, runPath } from './harness';
import { describeEvent, eventsFor, serializeTabs, tabsSees } from './tabs-model';
import { appActors, flush, renderAt } from './view-harness';

async function assertSees(snapshot: TabsSnapshot) {
  await flush();
  const sees = tabsSees(snapshot);
  const tabs = screen.getByRole('tablist', { name: enUS['tabs.label'] });
  const shown = [...tabs.querySelectorAll('[role="tab"]')];
  expect(shown.map((tab) => tab.textContent)).toEqual(
    sees.tabs.map((tab) => enUS[tab.title as MessageId]),
  );
  expect(shown.map((tab) => tab.getAttribute('title'))).toEqual(sees.tabs.map((t) => t.fullPath));
  const selected = shown.findIndex((tab) => tab.getAttribute('aria-selected') === 'true');
  expect(selected < 0 ? null : selected).toBe(sees.selected);
}

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('tab bar views, from no tabs', () => {
  const paths = getShortestPaths(tabsMachine, {
    input: { stored: null },
    events: eventsFor,
    serializeState: (state, event, prev) => serializeTabs(state, event, prev),
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const tabs = createActor(tabsMachine, { input: { stored: null } });
      const actors = appActors({ tabs });
      // Not the page of any tab: selection comes from the tabs actor alone.
      renderAt(actors, <TabBar />, '/elsewhere');
      await runPath({
        path,
        actor: tabs,
        calls: fakeCalls(),
        serialize: (s: TabsSnapshot) => serializeTabs(s),
        check: (snapshot) => assertSees(snapshot),
      });
      actors.dispose();
    },
  );
});
