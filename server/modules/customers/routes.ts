import type { FastifyInstance } from 'fastify';
import { noData } from '../../../src/api/contract/replies';
import {
  addByServiceBody,
  addCustomerBody,
  customerListQuery,
  deleteCustomerBody,
  editAccountBody,
  editByServiceBody,
  editCustomerBody,
  editTypeBody,
  platformUserListQuery,
  customerPageSchema,
  customerRowSchema,
  platformUserPageSchema,
  usedPrefixesSchema,
} from '../../../src/api/contract/customers';
import { defineRoute } from '../../platform/http/route';
import { changeType } from './change-type';
import { addByService } from './create-by-partner';
import { addCustomer } from './create-customer';
import { deleteCustomer } from './delete-customer';
import { editAccount } from './edit-account';
import { editByService, editCustomer } from './edit-customer';
import { listCustomers, platformUsers, usedPrefixes } from './list-customers';

const MANAGED = 'admin: every partner, merchant and agent; partner: its subtree (not itself)';
const EDIT = {
  action: 'customer.edit',
  resource: 'user',
  id: ({ body }: { body: { id: number } }) => body.id,
};

/** Customers: partners, merchants and agents, docs/domain.md §1 and §2. */
export function customerRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/provider_service',
    reply: customerPageSchema,
    policy: { roles: ['admin', 'partner'], scope: MANAGED },
    query: customerListQuery,
    handler: ({ auth, query }) => listCustomers(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/add',
    reply: customerRowSchema,
    policy: { roles: ['admin'], scope: 'any partner, merchant or agent' },
    body: addCustomerBody,
    audit: { action: 'customer.add', resource: 'user', id: 'result' },
    successMessage: 'customer.created',
    handler: ({ auth, body, audit }) => addCustomer(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/edit',
    reply: customerRowSchema,
    policy: { roles: ['admin'], scope: 'any partner, merchant or agent' },
    body: editCustomerBody,
    audit: EDIT,
    successMessage: 'customer.saved',
    handler: ({ auth, body, audit }) => editCustomer(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/add_by_service',
    reply: customerRowSchema,
    policy: { roles: ['partner'], scope: 'merchants and agents under the caller' },
    body: addByServiceBody,
    audit: { action: 'customer.add', resource: 'user', id: 'result' },
    successMessage: 'customer.created',
    handler: ({ auth, body, audit }) => addByService(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/edit_by_service',
    reply: customerRowSchema,
    policy: { roles: ['partner'], scope: 'merchants and agents of its subtree' },
    body: editByServiceBody,
    audit: EDIT,
    successMessage: 'customer.saved',
    handler: ({ auth, body, audit }) => editByService(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/edit_account',
    reply: customerRowSchema,
    policy: { roles: ['admin', 'partner'], scope: MANAGED },
    body: editAccountBody,
    audit: { action: 'customer.edit_account', resource: 'user', id: ({ body }) => body.id },
    successMessage: 'customer.saved',
    handler: ({ auth, body, audit }) => editAccount(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/edit_type',
    reply: customerRowSchema,
    policy: { roles: ['admin'], scope: 'any partner, merchant or agent' },
    body: editTypeBody,
    audit: { action: 'customer.edit_type', resource: 'user', id: ({ body }) => body.id },
    successMessage: 'customer.saved',
    handler: ({ auth, body, audit }) => changeType(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/provider_service/delete',
    reply: noData,
    policy: { roles: ['admin', 'partner'], scope: MANAGED },
    body: deleteCustomerBody,
    audit: { action: 'customer.delete', resource: 'user', id: ({ body }) => body.id },
    successMessage: 'customer.deleted',
    handler: ({ auth, body, audit }) => deleteCustomer(ctx, auth, body.id, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/provider_service/used_service_prefix_no_list',
    reply: usedPrefixesSchema,
    policy: { roles: ['admin', 'partner'], scope: 'every prefix in use (no personal data)' },
    handler: () => usedPrefixes(ctx),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/platform_user_list',
    reply: platformUserPageSchema,
    policy: {
      roles: ['admin', 'partner'],
      scope: 'admin: everyone but itself; partner: its subtree',
    },
    query: platformUserListQuery,
    handler: ({ auth, query }) => platformUsers(ctx, auth, query),
  });
}
