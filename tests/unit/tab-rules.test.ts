/**
 * The tab bar as tables: the helpers that make a tab of a location, what stored tabs restore
 * (sanitizeTabs), and the tab rules on a real actor, one row each. Expected answers are written
 * out here from docs/domain.md §13/§16.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import {
  isTabPath,
  queryOf,
  restoreTabs,
  sanitizeTabs,
  tabEntry,
  tabKey,
  tabsMachine,
  type TabEntry,
  type TabsEvent,
} from '../../src/machines/tabs';

const tab = (fullPath: string, extra: Partial<TabEntry> = {}): TabEntry => ({
  title: `route.${fullPath.split(/[/?]/)[2]}`,
  name: fullPath.split(/[/?]/)[2],
  fullPath,
  query: queryOf(fullPath),
  ignoreCache: false,
  ...extra,
});

// Pages named by letter in the rows below.
const PAGES: Record<string, TabEntry> = {
  A: tab('/home/index'),
  B: tab('/creation/clip?task=1'),
  C: tab('/creation/clip?task=2'),
  D: tab('/promotion/merchant'),
  F: tab('/user/setting', { ignoreCache: true }),
};
const letter = (fullPath: string) =>
  Object.keys(PAGES).find((key) => PAGES[key].fullPath === fullPath) ?? fullPath;

describe('a tab of a location', () => {
  test.each([
    [{ pathname: '/creation/clip', search: '?task=1' }, '/creation/clip?task=1'],
    [{ pathname: '/creation/clip', search: '' }, '/creation/clip'],
    [{ pathname: '/creation/clip' }, '/creation/clip'],
    [{ pathname: '/creation/clip', search: '?' }, '/creation/clip'],
  ])('tabKey(%o) = %s', (location, key) => {
    expect(tabKey(location)).toBe(key);
  });

  test.each<[string, Record<string, string>]>([
    ['/creation/clip', {}],
    ['/creation/clip?task=1&tab=2', { task: '1', tab: '2' }],
    ['?task=1', { task: '1' }],
    ['/x?q=a%20b&empty=', { q: 'a b', empty: '' }],
    ['/x?task=1&task=2', { task: '2' }],
  ])('queryOf(%s)', (path, query) => {
    expect(queryOf(path)).toEqual(query);
  });

  test.each([
    ['/home/index', true],
    ['/creation/clip?task=1', true],
    ['/redirect/home/index', false],
    ['home/index', false],
    ['//evil.example/x', false],
    ['', false],
  ])('isTabPath(%s) = %s', (path, ok) => {
    expect(isTabPath(path)).toBe(ok);
  });

  test('the same route with another query is another tab; the title is the message id', () => {
    const route = { name: 'clip', titleId: 'route.clip' };
    const one = tabEntry(route, { pathname: '/creation/clip', search: '?task=1' });
    const two = tabEntry(route, { pathname: '/creation/clip', search: '?task=2' });
    expect(one).toEqual({
      title: 'route.clip',
      name: 'clip',
      fullPath: '/creation/clip?task=1',
      query: { task: '1' },
      ignoreCache: false,
    });
    expect(two.fullPath).not.toBe(one.fullPath);
    expect(
      tabEntry({ ...route, ignoreCache: true }, { pathname: '/creation/clip' }).ignoreCache,
    ).toBe(true);
  });
});

describe('sanitizeTabs: what stored tabs restore', () => {
  const A = PAGES.A;
  test.each<[string, unknown, TabEntry[]]>([
    ['nothing stored', null, []],
    ['text that is not JSON', '[{', []],
    ['an object, not a list', JSON.stringify({ tabs: [A] }), []],
    ['a JSON list', JSON.stringify([A, PAGES.B]), [A, PAGES.B]],
    ['a parsed list', [A], [A]],
    ['a missing title', [{ ...A, title: undefined }], []],
    ['an empty name', [{ ...A, name: '' }], []],
    ['a path that is not a string', [{ ...A, fullPath: 42 }], []],
    ['a relative path', [{ ...A, fullPath: 'home/index' }], []],
    ['the reload route', [{ ...A, fullPath: '/redirect/home/index' }], []],
    ['a repeated full path: the first kept', [A, { ...A, title: 'route.other' }], [A]],
    ['ignoreCache other than true: false', [{ ...A, ignoreCache: 'yes' }], [A]],
    ['ignoreCache true kept', [PAGES.F], [PAGES.F]],
    [
      'a query that is not an object of strings: read again from the path',
      [{ ...PAGES.B, query: { task: 1 } }],
      [PAGES.B],
    ],
    ['a missing query: read from the path', [{ ...PAGES.B, query: undefined }], [PAGES.B]],
    ['extra fields dropped', [{ ...A, icon: 'home' }], [A]],
    ['a bad entry among good ones', [A, 7, null, PAGES.B], [A, PAGES.B]],
  ])('%s', (_, stored, expected) => {
    expect(sanitizeTabs(stored)).toEqual(expected);
  });

  test('a restore keeps every page not marked ignoreCache and selects none', () => {
    expect(restoreTabs([PAGES.A, PAGES.F, PAGES.B])).toEqual({
      tabs: [PAGES.A, PAGES.F, PAGES.B],
      cacheList: [PAGES.A.fullPath, PAGES.B.fullPath],
      active: null,
    });
  });
});

// ---------------------------------------------------------------------------------------------

interface Row {
  rule: string;
  /** Restored tabs (letters). */
  stored?: string;
  /** Pages shown before, in order (letters); `!X` reloads X. */
  before?: string;
  event: TabsEvent;
  /** null: not handled. Otherwise the tab bar after: letters in order, selected, kept. */
  then: { tabs: string; selected: string | null; kept: string } | null;
  /** Whether the tabs were written to storage. */
  persisted?: boolean;
}

const open = (key: string): TabsEvent => ({ type: 'OPEN', tab: PAGES[key] });
/** An event on page `key`; "close others" and "close right" from the admin, whose home is A. */
const on = (
  type: 'SELECT' | 'CLOSE' | 'CLOSE_OTHERS' | 'CLOSE_RIGHT' | 'RELOAD',
  key: string,
): TabsEvent => {
  const fullPath = PAGES[key].fullPath;
  return type === 'CLOSE_OTHERS' || type === 'CLOSE_RIGHT'
    ? { type, fullPath, home: PAGES.A.fullPath }
    : { type, fullPath };
};

describe('the tab rules, one event at a time', () => {
  test.each<Row>([
    // OPEN
    {
      rule: 'a new page: a tab at the end, selected, kept',
      before: 'AB',
      event: open('D'),
      then: { tabs: 'ABD', selected: 'D', kept: 'ABD' },
      persisted: true,
    },
    {
      rule: 'the same route with another query: another tab',
      before: 'AB',
      event: open('C'),
      then: { tabs: 'ABC', selected: 'C', kept: 'ABC' },
      persisted: true,
    },
    {
      rule: 'an open page: its tab selected, no new tab',
      before: 'ABD',
      event: open('A'),
      then: { tabs: 'ABD', selected: 'A', kept: 'ABD' },
      persisted: false,
    },
    {
      rule: 'a page marked ignoreCache: a tab, never kept',
      before: 'A',
      event: open('F'),
      then: { tabs: 'AF', selected: 'F', kept: 'A' },
      persisted: true,
    },
    {
      rule: 'leaving a page marked ignoreCache: it is not kept',
      before: 'AF',
      event: open('A'),
      then: { tabs: 'AF', selected: 'A', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'back to a page marked ignoreCache: still not kept (renders afresh)',
      before: 'AFA',
      event: open('F'),
      then: { tabs: 'AF', selected: 'F', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'the first page: the first tab',
      event: open('A'),
      then: { tabs: 'A', selected: 'A', kept: 'A' },
      persisted: true,
    },
    {
      rule: 'the reload route is never a tab',
      before: 'A',
      event: { type: 'OPEN', tab: tab('/redirect/home/index') },
      then: null,
    },
    {
      rule: 'a tab without a path is refused',
      before: 'A',
      event: { type: 'OPEN', tab: { ...PAGES.B, fullPath: undefined as unknown as string } },
      then: null,
    },
    {
      rule: 'a restored tab opened: selected, no new tab',
      stored: 'AB',
      event: open('B'),
      then: { tabs: 'AB', selected: 'B', kept: 'AB' },
      persisted: false,
    },
    // SELECT
    {
      rule: 'picking another tab selects it, before its page is shown; nothing is written',
      before: 'ABD',
      event: on('SELECT', 'A'),
      then: { tabs: 'ABD', selected: 'A', kept: 'ABD' },
      persisted: false,
    },
    {
      rule: 'picking the selected tab: it stays selected',
      before: 'AB',
      event: on('SELECT', 'B'),
      then: { tabs: 'AB', selected: 'B', kept: 'AB' },
      persisted: false,
    },
    {
      rule: 'picking a restored tab, none selected: it is selected',
      stored: 'AB',
      event: on('SELECT', 'B'),
      then: { tabs: 'AB', selected: 'B', kept: 'AB' },
      persisted: false,
    },
    {
      rule: 'picking a tab marked ignoreCache: selected, still not kept',
      before: 'FA',
      event: on('SELECT', 'F'),
      then: { tabs: 'FA', selected: 'F', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'picking a tab does not keep a reloaded page again (showing it does)',
      before: 'AB!B',
      event: on('SELECT', 'A'),
      then: { tabs: 'AB', selected: 'A', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'picking a tab that is not there: nothing',
      before: 'A',
      event: on('SELECT', 'B'),
      then: null,
    },
    {
      rule: 'picking a tab when there are none: nothing',
      event: on('SELECT', 'A'),
      then: null,
    },
    // CLOSE
    {
      rule: 'closing the selected tab selects its right neighbour',
      before: 'ABDB',
      event: on('CLOSE', 'B'),
      then: { tabs: 'AD', selected: 'D', kept: 'AD' },
      persisted: true,
    },
    {
      rule: 'closing the selected last tab selects its left neighbour',
      before: 'ABD',
      event: on('CLOSE', 'D'),
      then: { tabs: 'AB', selected: 'B', kept: 'AB' },
      persisted: true,
    },
    {
      rule: 'closing the selected first tab selects the next',
      before: 'ABA',
      event: on('CLOSE', 'A'),
      then: { tabs: 'B', selected: 'B', kept: 'B' },
      persisted: true,
    },
    {
      rule: 'closing another tab keeps the selection',
      before: 'ABD',
      event: on('CLOSE', 'A'),
      then: { tabs: 'BD', selected: 'D', kept: 'BD' },
      persisted: true,
    },
    {
      rule: 'closing the last tab leaves none',
      before: 'A',
      event: on('CLOSE', 'A'),
      then: { tabs: '', selected: null, kept: '' },
      persisted: true,
    },
    {
      rule: 'closing a tab that is not there: nothing',
      before: 'A',
      event: on('CLOSE', 'B'),
      then: null,
    },
    {
      rule: 'closing a restored tab, none selected: still none',
      stored: 'AB',
      event: on('CLOSE', 'A'),
      then: { tabs: 'B', selected: null, kept: 'B' },
      persisted: true,
    },
    // CLOSE_OTHERS
    {
      rule: 'close others of the selected tab: Home (A) stays',
      before: 'ABD',
      event: on('CLOSE_OTHERS', 'D'),
      then: { tabs: 'AD', selected: 'D', kept: 'AD' },
      persisted: true,
    },
    {
      rule: 'close others of another tab selects it',
      before: 'BDF',
      event: on('CLOSE_OTHERS', 'B'),
      then: { tabs: 'B', selected: 'B', kept: 'B' },
      persisted: true,
    },
    {
      rule: 'close others when only Home is other: nothing',
      before: 'AB',
      event: on('CLOSE_OTHERS', 'B'),
      then: null,
    },
    {
      rule: 'close others with no others: nothing',
      before: 'A',
      event: on('CLOSE_OTHERS', 'A'),
      then: null,
    },
    {
      rule: 'close others of a tab that is not there: nothing',
      before: 'AB',
      event: on('CLOSE_OTHERS', 'D'),
      then: null,
    },
    // CLOSE_RIGHT
    {
      rule: 'close right of the selected tab',
      before: 'ABDA',
      event: on('CLOSE_RIGHT', 'A'),
      then: { tabs: 'A', selected: 'A', kept: 'A' },
      persisted: true,
    },
    {
      rule: 'close right of a tab left of the selected one selects it',
      before: 'ABD',
      event: on('CLOSE_RIGHT', 'A'),
      then: { tabs: 'A', selected: 'A', kept: 'A' },
      persisted: true,
    },
    {
      rule: 'close right of a tab right of the selected one keeps the selection',
      before: 'ABDA',
      event: on('CLOSE_RIGHT', 'B'),
      then: { tabs: 'AB', selected: 'A', kept: 'AB' },
      persisted: true,
    },
    {
      rule: 'close right keeps Home (A), selected, where it is',
      before: 'BDFA',
      event: on('CLOSE_RIGHT', 'B'),
      then: { tabs: 'BA', selected: 'A', kept: 'BA' },
      persisted: true,
    },
    {
      rule: 'close right with only Home to the right: nothing',
      before: 'BA',
      event: on('CLOSE_RIGHT', 'B'),
      then: null,
    },
    {
      rule: 'close right of the last tab: nothing',
      before: 'AB',
      event: on('CLOSE_RIGHT', 'B'),
      then: null,
    },
    // RELOAD
    {
      rule: 'reload: the page is no longer kept, its tab stays selected',
      before: 'AB',
      event: on('RELOAD', 'B'),
      then: { tabs: 'AB', selected: 'B', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'after a reload the page shown again is kept again',
      before: 'AB!B',
      event: open('B'),
      then: { tabs: 'AB', selected: 'B', kept: 'AB' },
      persisted: false,
    },
    {
      rule: 'reload of a page marked ignoreCache: handled, nothing to drop',
      before: 'AF',
      event: on('RELOAD', 'F'),
      then: { tabs: 'AF', selected: 'F', kept: 'A' },
      persisted: false,
    },
    {
      rule: 'reload of a tab that is not there: nothing',
      before: 'A',
      event: on('RELOAD', 'B'),
      then: null,
    },
    // RESET
    {
      rule: 'logout: no tabs',
      before: 'ABD',
      event: { type: 'RESET' },
      then: { tabs: '', selected: null, kept: '' },
      persisted: true,
    },
    {
      rule: 'logout with no tabs still clears storage',
      event: { type: 'RESET' },
      then: { tabs: '', selected: null, kept: '' },
      persisted: true,
    },
  ])('$rule', ({ stored = '', before = '', event, then, persisted = false }) => {
    const writes: TabEntry[][] = [];
    const actor = createActor(
      tabsMachine.provide({ actions: { persist: (_, { tabs }) => writes.push(tabs) } }),
      { input: { stored: [...stored].map((key) => PAGES[key]) } },
    ).start();
    for (const step of before.match(/!?[A-Z]/g) ?? [])
      actor.send(step.startsWith('!') ? on('RELOAD', step[1]) : open(step));
    const was = actor.getSnapshot();
    writes.length = 0;

    expect(was.can(event)).toBe(then !== null);
    actor.send(event);
    const { context, value } = actor.getSnapshot();
    if (then === null) {
      expect(context).toEqual(was.context);
      expect(writes).toEqual([]);
      return;
    }
    expect({
      tabs: context.tabs.map((t) => letter(t.fullPath)).join(''),
      selected: context.active && letter(context.active),
      kept: context.tabs
        .filter((t) => context.cacheList.includes(t.fullPath))
        .map((t) => letter(t.fullPath))
        .join(''),
    }).toEqual(then);
    expect(value).toBe(then.tabs ? 'tabbed' : 'empty');
    expect(writes).toEqual(persisted ? [context.tabs] : []);
  });
});
