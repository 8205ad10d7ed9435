import type { FastifyInstance } from 'fastify';
import { configPairsSchema, systemInfoSchema } from '../../../src/api/contract/replies';
import { simpleConfigQuery, systemInfoQuery } from '../../../src/api/contract/system';
import { defineRoute } from '../../platform/http/route';
import { getSimpleConfig, getSystemInfo, normalizeHost } from './service';

export function systemRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_system_info',
    reply: systemInfoSchema,
    policy: { roles: 'public' },
    query: systemInfoQuery,
    handler: ({ query, request }) =>
      getSystemInfo(ctx, normalizeHost(query.domain || request.host)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_simple_config',
    reply: configPairsSchema,
    policy: { roles: 'public' },
    query: simpleConfigQuery,
    handler: ({ query }) => getSimpleConfig(ctx, query.group),
  });
}
