import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ExportTicketReply } from '../../api/contract/cards';

/**
 * Exporting a list as CSV (the cards; the audit log through {@link createExportMachine}): idle → requesting (a single-use ticket for the query: the list's
 * filters or a selection) → downloading (the browser opens the ticket's URL and streams the file;
 * the session token never appears in a URL) → done | failed. Another EXPORT starts again from done
 * or failed; DISMISS hides the outcome. While a ticket is requested or a download starts, EXPORT
 * is not taken (one export at a time). `requestTicket` and `download` are placeholder actors.
 */
/** What a ticket is asked for with: the list's filters (or a selection), as the API takes them. */
export type ExportQuery = Readonly<Record<string, unknown>>;

export type ExportEvent =
  { type: 'EXPORT'; query: ExportQuery; count: number | null } | { type: 'DISMISS' };

export interface ExportContext {
  query: ExportQuery | null;
  /** How many rows the export holds, when the list knows (for the progress text). */
  count: number | null;
  ticket: ExportTicketReply | null;
  /** A message id or the server's sentence. */
  error: string | null;
}

/** The export machine of a list (its id names it in errors and the inspector). */
export const createExportMachine = (id: string) =>
  setup({
    types: {
      context: {} as ExportContext,
      events: {} as ExportEvent,
    },
    actors: {
      requestTicket: fromPromise<ExportTicketReply, ExportQuery>(async () => {
        throw new Error(`${id}: provide the requestTicket actor`);
      }),
      download: fromPromise<void, ExportTicketReply>(async () => {
        throw new Error(`${id}: provide the download actor`);
      }),
    },
    actions: {
      start: assign(({ event }) => {
        assertEvent(event, 'EXPORT');
        return { query: event.query, count: event.count, ticket: null, error: null };
      }),
    },
  }).createMachine({
    id,
    context: { query: null, count: null, ticket: null, error: null },
    initial: 'idle',
    states: {
      idle: { on: { EXPORT: { target: 'requesting', actions: 'start' } } },
      requesting: {
        tags: ['exporting'],
        invoke: {
          id: 'requestTicket',
          src: 'requestTicket',
          input: ({ context }) => context.query as ExportQuery,
          onDone: {
            target: 'downloading',
            actions: assign({ ticket: ({ event }) => event.output }),
          },
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : 'http.requestError',
            }),
          },
        },
      },
      downloading: {
        tags: ['exporting'],
        invoke: {
          id: 'download',
          src: 'download',
          input: ({ context }) => context.ticket as ExportTicketReply,
          onDone: 'done',
          onError: {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.error instanceof Error ? event.error.message : 'http.requestError',
            }),
          },
        },
      },
      done: {
        on: {
          EXPORT: { target: 'requesting', actions: 'start' },
          DISMISS: { target: 'idle', actions: assign({ ticket: null }) },
        },
      },
      failed: {
        on: {
          EXPORT: { target: 'requesting', actions: 'start' },
          DISMISS: { target: 'idle', actions: assign({ error: null }) },
        },
      },
    },
  });

/** The cards' export. */
export const exportMachine = createExportMachine('cardExport');

export type ExportSnapshot = SnapshotFrom<typeof exportMachine>;
