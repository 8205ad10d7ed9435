/**
 * The windowing of long tables (src/components/virtual-rows.ts), as a pure function: which rows
 * a scroll position renders, and spacers that keep the scroll height of the whole table.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { rowWindow, type RowSegment } from '../../src/components/virtual-rows';

const rendered = (segments: RowSegment[]) =>
  segments.flatMap((s) =>
    s.kind === 'rows' ? Array.from({ length: s.end - s.start }, (_, i) => s.start + i) : [],
  );
const spaces = (segments: RowSegment[]) =>
  segments.filter((s) => s.kind === 'space').map((s) => s.height);

describe('rowWindow', () => {
  const even = { count: 1000, heightOf: () => 40, viewHeight: 400, overscan: 5 };

  test('at the top: the rows in view and the overscan below, one spacer for the rest', () => {
    const w = rowWindow({ ...even, scrollTop: 0 });
    expect([w.start, w.end]).toEqual([0, 15]);
    expect(w.segments).toEqual([
      { kind: 'rows', start: 0, end: 15 },
      { kind: 'space', height: 985 * 40 },
    ]);
  });

  test('half-way: overscan on both sides, spacers above and below', () => {
    const w = rowWindow({ ...even, scrollTop: 500 * 40 + 10 });
    expect(w.segments).toEqual([
      { kind: 'space', height: 495 * 40 },
      { kind: 'rows', start: 495, end: 516 },
      { kind: 'space', height: 484 * 40 },
    ]);
  });

  test('at the end (or scrolled past it): the last rows, no spacer below', () => {
    for (const scrollTop of [1000 * 40 - 400, 1e9]) {
      const w = rowWindow({ ...even, scrollTop });
      expect(w.end).toBe(1000);
      expect(w.segments.at(-1)).toEqual({ kind: 'rows', start: w.start, end: 1000 });
      expect(rendered(w.segments)).toContain(999);
    }
  });

  test('a view above the first row (the header in view) starts at row 0', () => {
    expect(rowWindow({ ...even, scrollTop: -30 }).start).toBe(0);
  });

  test('rows of different heights: the window follows the real offsets', () => {
    // Rows 0–9 are 100 px, the rest 20 px: at 1000 px the view starts at row 10.
    const w = rowWindow({
      count: 100,
      heightOf: (i) => (i < 10 ? 100 : 20),
      scrollTop: 1000,
      viewHeight: 100,
      overscan: 0,
    });
    expect([w.start, w.end]).toEqual([10, 15]);
    expect(spaces(w.segments)).toEqual([1000, 85 * 20]);
  });

  test('the kept (focused) row is rendered in its place, above or below the window', () => {
    const above = rowWindow({ ...even, scrollTop: 500 * 40, keep: 3 });
    expect(above.segments).toEqual([
      { kind: 'space', height: 3 * 40 },
      { kind: 'rows', start: 3, end: 4 },
      { kind: 'space', height: (495 - 4) * 40 },
      { kind: 'rows', start: 495, end: 515 },
      { kind: 'space', height: 485 * 40 },
    ]);
    const below = rowWindow({ ...even, scrollTop: 0, keep: 999 });
    expect(below.segments).toEqual([
      { kind: 'rows', start: 0, end: 15 },
      { kind: 'space', height: (999 - 15) * 40 },
      { kind: 'rows', start: 999, end: 1000 },
    ]);
    // Inside the window it changes nothing.
    expect(rowWindow({ ...even, scrollTop: 0, keep: 4 }).segments).toEqual(
      rowWindow({ ...even, scrollTop: 0 }).segments,
    );
  });

  test('no rows: nothing', () => {
    expect(rowWindow({ ...even, count: 0, scrollTop: 0 })).toEqual({
      start: 0,
      end: 0,
      segments: [],
    });
  });

  test('for any heights and position: the scroll height is kept, every row in view is rendered, and at most view + overscan rows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: -100, max: 50_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 0, max: 20 }),
        fc.option(fc.nat(), { nil: undefined }),
        (heights, scrollTop, viewHeight, overscan, keepSeed) => {
          const count = heights.length;
          const keep = keepSeed === undefined ? undefined : keepSeed % count;
          const w = rowWindow({
            count,
            heightOf: (i) => heights[i],
            scrollTop,
            viewHeight,
            overscan,
            keep,
          });
          const rows = rendered(w.segments);
          const total = heights.reduce((a, b) => a + b, 0);
          const drawn = spaces(w.segments).reduce((a, b) => a + b, 0);
          expect(drawn + rows.reduce((a, i) => a + heights[i], 0)).toBe(total);
          expect(rows).toEqual([...new Set(rows)].sort((a, b) => a - b));
          if (keep !== undefined) expect(rows).toContain(keep);
          // Every row that intersects the view [top, top + viewHeight) is rendered.
          const top = Math.min(Math.max(0, scrollTop), total - heights[count - 1]);
          let at = 0;
          const inView: number[] = [];
          for (let i = 0; i < count; i += 1) {
            if (at + heights[i] > top && at < top + viewHeight) inView.push(i);
            at += heights[i];
          }
          for (const i of inView) expect(rows).toContain(i);
          expect(rows.length).toBeLessThanOrEqual(
            Math.max(inView.length, 1) + 2 * overscan + (keep === undefined ? 0 : 1),
          );
        },
      ),
    );
  });
});
