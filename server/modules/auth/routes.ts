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
    handler: ({ body, request }) => login(ctx, body, request.ip),
  });

  // Public so that logging out twice, or with an expired token, still succeeds (spec §4: the
  // console always clears its state after calling it).
  defineRoute(app, {
    method: 'POST',
    url: '/platform/logout',
    reply: noData,
    policy: { roles: 'public', scope: 'the calling session' },
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
    handler: ({ auth, body, request }) => overstepLogin(ctx, auth, body.merchant_id, request.ip),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/change_pwd',
    reply: noData,
    policy: { roles: 'any', scope: 'self', overstep: false },
    body: changePwdBody,
    successMessage: 'auth.passwordChanged',
    handler: ({ auth, body }) => changePassword(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/get_captcha',
    reply: noData,
    policy: { roles: 'public' },
    body: captchaBody,
    successMessage: 'sms.sent',
    handler: ({ body }) => issueCode(ctx, body.mobile, body.purpose),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/reset_pwd',
    reply: noData,
    policy: { roles: 'public' },
    body: resetPwdBody,
    successMessage: 'auth.passwordReset',
    handler: ({ body }) => resetPassword(ctx, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/register',
    reply: loginReplySchema,
    policy: { roles: 'public' },
    body: registerBody,
    successMessage: 'register.done',
    handler: ({ body, request }) => register(ctx, body, request.ip),
  });
}
