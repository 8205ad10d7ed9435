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
    handler: ({ auth }) => getUserInfo(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/edit_profile',
    reply: userInfoSchema,
    policy: { roles: 'any', scope: 'self' },
    body: editProfileBody,
    successMessage: 'profile.saved',
    handler: ({ auth, body }) => editProfile(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/get_account',
    reply: accountSchema,
    policy: { roles: 'any', scope: 'self' },
    handler: async ({ auth }) => toAccount(auth.user),
  });
}
