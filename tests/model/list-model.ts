/**
 * The list machine's test model, shared by the logic path tests (list.test.ts) and the view path
 * tests (list-view.test.tsx): what a person sees in each state, the events, the serialisation,
 * and the rules of a paginated list written out again here as the oracle of every step.
 */
import type { ListEvent, ListPage, ListQuery, ListSnapshot } from '../../src/machines/list';
import { replyError } from './fixtures';

export interface Filters {
  keyword: string;
}
export interface Row {
  id: number;
  name: string;
}

export type ListSnap = ListSnapshot<Filters, Row>;
export type ListState = 'loading' | 'ready' | 'failed';

export interface ListSees {
  /** The table is busy: skeleton rows, `aria-busy`. */
  busy: boolean;
  /** The error with a retry button. */
  error: boolean;
  /** What the table's body shows once settled. */
  body: 'skeleton' | 'rows' | 'empty' | 'error';
}

export const LIST_STATES: Record<ListState, { tags: string[]; sees: (s: ListSnap) => ListSees }> = {
  loading: { tags: ['loading'], sees: () => ({ busy: true, error: false, body: 'skeleton' }) },
  ready: {
    tags: [],
    sees: (s) => ({ busy: false, error: false, body: s.context.rows.length ? 'rows' : 'empty' }),
  },
  failed: { tags: [], sees: () => ({ busy: false, error: true, body: 'error' }) },
};

export const START: Filters = { keyword: '' };
export const ROWS: Row[] = [
  { id: 1, name: 'Alpha shop' },
  { id: 2, name: 'Beta shop' },
];
/** 45 rows in all: three pages of 20, one of 50. */
export const A_PAGE: ListPage<Row> = { list: ROWS, total: 45 };
/** A page past the end of the 45 rows. */
export const BEYOND_45: ListPage<Row> = { list: [], total: 45 };
export const NO_ROWS: ListPage<Row> = { list: [], total: 0 };
/** Rows went away meanwhile: 5 left, the page asked for is past the end. */
export const PAST_THE_END: ListPage<Row> = { list: [], total: 5 };
export const LOAD_FAILED = 'Busy, try again';

/** Every event a person (or a reply) can cause, as handled in this state. */
export function eventsFor(snapshot: ListSnap): ListEvent<Filters>[] {
  const events: (ListEvent<Filters> | { type: string; output?: unknown; error?: unknown })[] = [
    { type: 'SET_FILTERS', filters: { keyword: 'shop' } },
    { type: 'SET_PAGE', page: 2 },
    // Not a page: the first page instead.
    { type: 'SET_PAGE', page: 0 },
    { type: 'SET_LIMIT', limit: 50 },
    { type: 'RELOAD' },
  ];
  if (snapshot.matches('loading')) {
    const { page, limit } = snapshot.context.query;
    events.push(
      // The server's answer for this page of 45 rows: rows, or none past the end.
      {
        type: 'xstate.done.actor.fetchPage',
        output: page <= Math.ceil(A_PAGE.total / limit) ? A_PAGE : BEYOND_45,
      },
      { type: 'xstate.done.actor.fetchPage', output: NO_ROWS },
      { type: 'xstate.error.actor.fetchPage', error: replyError(LOAD_FAILED) },
    );
    // Only a page past the end can come back empty with rows left.
    if (snapshot.context.query.page > 1) {
      events.push({ type: 'xstate.done.actor.fetchPage', output: PAST_THE_END });
    }
  }
  return events as ListEvent<Filters>[];
}

export function describeEvent(event: { type: string; page?: number; limit?: number }): string {
  if (event.type === 'SET_PAGE') return `SET_PAGE ${event.page}`;
  if (event.type === 'SET_LIMIT') return `SET_LIMIT ${event.limit}`;
  const output = (event as { output?: ListPage<Row> }).output;
  if (output) {
    const kind =
      output === A_PAGE
        ? 'rows'
        : output === NO_ROWS
          ? 'none'
          : output === BEYOND_45
            ? 'past the end of 45'
            : 'past the end of 5';
    return `fetchPage done (${kind})`;
  }
  return event.type.replace(/^xstate\./, '');
}

export function serialize(snapshot: ListSnap, event?: { type: string }): string {
  const { query, rows } = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    page: query.page,
    limit: query.limit,
    keyword: query.filters.keyword,
    rows: rows.length > 0,
    via: event?.type ?? 'init',
  });
}

/** The query after `event`, by the rules of a paginated list (null: the reply's own rule). */
export function expectedQuery(
  prev: ListQuery<Filters>,
  event: { type: string; filters?: Filters; page?: number; limit?: number; output?: unknown },
): ListQuery<Filters> {
  switch (event.type) {
    case 'SET_FILTERS':
      return { ...prev, filters: event.filters!, page: 1 };
    case 'SET_PAGE':
      return { ...prev, page: Math.max(1, event.page!) };
    case 'SET_LIMIT':
      return { ...prev, limit: event.limit!, page: 1 };
    case 'xstate.done.actor.fetchPage': {
      const out = event.output as ListPage<Row>;
      const last = Math.max(1, Math.ceil(out.total / prev.limit));
      return out.list.length === 0 && out.total > 0 && prev.page > last
        ? { ...prev, page: last }
        : prev;
    }
    default:
      return prev;
  }
}
