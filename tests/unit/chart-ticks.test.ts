import { describe, expect, it } from 'vitest';
import { niceStep } from '../../src/views/dashboard/bar-chart';

describe("the bar chart's tick step (src/views/dashboard/bar-chart.tsx)", () => {
  it.each([
    [0, false, 1],
    [3, false, 1],
    [7, false, 2],
    [40, false, 10],
    [95, false, 25],
    [1234, false, 500],
    [0.5, true, 0.2],
    [18.4, true, 5],
  ])('covers %d in four steps of 1, 2, 2.5 or 5 × 10ⁿ (decimals %s): %d', (max, decimals, step) => {
    expect(niceStep(max, decimals)).toBe(step);
    expect(step * 4).toBeGreaterThanOrEqual(max);
  });
});
