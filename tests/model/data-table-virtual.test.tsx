/**
 * <DataTable> with a page of 1000 rows renders only the rows in view (jsdom has no layout: rows
 * take the table's estimated height, 41 px, and the view its fallback height, 600 px, so the
 * window is ≈ 15 rows plus 10 of overscan on each side). What a person and assistive technology
 * get: the row count of the whole page, each rendered row's index, later rows after scrolling,
 * selection of a row scrolled into view, the focused row kept; a page of 100 renders as before.
 */
import { Checkbox } from '@chakra-ui/react';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DataTable, type Column } from '../../src/components/data-table';
import { localeStore } from '../../src/i18n/locale-store';
import { appActors, flush, renderAt } from './view-harness';

interface Row {
  id: number;
  name: string;
}

const ROW_HEIGHT = 41;
const rowsOf = (count: number, from = 1): Row[] =>
  Array.from({ length: count }, (_, i) => ({ id: from + i, name: `Shop ${from + i}` }));

interface TableState {
  rows: Row[];
  page: number;
  loading: boolean;
}
let setState: (state: TableState) => void = () => {};

function Shops(props: { initial: TableState; virtualizeOver?: number }) {
  const [state, set] = useState(props.initial);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  setState = set;
  const columns: Column<Row>[] = [
    {
      key: 'select',
      header: 'Select',
      cell: (row) => (
        <Checkbox.Root
          size="sm"
          checked={selected.has(row.id)}
          onCheckedChange={(e) =>
            setSelected((s) => {
              const next = new Set(s);
              if (e.checked === true) next.add(row.id);
              else next.delete(row.id);
              return next;
            })
          }
        >
          <Checkbox.HiddenInput aria-label={`Select ${row.name}`} />
          <Checkbox.Control />
        </Checkbox.Root>
      ),
    },
    { key: 'name', header: 'Name', cell: (row) => row.name },
  ];
  return (
    <DataTable
      label="Shops"
      columns={columns}
      rowKey={(r) => r.id}
      rows={state.rows}
      loading={state.loading}
      error={null}
      onRetry={() => {}}
      page={state.page}
      limit={1000}
      total={5000}
      onPage={() => {}}
      onLimit={() => {}}
      pageSizes={[20, 100, 1000]}
      virtualizeOver={props.virtualizeOver}
    />
  );
}

/** The scroll area, with a scrollTop that jsdom keeps (it has none of its own). */
function scrollArea() {
  const region = screen.getByRole('region', { name: 'Shops' });
  if (!Object.getOwnPropertyDescriptor(region, 'scrollTop')) {
    let top = 0;
    Object.defineProperty(region, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (v: number) => {
        top = v;
      },
    });
  }
  return region;
}

async function scrollTo(top: number) {
  const region = scrollArea();
  region.scrollTop = top;
  fireEvent.scroll(region);
  await flush();
}

const table = () => screen.getByRole('table', { name: 'Shops' });
const body = () => within(table()).getAllByRole('rowgroup')[1];
/** The rows of data in the DOM (spacers aside). */
const dataRows = () => [...body().querySelectorAll<HTMLElement>('tr:not([aria-hidden])')];
const spacerHeights = () =>
  [...body().querySelectorAll<HTMLElement>('tr[aria-hidden="true"] td')].map((td) =>
    parseFloat(td.style.height),
  );
const shown = () => dataRows().map((tr) => within(tr).getAllByRole('cell')[1].textContent);

let actors: ReturnType<typeof appActors>;
async function renderShops(initial: TableState, virtualizeOver?: number) {
  actors = appActors({});
  renderAt(actors, <Shops initial={initial} virtualizeOver={virtualizeOver} />);
  await flush();
  scrollArea();
}

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  actors.dispose();
  vi.useRealTimers();
});

describe('a page of 1000 rows', () => {
  test('holds only the rows in view plus the overscan, with the row count of the whole page', async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false });
    expect(table().getAttribute('aria-rowcount')).toBe('1001');
    const header = within(table()).getAllByRole('rowgroup')[0].querySelector('tr')!;
    expect(header.getAttribute('aria-rowindex')).toBe('1');
    const rows = dataRows();
    // 600 px of view at 41 px a row (15 rows) and 10 rows of overscan below.
    expect(rows).toHaveLength(Math.ceil(600 / ROW_HEIGHT) + 10);
    expect(rows.map((tr) => tr.getAttribute('aria-rowindex'))).toEqual(
      rows.map((_, i) => String(i + 2)),
    );
    expect(shown()[0]).toBe('Shop 1');
    expect(screen.queryByText('Shop 100')).toBeNull();
    // The spacer below keeps the height of the rows not rendered.
    expect(spacerHeights()).toEqual([(1000 - rows.length) * ROW_HEIGHT]);
  });

  test('scrolling shows later rows, with their indexes; at the end, the last row', async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false });
    await scrollTo(500 * ROW_HEIGHT);
    expect(shown()[0]).toBe('Shop 491');
    expect(shown()).toContain('Shop 501');
    expect(screen.queryByText('Shop 1')).toBeNull();
    const row501 = screen.getByText('Shop 501').closest('tr')!;
    expect(row501.getAttribute('aria-rowindex')).toBe('502');
    expect(dataRows().length).toBeLessThanOrEqual(Math.ceil(600 / ROW_HEIGHT) + 21);
    expect(spacerHeights()).toEqual([490 * ROW_HEIGHT, (1000 - 490 - dataRows().length) * 41]);

    await scrollTo(1000 * ROW_HEIGHT);
    expect(shown().at(-1)).toBe('Shop 1000');
    expect(dataRows().at(-1)!.getAttribute('aria-rowindex')).toBe('1001');
    expect(spacerHeights()).toHaveLength(1);
  });

  test('a row scrolled into view can be selected, and stays selected when scrolled away and back', async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false });
    await scrollTo(980 * ROW_HEIGHT);
    const box = screen.getByRole('checkbox', { name: 'Select Shop 990' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await flush();
    expect(
      (screen.getByRole('checkbox', { name: 'Select Shop 990' }) as HTMLInputElement).checked,
    ).toBe(true);
    await scrollTo(0);
    expect(screen.queryByRole('checkbox', { name: 'Select Shop 990' })).toBeNull();
    await scrollTo(980 * ROW_HEIGHT);
    expect(
      (screen.getByRole('checkbox', { name: 'Select Shop 990' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  test('the row holding the focus stays in the DOM when it is scrolled out of the window', async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false });
    const box = screen.getByRole('checkbox', { name: 'Select Shop 3' });
    act(() => box.focus());
    await scrollTo(700 * ROW_HEIGHT);
    expect(document.activeElement).toBe(box);
    expect(shown().slice(0, 2)).toEqual(['Shop 3', 'Shop 691']);
    expect(screen.queryByText('Shop 4')).toBeNull();
    // Focus elsewhere: the row goes.
    act(() => screen.getByRole('region', { name: 'Shops' }).focus());
    await flush();
    expect(screen.queryByText('Shop 3')).toBeNull();
  });

  test('the same page reloaded keeps its place; the next page starts at the top', async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false });
    await scrollTo(600 * ROW_HEIGHT);
    expect(shown()).toContain('Shop 601');
    for (const next of [
      { rows: rowsOf(1000), page: 1, loading: true },
      { rows: rowsOf(1000), page: 1, loading: false },
    ]) {
      act(() => setState(next));
      await flush();
    }
    expect(scrollArea().scrollTop).toBe(600 * ROW_HEIGHT);
    expect(shown()).toContain('Shop 601');
    for (const next of [
      { rows: rowsOf(1000), page: 2, loading: true },
      { rows: rowsOf(1000, 1001), page: 2, loading: false },
    ]) {
      act(() => setState(next));
      await flush();
    }
    expect(scrollArea().scrollTop).toBe(0);
    expect(shown()[0]).toBe('Shop 1001');
  });

  // 1000 Chakra rows in jsdom: ≈ 5 s on a quiet 2-core machine, over 20 s at load 15.
  test('virtualizeOver={Infinity} renders every row', { timeout: 90_000 }, async () => {
    await renderShops({ rows: rowsOf(1000), page: 1, loading: false }, Infinity);
    expect(dataRows()).toHaveLength(1000);
    expect(table().hasAttribute('aria-rowcount')).toBe(false);
  });
});

test('a page of 100 rows renders every row as before: no row count, indexes or spacers', async () => {
  await renderShops({ rows: rowsOf(100), page: 1, loading: false });
  expect(dataRows()).toHaveLength(100);
  expect(spacerHeights()).toEqual([]);
  expect(table().hasAttribute('aria-rowcount')).toBe(false);
  expect(body().querySelector('[aria-rowindex], [data-row-index]')).toBeNull();
  expect(shown().at(-1)).toBe('Shop 100');
});
