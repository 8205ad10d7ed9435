import { Table } from '@chakra-ui/react';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type ReactElement,
  type UIEvent,
} from 'react';
import type { Column } from './data-table';
import { rowWindow, type RowSegment } from './virtual-rows';
import { pinnedCellCss } from './pinned-column';

/**
 * The virtualised body of <DataTable> (pages of more than `virtualizeOver` rows): the scroll area
 * gets a bounded height and a sticky header, and the body holds only the rows in view plus an
 * overscan, with spacer rows keeping the scroll height of the whole page. The table keeps its
 * semantics for assistive technology: `aria-rowcount` on the table, `aria-rowindex` on every
 * rendered row. The row holding the focus stays rendered wherever it is scrolled to.
 */

/** Rows rendered beyond each edge of the view. */
export const OVERSCAN = 10;
/** The height assumed for a row until it has been measured (a `sm` row with `2xs` buttons). */
const ESTIMATED_ROW_HEIGHT = 41;
/** The view height assumed while the scroll area has no layout (hidden, or jsdom). */
const FALLBACK_VIEW_HEIGHT = 600;
/** The bounded height of the scroll area of a virtualised page. */
const MAX_HEIGHT = '70vh';

export interface VirtualRowsOptions<R> {
  rows: readonly R[];
  /** Whether the body is virtualised (rows shown, and more of them than the threshold). */
  enabled: boolean;
  /** The same page and size reloaded keeps its scroll position; another starts at the top. */
  placeKey: string;
}

export function useVirtualRows<R>({ rows, enabled, placeKey }: VirtualRowsOptions<R>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const place = useRef({ key: '', top: 0 });
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  const [headHeight, setHeadHeight] = useState(0);
  const [heights, setHeights] = useState<ReadonlyMap<number, number>>(new Map());
  const [keep, setKeep] = useState<number | undefined>(undefined);

  let sum = 0;
  for (const h of heights.values()) sum += h;
  const estimate = heights.size ? sum / heights.size : ESTIMATED_ROW_HEIGHT;
  const windowAt = (top: number) =>
    rowWindow({
      count: rows.length,
      heightOf: (i) => heights.get(i) ?? estimate,
      scrollTop: top - headHeight,
      viewHeight: viewHeight || FALLBACK_VIEW_HEIGHT,
      overscan: OVERSCAN,
      keep,
    });
  const view = windowAt(scrollTop);

  // New rows: forget the old ones' heights and focus; the same page reloaded (after a row
  // action) goes back to where it was, another page or size starts at the top.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!enabled || !el) return;
    const top = place.current.key === placeKey ? place.current.top : 0;
    el.scrollTop = top;
    place.current = { key: placeKey, top };
    setScrollTop(top);
    setHeights(new Map());
    setKeep(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, rows]);

  // Measure what was rendered whenever that changes: real heights replace the estimate.
  useLayoutEffect(() => {
    if (!enabled) return;
    const head = headRef.current?.getBoundingClientRect().height ?? 0;
    if (Math.abs(head - headHeight) > 0.5) setHeadHeight(head);
    let changed: Map<number, number> | null = null;
    for (const tr of bodyRef.current?.querySelectorAll<HTMLElement>('tr[data-row-index]') ?? []) {
      const index = Number(tr.dataset.rowIndex);
      const height = tr.getBoundingClientRect().height;
      if (height > 0 && Math.abs((heights.get(index) ?? -1) - height) > 0.5) {
        changed ??= new Map(heights);
        changed.set(index, height);
      }
    }
    if (changed) setHeights(changed);
  }, [enabled, rows, view.start, view.end, keep, heights, headHeight]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!enabled || !el) return;
    setViewHeight(el.clientHeight);
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [enabled]);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const top = e.currentTarget.scrollTop;
    place.current = { key: placeKey, top };
    // Render again only when the window moves (rows are memoised: only new ones render).
    const next = windowAt(top);
    if (next.start !== view.start || next.end !== view.end) setScrollTop(top);
  };
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    const tr = (e.target as HTMLElement).closest<HTMLElement>('tr[data-row-index]');
    setKeep(tr ? Number(tr.dataset.rowIndex) : undefined);
  };
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setKeep(undefined);
  };

  return {
    enabled,
    segments: view.segments,
    scrollRef,
    headRef,
    bodyRef,
    /** For the scroll area: bounded height, and focus scrolled clear of the sticky header. */
    scrollProps: enabled
      ? { maxHeight: MAX_HEIGHT, scrollPaddingTop: `${headHeight}px`, onScroll }
      : {},
    tableProps: enabled ? { stickyHeader: true, 'aria-rowcount': rows.length + 1 } : {},
    headRowProps: enabled ? { 'aria-rowindex': 1 } : {},
    bodyProps: enabled ? { onFocus, onBlur } : {},
  };
}

interface VirtualRowsProps<R> {
  segments: RowSegment[];
  rows: readonly R[];
  columns: readonly Column<R>[];
  rowKey: (row: R) => string | number;
}

/** The body's rendered rows and spacers, as one keyed list (a row kept moves, never remounts). */
export function VirtualRows<R>({ segments, rows, columns, rowKey }: VirtualRowsProps<R>) {
  return segments.flatMap((segment, i) =>
    segment.kind === 'space' ? (
      <Spacer key={`space-${i}`} height={segment.height} span={columns.length} />
    ) : (
      rows
        .slice(segment.start, segment.end)
        .map((row, i) => (
          <Row key={rowKey(row)} row={row} index={segment.start + i} columns={columns} />
        ))
    ),
  );
}

/** Stands in for rows out of the window (hidden from assistive technology; inline height). */
function Spacer(props: { height: number; span: number }) {
  return (
    <Table.Row aria-hidden="true" data-spacer="">
      <Table.Cell
        colSpan={props.span}
        padding="0"
        borderWidth="0"
        style={{ height: props.height }}
      />
    </Table.Row>
  );
}

interface RowProps<R> {
  row: R;
  index: number;
  columns: readonly Column<R>[];
}

/** One row; memoised so that moving the window renders only the rows that come into it. */
const Row = memo(function Row<R>({ row, index, columns }: RowProps<R>) {
  return (
    <Table.Row data-row-index={index} aria-rowindex={index + 2}>
      {columns.map((column) => (
        <Table.Cell
          key={column.key}
          textAlign={column.align ?? 'start'}
          css={pinnedCellCss(column.pinned === 'end')}
        >
          {column.cell(row)}
        </Table.Cell>
      ))}
    </Table.Row>
  );
}) as <R>(props: RowProps<R>) => ReactElement;
