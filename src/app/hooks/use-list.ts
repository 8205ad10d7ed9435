import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { DataTableProps } from '../../components/data-table';
import type { ListActor } from '../actors/factories';
import type { ListEvent, ListSnapshot } from '../../machines/list';

export type TableState<R> = Pick<
  DataTableProps<R>,
  'rows' | 'loading' | 'error' | 'onRetry' | 'page' | 'limit' | 'total' | 'onPage' | 'onLimit'
>;

/** A list machine's snapshot as the props of <DataTable> (its buttons send to the machine). */
export function tablePropsOf<F, R>(
  state: ListSnapshot<F, R>,
  send: (event: ListEvent<F>) => void,
): TableState<R> {
  const { query, rows, total, error } = state.context;
  return {
    rows,
    loading: state.hasTag('loading'),
    error: state.matches('failed') ? (error ?? 'http.requestError') : null,
    onRetry: () => send({ type: 'RELOAD' }),
    page: query.page,
    limit: query.limit,
    total,
    onPage: (page) => send({ type: 'SET_PAGE', page }),
    onLimit: (size) => send({ type: 'SET_LIMIT', limit: size }),
  };
}

/** A list's commands for a view: new filters (back to page 1) and reload. */
function listCommands<F>(send: (event: ListEvent<F>) => void) {
  return {
    setFilters: (next: F) => send({ type: 'SET_FILTERS', filters: next }),
    reload: () => send({ type: 'RELOAD' }),
  };
}

/** What a view reads of a list: its query, rows and total, the table's props and the commands. */
function listHandle<F, R>(
  state: ListSnapshot<F, R>,
  send: (event: ListEvent<F>) => void,
  commands: ReturnType<typeof listCommands<F>>,
) {
  const { query, rows, total } = state.context;
  const table = tablePropsOf(state, send);
  return {
    query,
    rows,
    total,
    loading: table.loading,
    failed: table.error !== null,
    table,
    ...commands,
  };
}

/**
 * A list actor of an area module (src/app/actors) as a view's handle: the table's props and
 * the commands, selected from the actor (its buttons send to it).
 */
export function useListActor<F, R>(actor: ListActor<F, R>) {
  const state = useSelector(actor, (s) => s);
  const commands = useMemo(() => listCommands<F>(actor.send), [actor]);
  return listHandle(state, actor.send, commands);
}

/** What `useListActor` gives a view (sections take it as a prop). */
export type ListHandle<F, R> = ReturnType<typeof useListActor<F, R>>;
