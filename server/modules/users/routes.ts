import type { FastifyInstance } from 'fastify';
import { userInfoSchema } from '../../../src/api/contract/auth';
import { accountSchema } from '../../../src/api/contract/replies';
import { editProfileBody } from '../../../src/api/contract/auth';
import { defineRoute } from '../../platform/http/route';
import { editProfile, getUserInfo, toAccount } from './service';

export function userRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/platform/get_user_info',
    reply: userInfoSchema,
    policy: { roles: 'any', scope: 'self' },
    audit: { none: 'reads only' },
    handler: ({ auth }) => getUserInfo(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/edit_profile',
    reply: userInfoSchema,
    policy: { roles: 'any', scope: 'self' },
    body: editProfileBody,
    audit: { action: 'profile.edit', resource: 'user', id: ({ auth }) => auth?.user.id },
    successMessage: 'profile.saved',
    handler: ({ auth, body, audit }) => editProfile(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_account',
    reply: accountSchema,
    policy: { roles: 'any', scope: 'self' },
    handler: async ({ auth }) => toAccount(auth.user),
  });
}
