/**
 * Rules of the list machine that a person cannot bring about through a page (the path tests run
 * through the property page's ledger: property-paths-view.test.tsx): a late reply to an earlier
 * query is dropped however the replies arrive, the page size is capped at what the API accepts,
 * and a page that is not one (0) asks for the first.
 */
import { expect, test } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createListMachine, type ListPage, type ListQuery } from '../../src/machines/list';

interface Filters {
  keyword: string;
}
interface Row {
  id: number;
  name: string;
}
const START: Filters = { keyword: '' };
const A_PAGE: ListPage<Row> = { list: [{ id: 1, name: 'Alpha shop' }], total: 45 };
const machine = createListMachine<Filters, Row>('testList');

test('the latest query wins: a late reply to an earlier query is dropped', async () => {
  const replies: { query: unknown; resolve: (page: ListPage<Row>) => void }[] = [];
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

test('a page size is capped at what the list’s API accepts: 100, or the list’s own maximum', () => {
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

test('a page that is not one asks for the first', () => {
  const asked: number[] = [];
  const actor = createActor(
    machine.provide({
      actors: {
        fetchPage: fromPromise<ListPage<Row>, ListQuery<Filters>>(async ({ input }) => {
          asked.push(input.page);
          return A_PAGE;
        }),
      },
    }),
    { input: { filters: START } },
  ).start();
  actor.send({ type: 'SET_PAGE', page: 0 });
  actor.send({ type: 'SET_PAGE', page: Number.NaN });
  actor.stop();
  expect(asked).toEqual([1, 1, 1]);
});
