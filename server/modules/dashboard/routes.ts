import type { FastifyInstance } from 'fastify';
import { dashboardSeriesQuery } from '../../../src/api/contract/dashboard';
import { dashboardSchema, dashboardSeriesSchema } from '../../../src/api/contract/replies';
import { defineRoute } from '../../platform/http/route';
import { getDashboard, getDashboardSeries } from './service';

export function dashboardRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  defineRoute(app, {
    method: 'GET',
    url: '/platform/dashboard_data',
    reply: dashboardSchema,
    policy: {
      roles: 'any',
      scope: 'visible(u): admin all, partner subtree, agent referrals, merchant self',
    },
    handler: ({ auth }) => getDashboard(ctx, auth),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/platform/dashboard_series',
    query: dashboardSeriesQuery,
    reply: dashboardSeriesSchema,
    policy: {
      roles: 'any',
      scope: 'visible(u): admin all, partner subtree, agent referrals, merchant self',
    },
    handler: ({ auth, query }) => getDashboardSeries(ctx, auth, query.days),
  });
}
