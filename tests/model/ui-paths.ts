/**
 * Path tests that drive the real UI against an independent oracle (docs/decisions.md's
 * TestModel row). The machine only proposes event sequences (`getShortestPaths`); each step is
 * EXECUTED as a person or an endpoint would (a click, typing, a fake endpoint settling) and the
 * state expected after it comes from a table written by hand in the test — never from the
 * machine. So a wrong transition target or a button wired to the wrong event fails a path.
 */
import { act, cleanup } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import type { EventObject } from 'xstate';
import { removeAllNotices } from '../../src/components/toaster';
import { localeStore } from '../../src/i18n/locale-store';

/** A path as `getShortestPaths` / `getSimplePaths` give it; only the events are used. */
export interface EventPath<TEvent extends EventObject = EventObject> {
  steps: { event: TEvent }[];
}

export interface UiOracle<TEvent extends EventObject> {
  /** Hand-written: the state a person starts in. */
  initial: string;
  /** Hand-written transitions: `'<source> <event label>'` → target. */
  transitions: Record<string, string>;
  /** How the table names a path event (default: its type without `xstate.`). */
  label?: (event: TEvent) => string;
  /** Carries out one step through the rendered view or a fake endpoint. */
  exec: (event: TEvent) => Promise<void>;
  /** What a person sees in each state of the table (hand-written). */
  sees: Record<string, () => void | Promise<void>>;
  /** The state the system is in, under the table's names (checked, never used as expected). */
  actual?: () => string;
  /**
   * Side effects a step must have (storage, reload, window close), by table row; a row not
   * listed must have none. `take` returns and forgets the effects seen since the last call.
   */
  effects?: { take: () => string[]; expected: Record<string, string[]> };
}

export const defaultLabel = (event: EventObject) => event.type.replace(/^xstate\./, '');

/** Lets React, the actors and pending promises settle (fake timers at 0 ms). */
export async function settle(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

/**
 * user-event wired to Vitest's fake timers. Testing Library's act wrapper waits for a
 * `setTimeout(0)` after each action and only advances fake timers it recognises as Jest's, so
 * the `jest` global it looks for is given; without it every click hangs.
 */
export function person() {
  Object.assign(globalThis, { jest: { advanceTimersByTime: vi.advanceTimersByTime } });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime, delay: null });
}

/** The rows used by the paths of a file: the table has no row no path needs. */
export function rowsUsed() {
  const used = new Set<string>();
  return {
    used,
    unused: (transitions: Record<string, string>) =>
      Object.keys(transitions).filter((row) => !used.has(row)),
  };
}

/** Runs one path: expected states from the table, each asserted on screen after its step. */
export async function runUiPath<TEvent extends EventObject>(
  path: EventPath<TEvent>,
  oracle: UiOracle<TEvent>,
  used?: Set<string>,
): Promise<void> {
  const label = oracle.label ?? defaultLabel;
  const check = async (state: string, after: string) => {
    const sees = oracle.sees[state];
    if (!sees) throw new Error(`the test says nothing about what a person sees in '${state}'`);
    await settle();
    if (oracle.actual) expect(oracle.actual(), `state after ${after}`).toBe(state);
    await sees();
  };
  let expected = oracle.initial;
  await check(expected, 'the start');
  oracle.effects?.take();
  // steps[0] is xstate.init: the system starts there by itself.
  for (const { event } of path.steps.slice(1)) {
    const row = `${expected} ${label(event)}`;
    const target = oracle.transitions[row];
    if (target === undefined) throw new Error(`no expected transition for '${row}'`);
    used?.add(row);
    await oracle.exec(event);
    await check(target, `'${row}'`);
    if (oracle.effects) {
      expect(oracle.effects.take(), `effects of '${row}'`).toEqual(
        oracle.effects.expected[row] ?? [],
      );
    }
    expected = target;
  }
}

/**
 * Drops every path whose events are a prefix of another path's: the longer path takes the same
 * steps and checks the same states, with one render instead of two.
 */
export function withoutPrefixes<T extends EventPath>(paths: T[], key = defaultKey): T[] {
  const names = paths.map((p) => p.steps.slice(1).map((s) => key(s.event)));
  const isPrefix = (a: string[], b: string[]) =>
    a.length <= b.length && a.every((name, k) => b[k] === name);
  return paths.filter(
    (_, i) =>
      // Two equal paths: the first is kept.
      !names.some(
        (other, j) =>
          j !== i && isPrefix(names[i], other) && (other.length > names[i].length || j < i),
      ),
  );
}

const defaultKey = (event: EventObject) => JSON.stringify(event);

/**
 * Shortest paths reach every state, not every row of the table (a row's source may be reached
 * by a shorter way to its target). Adds, for each row no path takes, the shortest path that
 * (by the table) ends in the row's source plus the row's event, until every reachable row is.
 */
export function coverRows<TEvent extends EventObject>(
  paths: EventPath<TEvent>[],
  oracle: Pick<UiOracle<TEvent>, 'initial' | 'transitions' | 'label'>,
): EventPath<TEvent>[] {
  const label = oracle.label ?? defaultLabel;
  const all = [...paths];
  const covered = new Set<string>();
  const ends = new Map<string, EventPath<TEvent>>();
  const events = new Map<string, TEvent>();
  const walk = (path: EventPath<TEvent>) => {
    let state = oracle.initial;
    for (const { event } of path.steps.slice(1)) {
      events.set(label(event), event);
      const row = `${state} ${label(event)}`;
      if (!(row in oracle.transitions)) return;
      covered.add(row);
      state = oracle.transitions[row];
    }
    const known = ends.get(state);
    if (!known || known.steps.length > path.steps.length) ends.set(state, path);
  };
  all.forEach(walk);
  for (let added = true; added;) {
    added = false;
    for (const [state, path] of [...ends]) {
      for (const [name, event] of events) {
        const row = `${state} ${name}`;
        if (!(row in oracle.transitions) || covered.has(row)) continue;
        const longer = { ...path, steps: [...path.steps, { event }] };
        all.push(longer);
        walk(longer);
        added = true;
      }
    }
  }
  return all;
}

/**
 * The table's rows the paths take, by the table (what `runUiPath` marks used when it runs them): for
 * a check across files when one machine's paths are split between several.
 */
export function rowsTaken<TEvent extends EventObject>(
  paths: EventPath<TEvent>[],
  oracle: Pick<UiOracle<TEvent>, 'initial' | 'transitions' | 'label'>,
): Set<string> {
  const label = oracle.label ?? defaultLabel;
  const taken = new Set<string>();
  for (const path of paths) {
    let state = oracle.initial;
    for (const { event } of path.steps.slice(1)) {
      const row = `${state} ${label(event)}`;
      if (!(row in oracle.transitions)) break;
      taken.add(row);
      state = oracle.transitions[row];
    }
  }
  return taken;
}

/**
 * The hooks a view path file needs: fake timers and the en-US locale before, and after, the
 * rendered tree and the notices gone and real timers back. Per test, or `perFile` (one page for
 * every path of a describe block). `before` runs after the timers and the locale are set (a
 * page rendered once), `after` before the tree is cleaned up (actors disposed).
 */
export function viewPathHooks(
  options: {
    perFile?: boolean;
    before?: () => void | Promise<void>;
    after?: () => void;
    timeout?: number;
  } = {},
): void {
  const [before, after] = options.perFile ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    vi.useFakeTimers();
    localeStore.set('en-US');
    await options.before?.();
  }, options.timeout);
  after(() => {
    options.after?.();
    cleanup();
    removeAllNotices();
    vi.useRealTimers();
  });
}

/** What a test gives `runUiPath` beside the oracle's table: the view's side. */
export type ViewSide<TEvent extends EventObject> = Omit<
  UiOracle<TEvent>,
  'initial' | 'transitions' | 'label'
>;

/**
 * A file's path tests: the machine's `proposed` paths (`getShortestPaths`), plus a path for each
 * row they miss (`coverRows`), without those that are the prefix of another, plus `more` (written
 * by hand, run as they are); one test per path, named by its events, and one test that every row
 * of the table is taken by some path (unless `everyRow` is false: the paths are a selection).
 * `run` sets up the view for a path, awaits `walk(view)` (the path run against the oracle) and
 * tears the view down.
 */
export function uiPaths<TEvent extends EventObject>(options: {
  oracle: Pick<UiOracle<TEvent>, 'initial' | 'transitions' | 'label'>;
  proposed: EventPath<TEvent>[];
  more?: EventPath<TEvent>[];
  run: (path: EventPath<TEvent>, walk: (view: ViewSide<TEvent>) => Promise<void>) => Promise<void>;
  timeout: number;
  everyRow?: boolean;
}): EventPath<TEvent>[] {
  const { oracle, run } = options;
  const label = oracle.label ?? defaultLabel;
  const rows = rowsUsed();
  const paths = [
    ...withoutPrefixes(coverRows(options.proposed, oracle), (e) => label(e as TEvent)),
    ...(options.more ?? []),
  ];
  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    (_, path) => run(path, (view) => runUiPath(path, { ...oracle, ...view }, rows.used)),
    // A loaded machine (the mutation script's runs) may stretch every path's time limit.
    options.timeout * Number(process.env.UI_PATHS_TIMEOUT_FACTOR ?? '1'),
  );
  test.runIf(options.everyRow ?? true)('every row of the table is taken by a path', () => {
    expect(rows.unused(oracle.transitions)).toEqual([]);
  });
  return paths;
}

/** A readable test name from a path's events. */
export function pathName<TEvent extends EventObject>(
  path: EventPath<TEvent>,
  label: (event: TEvent) => string = defaultLabel,
): string {
  const events = path.steps.slice(1).map((s) => label(s.event));
  return events.length ? events.join(' → ') : '(start)';
}

interface Call {
  name: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Fake endpoints at the HTTP boundary: each call stays pending until a step settles the oldest
 * pending call of that endpoint.
 */
export function fakeEndpoints() {
  const pending: Call[] = [];
  const calls: { name: string; input: unknown }[] = [];
  return {
    calls,
    /** An endpoint function whose calls wait for `settle`. */
    endpoint<TIn extends unknown[], TOut>(name: string) {
      return (...input: TIn) =>
        new Promise<TOut>((resolve, reject) => {
          pending.push({ name, input, resolve: resolve as (v: unknown) => void, reject });
          calls.push({ name, input });
        });
    },
    waiting(name?: string): string[] {
      return pending.filter((c) => !name || c.name === name).map((c) => c.name);
    },
    async settle(name: string, outcome: 'done' | 'error', value: unknown): Promise<void> {
      // The newest: an older call of the same endpoint belongs to a cancelled invocation.
      const i = pending.findLastIndex((c) => c.name === name);
      if (i < 0) throw new Error(`no pending call of '${name}' (waiting: ${this.waiting()})`);
      const [call] = pending.splice(i, 1);
      if (outcome === 'done') call.resolve(value);
      else call.reject(value);
      await settle();
    },
  };
}

export type FakeEndpoints = ReturnType<typeof fakeEndpoints>;
