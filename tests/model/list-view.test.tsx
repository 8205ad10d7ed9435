/**
 * Model-based path tests of the list machine through the real table: the shortest paths (up to
 * three steps) run on a real actor whose loads are fakes settled by the steps, while <DataTable>
 * shows the actor's state as the views show it (tablePropsOf); each step asserts what a person
 * sees, from LIST_STATES: busy skeleton rows, the rows, the empty state, or the error with a retry,
 * and pagination that matches the query.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, type ActorRefFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { tablePropsOf } from '../../src/app/hooks/use-list';
import { DataTable } from '../../src/components/data-table';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { createListMachine, lastPage } from '../../src/machines/list';
import { describePath, fakeCalls, runPath } from './harness';
import {
  LIST_STATES,
  LOAD_FAILED,
  START,
  describeEvent,
  eventsFor,
  serialize,
  type Filters,
  type ListSnap,
  type ListState,
  type Row,
} from './list-model';
import { appActors, flush, renderAt } from './view-harness';

const machine = createListMachine<Filters, Row>('testList');

function Shops(props: { actor: ActorRefFrom<typeof machine> }) {
  const state = useSelector(props.actor, (s) => s);
  return (
    <DataTable
      label="Shops"
      columns={[
        { key: 'id', header: 'ID', cell: (r: Row) => r.id },
        { key: 'name', header: 'Name', cell: (r: Row) => r.name },
      ]}
      rowKey={(r) => r.id}
      {...tablePropsOf(state, props.actor.send)}
    />
  );
}

async function assertSees(snapshot: ListSnap) {
  await flush();
  const sees = LIST_STATES[snapshot.value as ListState].sees(snapshot);
  const table = screen.getByRole('table', { name: 'Shops' });
  expect(table.getAttribute('aria-busy')).toBe(String(sees.busy));
  const body = within(table).getAllByRole('rowgroup')[1];
  const hidden = body.querySelectorAll('tr[aria-hidden="true"]').length;
  expect(hidden > 0).toBe(sees.body === 'skeleton');
  const { rows, query, total } = snapshot.context;
  for (const row of rows) {
    expect(within(table).queryByRole('cell', { name: row.name }) !== null).toBe(
      sees.body === 'rows',
    );
  }
  expect(within(table).queryByText(enUS['table.empty']) !== null).toBe(sees.body === 'empty');
  const alert = screen.queryByRole('alert');
  expect(alert?.textContent?.includes(LOAD_FAILED) ?? false).toBe(sees.error);
  expect(screen.queryByRole('button', { name: enUS['load.retry'] }) !== null).toBe(sees.error);

  // Pagination follows the query; no way back from page 1, none forward from the last page.
  const pages = lastPage(total, query.limit);
  const nav = within(screen.getByRole('navigation'));
  nav.getByText(`Page ${query.page} of ${pages}`);
  nav.getByText(`${total} in all`);
  const previous = nav.getByRole('button', { name: enUS['table.previous'] });
  const next = nav.getByRole('button', { name: enUS['table.next'] });
  expect(previous.hasAttribute('disabled')).toBe(query.page <= 1 || sees.busy);
  expect(next.hasAttribute('disabled')).toBe(query.page >= pages || sees.busy);
  const size = nav.getByRole('combobox', { name: enUS['table.pageSize'] }) as HTMLSelectElement;
  expect(size.value).toBe(String(query.limit));
}

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('list views', () => {
  const paths = getShortestPaths(machine, {
    input: { filters: START },
    events: eventsFor,
    serializeState: (state, event) => serialize(state, event),
  }).filter((path) => path.steps.length <= 4);

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(machine.provide({ actors: { fetchPage: calls.logic() } }), {
        input: { filters: START },
      });
      const actors = appActors({});
      renderAt(actors, <Shops actor={actor} />);
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: ListSnap, e?: { type: string }) => serialize(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});
