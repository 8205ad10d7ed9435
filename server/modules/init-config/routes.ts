import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  CERT_MAX_BYTES,
  initConfigQuery,
  initConfigSchema,
  initConfigSetBody,
  initConfigTestBody,
  initConfigTestReply,
} from '../../../src/api/contract/init-config';
import { defineRoute } from '../../platform/http/route';
import { readCertificateForm } from './certificates';
import { testInitGroup } from './checks';
import { getInitConfig, setInitConfig, storeCertificate, WRITE_ONLY_AUDIT_NAMES } from './service';

const SCOPE = 'the platform (its vendors’ settings)';

/** The system init settings (docs/domain.md §System init): admin only; secrets write-only. */
export function initConfigRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/init_config/get_config',
    reply: initConfigSchema,
    policy: { roles: ['admin'], scope: SCOPE },
    query: initConfigQuery,
    handler: ({ query }) => getInitConfig(ctx, query.group),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/init_config/set_config',
    reply: initConfigSchema,
    policy: { roles: ['admin'], scope: SCOPE },
    body: initConfigSetBody,
    successMessage: 'initConfig.saved',
    // Secrets and files appear only as "changed"; the service never hands their values over.
    audit: { action: 'init_config.set', resource: 'init_config', secret: WRITE_ONLY_AUDIT_NAMES },
    handler: ({ auth, body, audit }) => setInitConfig(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/init_config/test',
    reply: initConfigTestReply,
    policy: { roles: ['admin'], scope: SCOPE },
    body: initConfigTestBody,
    audit: { none: 'a connection check changes nothing' },
    handler: ({ body, request }) => testInitGroup(ctx, body.group, request.locale),
  });

  // The file upload reads its multipart body itself; the parser lives in this scope.
  app.register(async (form) => {
    await form.register(multipart, {
      limits: { fileSize: CERT_MAX_BYTES, files: 1, fields: 2, parts: 3 },
    });
    defineRoute(form, {
      method: 'POST',
      url: '/init_config/upload_cert',
      policy: { roles: ['admin'], scope: SCOPE },
      bodyType: 'multipart/form-data',
      reply: initConfigSchema,
      successMessage: 'initConfig.certSaved',
      audit: {
        action: 'init_config.upload_cert',
        resource: 'init_config',
        secret: WRITE_ONLY_AUDIT_NAMES,
      },
      handler: async ({ auth, request, audit }) => {
        const { kind, pem } = await readCertificateForm(request);
        return storeCertificate(ctx, auth, kind, pem, audit);
      },
    });
  });
}
