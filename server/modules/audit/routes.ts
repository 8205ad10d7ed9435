import type { FastifyInstance } from 'fastify';
import {
  auditActionsSchema,
  auditExportBody,
  auditListQuery,
  auditPageSchema,
} from '../../../src/api/contract/audit';
import { exportDataQuery } from '../../../src/api/contract/cards';
import { sendCsvDownload } from '../../platform/http/download-tickets';
import { exportTicketReplySchema } from '../../../src/api/contract/replies';
import { knownActions } from '../../platform/http/audit-diff';
import { refuse } from '../../platform/http/errors';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { parseInput } from '../../platform/http/validation';
import { auditExportData, auditExportTicket } from './export-audit';
import { listAudit } from './repo';

const READERS = ['admin', 'partner'] as const;
const SCOPE =
  'admin: every row; partner: rows whose actor, or whose user resource, is in its subtree (service_id = its id, itself included)';

const inverted = (range: { from?: number; to?: number }) => {
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    throw refuse('audit.rangeInverted');
  }
};

/**
 * The audit log (docs/architecture.md §Audit; its viewer: docs/domain.md "The audit log viewer"):
 * who changed what, from where, with what result; read, filtered and exported as CSV.
 */
export function auditRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/audit/list',
    reply: auditPageSchema,
    policy: { roles: READERS, scope: SCOPE },
    query: auditListQuery,
    handler: async ({ auth, query }) => {
      inverted(query);
      return listAudit(ctx.db, { role: auth.role, id: auth.user.id }, query);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/audit/actions',
    reply: auditActionsSchema,
    policy: { roles: READERS, scope: 'the action names the routes declare (no rows)' },
    handler: async () => ({ list: knownActions() }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/audit/export_ticket',
    reply: exportTicketReplySchema,
    policy: { roles: READERS, scope: SCOPE },
    body: auditExportBody,
    // Who downloaded which part of the log.
    audit: { action: 'audit.export', resource: 'audit_log' },
    handler: async ({ auth, body, request, audit }) => {
      inverted(body);
      return auditExportTicket(ctx, auth, body, request.locale, audit);
    },
  });

  const exportDataPolicy: Policy = {
    roles: 'public',
    scope: 'the ticket is the credential: the scope of the user it was issued to, checked again',
  };
  // A download, not an envelope: the browser opens this URL, so no session header is sent.
  app.route({
    method: 'GET',
    url: '/audit/export_data',
    exposeHeadRoute: false,
    config: {
      policy: exportDataPolicy,
      audit: { none: 'spends the ticket of export_ticket, which is audited (audit.export)' },
      input: { query: exportDataQuery },
      doc: {
        query: exportDataQuery,
        raw: {
          contentType: 'text/csv; charset=utf-8',
          description:
            'the audit rows of the ticket’s filters as a CSV download (410 envelope: spent ticket)',
        },
      },
    },
    handler: async (request, reply) => {
      const { ticket } = parseInput(exportDataQuery, request.query, request.locale);
      return sendCsvDownload(request, reply, (explicit) => auditExportData(ctx, ticket, explicit));
    },
  });
}
