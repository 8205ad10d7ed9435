/**
 * The package sort machine (/account/recharge's move up / down): it reads the whole current order
 * from the server, swaps the package with its neighbour and saves that whole order; at an end it
 * saves nothing; a failure is kept for the view; one move at a time.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { moveInOrder, packageSortMachine } from '../../src/machines/package-sort';
import { fakeCalls } from './harness';

describe('moveInOrder', () => {
  test('swaps the package with the one above or below it', () => {
    expect(moveInOrder([1, 2, 3, 4], 3, 'up')).toEqual([1, 3, 2, 4]);
    expect(moveInOrder([1, 2, 3, 4], 3, 'down')).toEqual([1, 2, 4, 3]);
  });

  test('nothing to do at an end or for a package that is not there', () => {
    expect(moveInOrder([1, 2, 3], 1, 'up')).toBeNull();
    expect(moveInOrder([1, 2, 3], 3, 'down')).toBeNull();
    expect(moveInOrder([1, 2, 3], 9, 'up')).toBeNull();
    expect(moveInOrder([], 1, 'down')).toBeNull();
  });
});

function start() {
  const calls = fakeCalls();
  const actor = createActor(
    packageSortMachine.provide({
      actors: { readOrder: calls.logic<number[]>(), saveOrder: calls.logic() },
    }),
  ).start();
  const settle = async (id: string, outcome: 'done' | 'error', value: unknown) => {
    calls.settle(id, outcome, value);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { actor, calls, settle };
}

describe('the package sort machine', () => {
  test('a move reads the order afresh and saves the whole new order', async () => {
    const { actor, calls, settle } = start();
    actor.send({ type: 'MOVE', id: 30, direction: 'up' });
    expect(actor.getSnapshot().value).toBe('reading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    // Another move while one runs is ignored.
    actor.send({ type: 'MOVE', id: 10, direction: 'down' });
    expect(calls.waiting()).toEqual(['readOrder']);

    await settle('readOrder', 'done', [10, 20, 30, 40]);
    expect(actor.getSnapshot().value).toBe('saving');
    expect(calls.started.at(-1)).toEqual({ id: 'saveOrder', input: { ids: [10, 30, 20, 40] } });

    await settle('saveOrder', 'done', { ids: [10, 30, 20, 40] });
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('idle');
    expect(context).toMatchObject({
      settled: 1,
      moved: { id: 30, direction: 'up' },
      error: null,
      ids: null,
    });
    actor.stop();
  });

  test('already first: nothing is saved, the list is shown afresh', async () => {
    const { actor, calls, settle } = start();
    actor.send({ type: 'MOVE', id: 10, direction: 'up' });
    await settle('readOrder', 'done', [10, 20]);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls.started.map((c) => c.id)).toEqual(['readOrder']);
    expect(actor.getSnapshot().context).toMatchObject({ settled: 1, moved: null });
    actor.stop();
  });

  test("a refused save keeps the server's sentence; the next move starts clean", async () => {
    const { actor, settle } = start();
    actor.send({ type: 'MOVE', id: 20, direction: 'down' });
    await settle('readOrder', 'done', [10, 20, 30]);
    await settle('saveOrder', 'error', { msg: 'List each package once, in the new order' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({
      settled: 1,
      moved: null,
      error: 'List each package once, in the new order',
    });

    actor.send({ type: 'MOVE', id: 20, direction: 'down' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await settle('readOrder', 'error', new Error('http.networkError'));
    expect(actor.getSnapshot().context).toMatchObject({ settled: 2, error: 'http.networkError' });
    actor.stop();
  });
});
