// @vitest-environment node
/**
 * The package sort machine's order arithmetic (/account/recharge's move up / down). The machine's
 * flow (read the whole order afresh, save it swapped, nothing at an end, failures, one move at a
 * time) is tested through the page: recharge-package-sort-view.test.tsx.
 */
import { describe, expect, test } from 'vitest';
import { moveInOrder } from '../../src/machines/package-sort';

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
