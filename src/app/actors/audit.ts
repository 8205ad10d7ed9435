/**
 * The audit area (docs/domain.md "The audit log viewer", /account/audit): the log's rows under the
 * page's filters, the action names the filter offers, and the CSV export of the filtered rows
 * (a single-use ticket, then the browser's own download). Views only select and send.
 */
import { createActor, fromPromise } from 'xstate';
import type {
  AuditActions,
  AuditExportBody,
  AuditFilter,
  AuditRow,
} from '../../api/contract/audit';
import * as api from '../../api/audit';
import { startDownload } from '../../api/cards';
import { dayRange } from '../../components/dates';
import { createExportMachine } from '../../machines/cards/export';
import { defineArea, lazyActors } from './areas';
import { listActor, loadActor } from './factories';

export interface AuditEndpoints {
  getAuditList: typeof api.getAuditList;
  getAuditActions: typeof api.getAuditActions;
  requestAuditExportTicket: typeof api.requestAuditExportTicket;
  /** Hands the browser the ticket's download (it streams the file from there). */
  download: (ticket: string) => void;
}

/** The page's filters, as typed. */
export interface AuditFilters {
  /** An id or a username. */
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  /** YYYY-MM-DD of the viewer's calendar, '' open. */
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  actor: '',
  action: '',
  resourceType: '',
  resourceId: '',
  from: '',
  to: '',
};

/** The API's filters of the form's values (the viewer's days as an inclusive epoch-ms range). */
export function auditQuery(f: AuditFilters): AuditFilter {
  const { start, end } = dayRange(f.from, f.to);
  return {
    ...(f.actor.trim() ? { actor: f.actor.trim() } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.resourceType.trim() ? { resource_type: f.resourceType.trim() } : {}),
    ...(f.resourceId.trim() ? { resource_id: Number(f.resourceId.trim()) } : {}),
    ...(start !== undefined ? { from: start } : {}),
    ...(end !== undefined ? { to: end } : {}),
  };
}

/** How long "downloading" shows after the browser was handed the file (it streams from there). */
const HANDOVER_MS = 1500;

export const auditExportMachine = createExportMachine('auditExport');

function createAuditActors(e: AuditEndpoints) {
  return lazyActors({
    rows: () =>
      listActor<AuditFilters, AuditRow>(
        'auditRows',
        ({ filters, page, limit }, signal) =>
          e.getAuditList({ ...auditQuery(filters), page, limit }, { signal }),
        NO_AUDIT_FILTERS,
      ),
    actions: () =>
      loadActor<AuditActions>('auditActions', (signal) => e.getAuditActions({ signal })),
    export: () =>
      createActor(
        auditExportMachine.provide({
          actors: {
            // The page sends the applied filters (audit-export.tsx).
            requestTicket: fromPromise(({ input, signal }) =>
              e.requestAuditExportTicket(input as AuditExportBody, { signal }),
            ),
            download: fromPromise(async ({ input }) => {
              e.download(input.ticket);
              await new Promise((resolve) => setTimeout(resolve, HANDOVER_MS));
            }),
          },
        }),
      ),
  });
}

export type AuditActors = ReturnType<typeof createAuditActors>;

export const auditArea = defineArea<AuditEndpoints, AuditActors>({
  key: 'audit',
  live: () => ({
    ...api,
    download: (ticket) => startDownload(api.auditExportDataUrl(ticket)),
  }),
  create: (endpoints) => createAuditActors(endpoints),
});
