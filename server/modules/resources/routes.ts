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

/** Partners and merchants have a library (DOMAIN.md §11); admin and agent do not. */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s resources and groups (a partner’s are its own, not its merchants’)',
};

/** The resource library (issue 12 §4, DOMAIN.md §7 and §12). */
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
    successMessage: 'resource.added',
    handler: ({ auth, body }) => addResource(ctx, auth.user.id, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/edit',
    reply: resourceSchema,
    policy: OWN,
    body: resourceEditBody,
    successMessage: 'resource.saved',
    handler: ({ auth, body }) => editResource(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/delete',
    reply: resourceDeleteReplySchema,
    policy: OWN,
    body: resourceDeleteBody,
    successMessage: 'resource.deleted',
    handler: ({ auth, body }) => deleteResources(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/resource/group_list',
    reply: groupListReplySchema,
    policy: OWN,
    handler: ({ auth }) => groupList(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_add',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupAddBody,
    successMessage: 'resource.groupCreated',
    handler: ({ auth, body }) => addGroup(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_edit',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupEditBody,
    successMessage: 'resource.groupSaved',
    handler: ({ auth, body }) => editGroup(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/resource/group_delete',
    reply: noData,
    policy: OWN,
    body: groupDeleteBody,
    successMessage: 'resource.groupDeleted',
    handler: ({ auth, body }) => deleteGroup(ctx, auth, body),
  });
}
