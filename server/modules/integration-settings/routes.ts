import type { FastifyInstance } from 'fastify';
import {
  integrationListSchema,
  secretClearBody,
  secretFieldSchema,
  secretSetBody,
} from '../../../src/api/contract/integrations';
import { defineRoute } from '../../platform/http/route';
import { clearSecret, listIntegrations, setSecret } from './service';

const SCOPE = 'the platform (every integration)';

/** The integrations' settings: admin only; secrets are write-only. */
export function integrationSettingRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/integration/list',
    reply: integrationListSchema,
    policy: { roles: ['admin'], scope: SCOPE },
    handler: () => listIntegrations(ctx),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/integration/set_secret',
    reply: secretFieldSchema,
    policy: { roles: ['admin'], scope: SCOPE },
    body: secretSetBody,
    successMessage: 'integration.secretSaved',
    // The value itself is never recorded: the row says which field changed, the value "changed".
    audit: { action: 'integration.set_secret', resource: 'integration_setting', secret: ['value'] },
    handler: ({ auth, body, audit }) => setSecret(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/integration/clear_secret',
    reply: secretFieldSchema,
    policy: { roles: ['admin'], scope: SCOPE },
    body: secretClearBody,
    successMessage: 'integration.secretCleared',
    audit: {
      action: 'integration.clear_secret',
      resource: 'integration_setting',
      secret: ['value'],
    },
    handler: ({ body, audit }) => clearSecret(ctx, body, audit),
  });
}
