import type { FastifyInstance } from 'fastify';
import { noData } from '../../../src/api/contract/replies';
import {
  groupAddBody,
  groupDeleteBody,
  groupEditBody,
  groupListReplySchema,
  resourceAddBody,
  resourceDeleteBody,
  resourceDeleteReplySchema,
  resourceEditBody,
  resourceGroupSchema,
  resourceListQuery,
  resourcePageSchema,
  resourceSchema,
} from '../../../src/api/contract/resources';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { addResource } from './add-resource';
import { deleteResources, editResource } from './edit-resources';
import { addGroup, deleteGroup, editGroup, groupList } from './groups';
import { resourceList } from './list-resources';

/** Partners and merchants have a library (docs/domain.md §2); admin and agent do not. */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s resources and groups (a partner’s are its own, not its merchants’)',
};

/** The resource library (docs/domain.md §8). */
export function resourceRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/resource/list',
    reply: resourcePageSchema,
    policy: OWN,
    query: resourceListQuery,
    handler: ({ auth, query }) => resourceList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/add',
    reply: resourceSchema,
    policy: OWN,
    body: resourceAddBody,
    audit: { action: 'resource.add', resource: 'resource', id: 'result' },
    successMessage: 'resource.added',
    handler: ({ auth, body, audit }) => addResource(ctx, auth.user.id, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/edit',
    reply: resourceSchema,
    policy: OWN,
    body: resourceEditBody,
    audit: { action: 'resource.edit', resource: 'resource', id: ({ body }) => body.id },
    successMessage: 'resource.saved',
    handler: ({ auth, body, audit }) => editResource(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/delete',
    reply: resourceDeleteReplySchema,
    policy: OWN,
    body: resourceDeleteBody,
    audit: { action: 'resource.delete', resource: 'resource', id: ({ body }) => body.ids },
    successMessage: 'resource.deleted',
    handler: ({ auth, body, audit }) => deleteResources(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/resource/group_list',
    reply: groupListReplySchema,
    policy: OWN,
    handler: ({ auth, request }) => groupList(ctx, auth, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_add',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupAddBody,
    audit: {
      action: 'resource_group.add',
      resource: 'resource_group',
      id: 'result',
      diff: ({ body }) => ({ after: { name: body.name } }),
    },
    successMessage: 'resource.groupCreated',
    handler: ({ auth, body, audit }) => addGroup(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_edit',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupEditBody,
    audit: { action: 'resource_group.edit', resource: 'resource_group', id: ({ body }) => body.id },
    successMessage: 'resource.groupSaved',
    handler: ({ auth, body, audit }) => editGroup(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_delete',
    reply: noData,
    policy: OWN,
    body: groupDeleteBody,
    audit: {
      action: 'resource_group.delete',
      resource: 'resource_group',
      id: ({ body }) => body.id,
    },
    successMessage: 'resource.groupDeleted',
    handler: ({ auth, body, audit }) => deleteGroup(ctx, auth, body, audit),
  });
}
