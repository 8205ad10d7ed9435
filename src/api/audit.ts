/** The audit log (docs/domain.md §21) under `/audit`; contract: ./contract/audit.ts. */
import type { AuditActions, AuditExportBody, AuditListParams, AuditPage } from './contract/audit';
import type { ExportTicketReply } from './contract/cards';
import { apiUrl, get, post, type RequestOptions } from './http';

/** One page of the rows the caller may read, newest first. */
export function getAuditList(query: AuditListParams, options?: RequestOptions): Promise<AuditPage> {
  return get<AuditPage>('/audit/list', { ...query }, options);
}

/** The action names the filter offers. */
export function getAuditActions(options?: RequestOptions): Promise<AuditActions> {
  return get<AuditActions>('/audit/actions', undefined, options);
}

/** A single-use ticket (60 s) for the CSV of every row the filters select. */
export function requestAuditExportTicket(
  body: AuditExportBody,
  options?: RequestOptions,
): Promise<ExportTicketReply> {
  return post<ExportTicketReply>('/audit/export_ticket', body, options);
}

/** The download URL of a ticket (the ticket is its only credential). */
export function auditExportDataUrl(ticket: string): string {
  return apiUrl('/audit/export_data', { ticket });
}
