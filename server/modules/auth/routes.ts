import type { FastifyInstance } from 'fastify';
import { loginReplySchema, noData } from '../../../src/api/contract/replies';
import {
  captchaBody,
  changePwdBody,
  loginBody,
  overstepBody,
  registerBody,
  resetPwdBody,
} from '../../../src/api/contract/auth';
import { defineRoute } from '../../platform/http/route';
import { tokenOf } from '../../platform/http/policy';
import { endSessionByToken } from '../sessions';
import { issueCode } from './sms-codes';
import { changePassword, login, overstepLogin, register, resetPassword } from './service';

export function authRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/platform/login',
    reply: loginReplySchema,
    policy: { roles: 'public' },
    body: loginBody,
    audit: { none: 'signs in: the session it opens (and the last login time) records it' },
    handler: ({ body, request }) => login(ctx, body, request.ip),
  });

  // Public so that logging out twice, or with an expired token, still succeeds (docs/domain.md §14: the
  // console always clears its state after calling it).
  defineRoute(app, {
    method: 'POST',
    url: '/platform/logout',
    reply: noData,
    policy: { roles: 'public', scope: 'the calling session' },
    audit: { none: 'ends the caller’s own session' },
    successMessage: 'auth.loggedOut',
    handler: async ({ request }) => {
      await endSessionByToken(ctx, tokenOf(request));
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/overstep_login',
    reply: loginReplySchema,
    policy: {
      roles: ['admin', 'partner'],
      scope: 'admin: any merchant; partner: merchants whose service_id is its id',
      overstep: false,
    },
    body: overstepBody,
    audit: { action: 'auth.overstep', resource: 'user', id: ({ body }) => body.merchant_id },
    handler: ({ auth, body, request, audit }) =>
      overstepLogin(ctx, auth, body.merchant_id, request.ip, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/change_pwd',
    reply: noData,
    policy: { roles: 'any', scope: 'self', overstep: false },
    body: changePwdBody,
    audit: { action: 'auth.change_password', resource: 'user', id: ({ auth }) => auth?.user.id },
    successMessage: 'auth.passwordChanged',
    handler: ({ auth, body, audit }) => changePassword(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/get_captcha',
    reply: noData,
    policy: { roles: 'public' },
    body: captchaBody,
    audit: { none: 'sends an SMS code (kept, hashed and throttled, in sms_codes)' },
    successMessage: 'sms.sent',
    handler: ({ body }) => issueCode(ctx, body.mobile, body.purpose),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/reset_pwd',
    reply: noData,
    policy: { roles: 'public' },
    body: resetPwdBody,
    // Public: the row's actor is the holder of the mobile's code, known once the code is right.
    audit: { action: 'auth.reset_password', resource: 'user' },
    successMessage: 'auth.passwordReset',
    handler: ({ body, audit }) => resetPassword(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/register',
    reply: loginReplySchema,
    policy: { roles: 'public' },
    body: registerBody,
    audit: { action: 'auth.register', resource: 'user' },
    successMessage: 'register.done',
    handler: ({ body, request, audit }) => register(ctx, body, request.ip, audit),
  });
}
