import type { FastifyInstance } from 'fastify';
import { configPairsSchema, systemInfoSchema } from '../../../src/api/contract/replies';
import { simpleConfigQuery, systemInfoQuery } from '../../../src/api/contract/system';
import { defineRoute } from '../../platform/http/route';
import { getSimpleConfig, getSystemInfo, normalizeHost } from './service';
import {
  getConfigQuery,
  getSingleConfigQuery,
  platformConfigSchema,
  setConfigBody,
} from '../../../src/api/contract/settings';
import { getConfig, getPlatformConfig, getSingleConfig, setConfig } from './settings';
import { editUserConfigBody, userConfigSchema } from '../../../src/api/contract/user-config';
import { editUserConfig, getUserConfig } from './user-config';
import { z } from 'zod';

const configPairSchema = z.object({ name: z.string(), value: z.string() });

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

  // Settings and prices (docs/domain.md §12): the admin's platform values, a partner's overrides.
  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_platform_config',
    reply: platformConfigSchema,
    policy: {
      roles: ['admin', 'partner'],
      scope: 'admin: the platform; partner: its own overrides',
    },
    handler: ({ auth }) => getPlatformConfig(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/set_config',
    reply: platformConfigSchema,
    policy: {
      roles: ['admin', 'partner'],
      scope: 'admin: the platform; partner: its own overrides',
    },
    body: setConfigBody,
    successMessage: 'settings.saved',
    audit: { action: 'settings.set', resource: 'platform_config' },
    handler: ({ auth, body, audit }) => setConfig(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_config',
    reply: configPairsSchema,
    policy: { roles: 'any', scope: 'the settings the caller may read, prices as they apply to it' },
    query: getConfigQuery,
    handler: ({ auth, query }) => getConfig(ctx, auth, query.keys),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_single_config',
    reply: configPairSchema,
    policy: { roles: 'any', scope: 'the settings the caller may read, prices as they apply to it' },
    query: getSingleConfigQuery,
    handler: ({ auth, query }) => getSingleConfig(ctx, auth, query.key),
  });

  // The caller's own settings (docs/domain.md §12 "The caller's own settings").
  defineRoute(app, {
    method: 'GET',
    url: '/user_config/info',
    reply: userConfigSchema,
    policy: { roles: 'any', scope: "the caller's own settings" },
    handler: ({ auth }) => getUserConfig(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/user_config/edit',
    reply: userConfigSchema,
    policy: { roles: 'any', scope: "the caller's own settings" },
    body: editUserConfigBody,
    successMessage: 'userConfig.saved',
    audit: { action: 'user_config.edit', resource: 'user' },
    handler: ({ auth, body, audit }) => editUserConfig(ctx, auth, body, audit),
  });
}
