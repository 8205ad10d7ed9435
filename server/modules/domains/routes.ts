import type { FastifyInstance } from 'fastify';
import {
  domainAddBody,
  domainDeleteBody,
  domainDeleteReplySchema,
  domainEditBody,
  domainListQuery,
  domainPageSchema,
  domainSchema,
} from '../../../src/api/contract/domains';
import { defineRoute } from '../../platform/http/route';
import { addDomain, deleteDomains, domainList, editDomain } from './service';

const policy = { roles: ['admin'], scope: 'every domain (platform and partners)' } as const;

/** Domains and brands (docs/domain.md §12): the admin's `/domain/domainList` page. */
export function domainRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/domain/list',
    reply: domainPageSchema,
    policy,
    query: domainListQuery,
    handler: ({ query }) => domainList(ctx, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/domain/add',
    reply: domainSchema,
    policy,
    body: domainAddBody,
    audit: { action: 'domain.add', resource: 'domain', id: 'result' },
    successMessage: 'domain.created',
    handler: ({ body, audit }) => addDomain(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/domain/edit',
    reply: domainSchema,
    policy,
    body: domainEditBody,
    audit: { action: 'domain.edit', resource: 'domain', id: ({ body }) => body.id },
    successMessage: 'domain.saved',
    handler: ({ body, audit }) => editDomain(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/domain/delete',
    reply: domainDeleteReplySchema,
    policy,
    body: domainDeleteBody,
    audit: { action: 'domain.delete', resource: 'domain', id: ({ body }) => body.ids },
    successMessage: 'domain.deleted',
    handler: ({ body, audit }) => deleteDomains(ctx, body.ids, audit),
  });
}
