import type { FastifyInstance } from 'fastify';
import { simpleConfigQuery, systemInfoQuery } from '../../../src/api/contract/system';
import { defineRoute } from '../../http/route';
import { getSimpleConfig, getSystemInfo, normalizeHost } from './service';

export function systemRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_system_info',
    policy: { roles: 'public' },
    query: systemInfoQuery,
    handler: ({ query, request }) =>
      getSystemInfo(ctx, normalizeHost(query.domain || request.host)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_simple_config',
    policy: { roles: 'public' },
    query: simpleConfigQuery,
    handler: ({ query }) => getSimpleConfig(ctx, query.group),
  });
}
