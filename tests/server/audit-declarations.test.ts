import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../server/platform/http/policy';
import { createTestApp, type TestApp } from './helpers';

/**
 * Every state-changing call says what it audits (docs/architecture.md §Audit): every route but
 * GET and HEAD, and the GETs below that change state. The routes that audit nothing are listed
 * here by hand — deliberately not read from the routes — so a route that quietly declares
 * `none` fails as surely as one that declares nothing.
 */
const STATE_CHANGING_GETS = new Set([
  'GET /api/v1/upload/generate_sts_token', // records a pending upload
  'GET /api/v1/recharge_card/export_data', // spends a download ticket
  'GET /api/v1/audit/export_data', // spends a download ticket
  'GET /api/v1/matrix/oauth_callback', // binds the account the platform authorised
]);

const NOT_AUDITED = new Set([
  'POST /api/v1/platform/login',
  'POST /api/v1/platform/logout',
  'POST /api/v1/platform/get_user_info',
  'POST /api/v1/api/user/menu',
  'POST /api/v1/platform/get_captcha',
  'POST /api/v1/video_task/estimate',
  'POST /api/v1/video_task/batch_estimate',
  'POST /api/v1/video_task/preview', // free and short-lived: no money moves, removed in an hour
  'POST /api/v1/digital_human/video_estimate',
  'POST /api/v1/digital_human/voice_preview',
  'POST /api/v1/pay/notify/sandbox',
  'POST /api/v1/pay/sandbox/pay',
  'POST /api/v1/digital_human/vendor_callback',
  'POST /api/v1/upload/tus',
  'PATCH /api/v1/upload/tus/*',
  'DELETE /api/v1/upload/tus/*',
  'GET /api/v1/recharge_card/export_data',
  'GET /api/v1/audit/export_data',
  'POST /api/v1/notification/read', // the caller's own rows; their read_at records it
  'POST /api/v1/matrix/ai_imitate_title', // writes titles to copy: nothing stored or charged
  'POST /api/v1/ai_tool/try', // runs a tool for the admin to read: nothing stored or charged
  'POST /api/v1/matrix/auth_url', // starts an authorisation; the callback binds and audits
  'POST /api/v1/matrix/plan_preview', // computes a schedule; saves nothing
  'POST /api/v1/matrix/batch_auth_url', // starts an authorisation; the callback binds and audits
  'POST /api/v1/init_config/test', // a connection check with the values in use; stores nothing
]);

const keyOf = (route: RegisteredRoute) => `${route.method} ${route.url}`;
const changesState = (route: RegisteredRoute) =>
  !['GET', 'HEAD'].includes(route.method) || STATE_CHANGING_GETS.has(keyOf(route));

/** What is wrong with the routes' audit declarations (empty: nothing). */
function problemsOf(routes: readonly RegisteredRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const key = keyOf(route);
    const { audit } = route;
    if (!changesState(route)) {
      if (audit && !('none' in audit)) problems.push(`${key}: a GET that audits is not listed`);
      continue;
    }
    if (!audit) problems.push(`${key}: no audit declaration`);
    else if ('none' in audit) {
      if (!NOT_AUDITED.has(key)) problems.push(`${key}: audits nothing, yet is not listed`);
      if (audit.none.trim().length < 8)
        problems.push(`${key}: says no reason for auditing nothing`);
    } else {
      if (NOT_AUDITED.has(key)) problems.push(`${key}: listed as not audited, yet audits`);
      if (!/^[a-z][a-z_]*\.[a-z][a-z_]*$/.test(audit.action)) {
        problems.push(`${key}: action ${audit.action} is not <area>.<verb>`);
      }
      if (!/^[a-z][a-z_]*$/.test(audit.resource)) {
        problems.push(`${key}: resource ${audit.resource} is not a type name`);
      }
    }
  }
  return problems;
}

describe('audit declarations', () => {
  let t: TestApp;
  let forgetful: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { config: { paymentSandbox: true } });
    forgetful = await createTestApp('sqlite', {
      seed: false,
      extraApiRoutes: (api) => {
        api.post('/test/forgotten', { config: { policy: { roles: 'any' } } }, async () => ({
          code: 1,
        }));
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await forgetful.close();
  });

  it('every state-changing route audits, or says why not', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(50);
    expect(problemsOf(t.app.apiRoutes)).toEqual([]);
    // Every listed route exists (a stale line would hide nothing, but would mislead).
    const registered = new Set(t.app.apiRoutes.map(keyOf));
    expect([...NOT_AUDITED, ...STATE_CHANGING_GETS].filter((k) => !registered.has(k))).toEqual([]);
  });

  it('a POST registered without a declaration is reported', () => {
    expect(problemsOf(forgetful.app.apiRoutes)).toEqual([
      'POST /api/v1/test/forgotten: no audit declaration',
    ]);
  });
});
