import type { FastifyInstance } from 'fastify';
import { auditListQuery, auditPageSchema } from '../../../src/api/contract/audit';
import { refuse } from '../../platform/http/errors';
import { defineRoute } from '../../platform/http/route';
import { listAudit } from './repo';

/** The audit log (docs/architecture.md §Audit): who changed what, from where, with what result. */
export function auditRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/audit/list',
    reply: auditPageSchema,
    policy: {
      roles: ['admin', 'partner'],
      scope:
        'admin: every row; partner: rows whose actor, or whose user resource, is in its subtree (service_id = its id, itself included)',
    },
    query: auditListQuery,
    handler: async ({ auth, query }) => {
      if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
        throw refuse('audit.rangeInverted');
      }
      return listAudit(ctx.db, { role: auth.role, id: auth.user.id }, query);
    },
  });
}
