/**
 * Model-based path tests of the list machine: every shortest path of the real machine runs on a
 * real actor whose page loads are fakes settled by the steps. Each step checks the tags, the query
 * the rules give (new filters and a new page size start at page 1), that exactly one load is under
 * way while loading and that it asks for the current query, and what the table shows.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  createListMachine,
  lastPage,
  type ListPage,
  type ListQuery,
} from '../../src/machines/list';
import { describePath, fakeCalls, runPath, type FakeCalls } from './harness';
import {
  A_PAGE,
  LIST_STATES,
  LOAD_FAILED,
  START,
  describeEvent,
  eventsFor,
  expectedQuery,
  serialize,
  type Filters,
  type ListSnap,
  type ListState,
  type Row,
} from './list-model';

const machine = createListMachine<Filters, Row>('testList');

function checkStep(
  snapshot: ListSnap,
  event: { type: string } | null,
  previous: ListSnap | null,
  calls: FakeCalls,
) {
  const state = snapshot.value as ListState;
  const row = LIST_STATES[state];
  expect(row, `no row for ${state}`).toBeDefined();
  expect(['loading'].filter((tag) => snapshot.hasTag(tag))).toEqual(row.tags);
  const { query } = snapshot.context;
  if (event && previous) expect(query).toEqual(expectedQuery(previous.context.query, event));
  else expect(query).toEqual({ filters: START, page: 1, limit: 20 });

  // Loading: one load under way, for exactly this query; otherwise none.
  expect(calls.waiting()).toEqual(state === 'loading' ? ['fetchPage'] : []);
  if (state === 'loading') expect(calls.started.at(-1)?.input).toEqual(query);
  if (state === 'ready') {
    const reply = (event as { output?: ListPage<Row> } | null)?.output;
    expect(snapshot.context.rows).toEqual(reply?.list);
    expect(snapshot.context.total).toBe(reply?.total);
    expect(snapshot.context.error).toBeNull();
    // Never past the end when there are rows.
    if (snapshot.context.total > 0) {
      expect(query.page).toBeLessThanOrEqual(lastPage(snapshot.context.total, query.limit));
    }
  }
  if (state === 'failed') expect(snapshot.context.error).toBe(LOAD_FAILED);
  expect(query.page).toBeGreaterThanOrEqual(1);
}

const reached = new Set<string>();

describe('a server-paginated list', () => {
  const paths = getShortestPaths(machine, {
    input: { filters: START },
    events: eventsFor,
    serializeState: (state, event) => serialize(state, event),
  });

  test('the model has paths through every event', () => {
    const types = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)));
    expect([...types].sort()).toEqual([
      'RELOAD',
      'SET_FILTERS',
      'SET_LIMIT',
      'SET_PAGE',
      'xstate.done.actor.fetchPage',
      'xstate.error.actor.fetchPage',
    ]);
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(machine.provide({ actors: { fetchPage: calls.logic() } }), {
        input: { filters: START },
      });
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: ListSnap, e?: { type: string }) => serialize(s, e),
        check: (snapshot, event, previous) => {
          reached.add(String(snapshot.value));
          checkStep(snapshot, event, previous, calls);
        },
      });
      actor.stop();
    },
  );
});

describe('a server-paginated list, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(LIST_STATES).sort());
  });

  test('the latest query wins: a late reply to an earlier query is dropped', async () => {
    const replies: { query: unknown; resolve: (page: ListPage<Row>) => void }[] = [];
    const { fromPromise } = await import('xstate');
    const actor = createActor(
      machine.provide({
        actors: {
          fetchPage: fromPromise<ListPage<Row>, ListQuery<Filters>>(
            ({ input }) => new Promise((resolve) => replies.push({ query: input, resolve })),
          ),
        },
      }),
      { input: { filters: START } },
    ).start();
    actor.send({ type: 'SET_FILTERS', filters: { keyword: 'shop' } });
    actor.send({ type: 'SET_PAGE', page: 2 });
    expect(replies.map((r) => r.query)).toEqual([
      { filters: START, page: 1, limit: 20 },
      { filters: { keyword: 'shop' }, page: 1, limit: 20 },
      { filters: { keyword: 'shop' }, page: 2, limit: 20 },
    ]);
    // The newest answers first, then the older ones: only the newest counts.
    replies[2].resolve(A_PAGE);
    await Promise.resolve();
    replies[0].resolve({ list: [{ id: 9, name: 'stale' }], total: 1 });
    replies[1].resolve({ list: [{ id: 8, name: 'stale too' }], total: 1 });
    await new Promise((r) => setTimeout(r, 0));
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('ready');
    expect(snapshot.context.rows).toEqual(A_PAGE.list);
    expect(snapshot.context.query.page).toBe(2);
    actor.stop();
  });

  test('a page size is capped at what the list’s API accepts: 100, or the list’s own maximum', async () => {
    const { fromPromise } = await import('xstate');
    const limitsAsked = (maxLimit?: number) => {
      const asked: number[] = [];
      const actor = createActor(
        createListMachine<Filters, Row>('sized', { maxLimit }).provide({
          actors: {
            fetchPage: fromPromise<ListPage<Row>, ListQuery<Filters>>(async ({ input }) => {
              asked.push(input.limit);
              return A_PAGE;
            }),
          },
        }),
        { input: { filters: START } },
      ).start();
      for (const limit of [1000, 5000]) actor.send({ type: 'SET_LIMIT', limit });
      actor.stop();
      return asked;
    };
    expect(limitsAsked()).toEqual([20, 100, 100]);
    expect(limitsAsked(1000)).toEqual([20, 1000, 1000]);
  });
});
