import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  FORM_UPLOAD_MAX_BYTES,
  partUrlsReplySchema,
  quotaReplySchema,
  uploadCompleteBody,
  uploadDoneReplySchema,
  uploadPartUrlsQuery,
  uploadTokenQuery,
  uploadTokenReplySchema,
} from '../../../src/api/contract/resources';
import { platformImageSchema } from '../../../src/api/contract/platform-images';
import { defineRoute } from '../../platform/http/route';
import { formUpload } from './form-upload';
import { grantUpload } from './grant';
import { platformImageRoute } from './platform-image-route';
import { uploadPlatformImage } from './platform-images';
import { completeMultipart, partUrls } from './multipart';
import { quotaOf } from './quota';
import { tusRoutes } from './tus';

/** Who has a library (docs/domain.md §2–8): partners and merchants; admin and agents do not. */
const OWNERS = ['partner', 'merchant'] as const;
const scope = 'the caller’s own uploads and storage quota';

/** Uploads (docs/domain.md §21 `/upload/*`; docs/decisions.md "Files and uploads"). */
export function uploadRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/upload/generate_sts_token',
    policy: { roles: OWNERS, scope },
    query: uploadTokenQuery,
    reply: uploadTokenReplySchema,
    // A GET that records a pending upload (its declared size counts against the quota).
    audit: { action: 'upload.grant', resource: 'upload', id: 'result' },
    handler: ({ query, auth, audit }) => grantUpload(ctx, auth.user.id, query, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/upload/part_urls',
    policy: { roles: OWNERS, scope },
    query: uploadPartUrlsQuery,
    reply: partUrlsReplySchema,
    handler: ({ query, auth }) =>
      partUrls(ctx, auth.user.id, query.upload_key, query.parts.split(',').map(Number)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/upload/complete',
    policy: { roles: OWNERS, scope },
    body: uploadCompleteBody,
    reply: uploadDoneReplySchema,
    audit: { action: 'upload.complete', resource: 'upload' },
    handler: ({ body, auth, audit }) => completeMultipart(ctx, auth.user.id, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/upload/quota',
    policy: { roles: OWNERS, scope },
    reply: quotaReplySchema,
    handler: ({ auth }) => quotaOf(ctx, auth.user.id),
  });

  // The form upload reads its multipart body itself (streamed); the parser lives in this scope.
  app.register(async (form) => {
    await form.register(multipart, {
      limits: { fileSize: FORM_UPLOAD_MAX_BYTES + 1, files: 1, fields: 4, parts: 6 },
    });
    defineRoute(form, {
      method: 'POST',
      url: '/upload/oss_upload',
      policy: { roles: OWNERS, scope },
      bodyType: 'multipart/form-data',
      reply: uploadDoneReplySchema,
      audit: { action: 'upload.add', resource: 'upload', id: 'result' },
      handler: ({ auth, request, audit }) => formUpload(ctx, auth.user.id, request, audit),
    });
    // Not a library upload: the platform's own pages' images (docs/domain.md §8 "Platform images").
    defineRoute(form, {
      method: 'POST',
      url: '/upload/platform_image',
      policy: {
        roles: ['admin', 'partner'],
        scope:
          'admin: the platform’s logos, favicons and content images; partner: its own content images, within its quota',
      },
      bodyType: 'multipart/form-data',
      reply: platformImageSchema,
      audit: { action: 'upload.platform_image', resource: 'platform_image' },
      handler: ({ auth, request, audit }) => uploadPlatformImage(ctx, auth, request, audit),
    });
  });
  platformImageRoute(app);

  tusRoutes(app);
}
