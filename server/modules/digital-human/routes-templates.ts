import type { FastifyInstance } from 'fastify';
import {
  dhTemplateAddBody,
  dhTemplateAddReplySchema,
  dhTemplateDeleteBody,
  dhTemplateDeleteReplySchema,
  dhTemplateEditBody,
  dhTemplateFromVideoBody,
  dhTemplateListQuery,
  dhTemplateListSchema,
} from '../../../src/api/contract/dh-templates';
import { noData } from '../../../src/api/contract/replies';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { addTemplate, deleteTemplates, editTemplate, templateFromVideo } from './template-edit';
import { templateList } from './templates';

/**
 * The admin manages the platform's templates; partners and merchants see them and manage their
 * own (docs/domain.md §10 "Video templates", §2).
 */
const TEMPLATES: Policy = {
  roles: ['admin', 'partner', 'merchant'],
  scope:
    'the platform’s templates (everyone reads them, the admin changes them) and the caller’s own (another user’s answers like a missing one)',
};
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s videos (another’s answers like a missing one)',
};

/** Video templates (docs/domain.md §10 "Video templates"). */
export function dhTemplateRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/digital_human/template_list',
    reply: dhTemplateListSchema,
    policy: TEMPLATES,
    query: dhTemplateListQuery,
    handler: ({ auth, query, request }) => templateList(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/template_add',
    reply: dhTemplateAddReplySchema,
    policy: TEMPLATES,
    body: dhTemplateAddBody,
    audit: { action: 'dh_template.add', resource: 'dh_template', id: 'result' },
    successMessage: 'dhTemplate.added',
    handler: ({ auth, body, audit }) => addTemplate(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/template_edit',
    reply: noData,
    policy: TEMPLATES,
    body: dhTemplateEditBody,
    audit: { action: 'dh_template.edit', resource: 'dh_template', id: ({ body }) => body.id },
    successMessage: 'dhTemplate.saved',
    handler: ({ auth, body, audit }) => editTemplate(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/template_delete',
    reply: dhTemplateDeleteReplySchema,
    policy: TEMPLATES,
    body: dhTemplateDeleteBody,
    audit: { action: 'dh_template.delete', resource: 'dh_template', id: ({ body }) => body.ids },
    successMessage: 'dhTemplate.deleted',
    handler: ({ auth, body, request, audit }) =>
      deleteTemplates(ctx, auth, body.ids, request.locale, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/template_from_video',
    reply: dhTemplateAddReplySchema,
    policy: OWN,
    body: dhTemplateFromVideoBody,
    // The resource is the new template; the diff names the video it was made from.
    audit: { action: 'dh_template.from_video', resource: 'dh_template', id: 'result' },
    successMessage: 'dhTemplate.added',
    handler: ({ auth, body, audit }) => templateFromVideo(ctx, auth, body, audit),
  });
}
