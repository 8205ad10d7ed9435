/**
 * Which rows of a long table to render (windowing), as a pure function: the rows in view plus an
 * overscan on each side, spacers standing in for the rows above and below so the scroll height
 * stays that of the whole table, and optionally one more row kept (the row holding the focus,
 * so scrolling never takes the focus away from a control). Heights are the rows' measured ones,
 * or an estimate for rows not measured yet.
 */
export interface RowWindowInput {
  count: number;
  /** The height of row `index` (px). */
  heightOf: (index: number) => number;
  /** How far the view's top is below the first row's top (px; 0 or less: at the first row). */
  scrollTop: number;
  /** The height of the view (px). */
  viewHeight: number;
  /** Rows rendered beyond each edge of the view. */
  overscan: number;
  /** A row rendered wherever it is (the row holding the focus). */
  keep?: number;
}

export type RowSegment =
  { kind: 'rows'; start: number; end: number } | { kind: 'space'; height: number };

export interface RowWindow {
  /** The first row in the window and one past its last (the kept row aside). */
  start: number;
  end: number;
  /** What the body holds, top to bottom: spacers and runs of rows. */
  segments: RowSegment[];
}

export function rowWindow(input: RowWindowInput): RowWindow {
  const { count, heightOf, overscan } = input;
  if (count <= 0) return { start: 0, end: 0, segments: [] };
  const top = Math.max(0, input.scrollTop);
  const bottom = top + Math.max(0, input.viewHeight);
  const tops: number[] = new Array(count + 1);
  tops[0] = 0;
  for (let i = 0; i < count; i += 1) tops[i + 1] = tops[i] + heightOf(i);
  // The first row whose bottom is below the view's top, and the first row starting below it.
  let first = 0;
  while (first < count - 1 && tops[first + 1] <= top) first += 1;
  let last = first;
  while (last < count && tops[last] < bottom) last += 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, Math.max(last, first + 1) + overscan);

  const runs: [number, number][] = [[start, end]];
  const keep = input.keep;
  if (keep !== undefined && keep >= 0 && keep < count && (keep < start || keep >= end)) {
    if (keep < start) runs.unshift([keep, keep + 1]);
    else runs.push([keep, keep + 1]);
  }
  const segments: RowSegment[] = [];
  let at = 0;
  for (const [from, to] of runs) {
    if (tops[from] > tops[at]) segments.push({ kind: 'space', height: tops[from] - tops[at] });
    segments.push({ kind: 'rows', start: from, end: to });
    at = to;
  }
  if (tops[count] > tops[at]) segments.push({ kind: 'space', height: tops[count] - tops[at] });
  return { start, end, segments };
}
