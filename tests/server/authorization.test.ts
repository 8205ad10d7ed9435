import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { MissingPolicyError } from '../../server/http/policy';
import { createTestApp, createTestDatabase, engines, type TestApp } from './helpers';

/**
 * The authorisation matrix, written out by hand from spec §2/§6, DOMAIN.md §11 and
 * docs/decisions.md — deliberately NOT derived from the routes' policies, so a wrong policy fails.
 *   ok  = the call gets past authentication and roles (HTTP 200, code 0 or 1, never 50008)
 *   401 = no usable session
 *   403 = a role (or an overstep session) the call does not admit
 * Columns: anonymous, admin, partner, partner2, merchant, agent, overstep (admin → merchant).
 */
const IDENTITIES = [
  'anonymous',
  'admin',
  'partner',
  'partner2',
  'merchant',
  'agent',
  'overstep',
] as const;
type Identity = (typeof IDENTITIES)[number];
type Outcome = 'ok' | 401 | 403;

const MATRIX: Record<string, Outcome[]> = {
  //                                         anon  admin partner partner2 merchant agent overstep
  'POST /api/v1/platform/login': /*       */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/logout': /*      */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/get_user_info': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/overstep_login': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/platform/get_system_info': ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/get_simple_config': ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/change_pwd': /*  */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 403],
  'POST /api/v1/platform/get_captcha': /* */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/reset_pwd': /*   */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/register': /*    */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/edit_profile': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/api/user/menu': /*        */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/dashboard_data': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/get_account': /*  */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
};

describe.each(engines)('authorisation on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A fresh session per call: logout and change_pwd must not spoil the next cell. */
  async function tokenFor(identity: Identity): Promise<string | undefined> {
    if (identity === 'anonymous') return undefined;
    if (identity !== 'overstep') return t.login(identity);
    const reply = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      await t.login('admin'),
    );
    return reply.body.data.userinfo.token;
  }

  for (const [route, outcomes] of Object.entries(MATRIX)) {
    it(`${route}: ${IDENTITIES.map((id, i) => `${id} ${outcomes[i]}`).join(', ')}`, async () => {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      for (const [i, identity] of IDENTITIES.entries()) {
        const expected = outcomes[i];
        const token = await tokenFor(identity);
        // An empty payload: enough to pass or fail the guard, never enough to change anything.
        const reply = await t.call(method, url, {
          token,
          ...(method === 'POST' ? { body: {} } : {}),
          headers: { lang: 'en-US' },
        });
        const where = `${route} as ${identity}`;
        if (expected === 'ok') {
          expect(reply.status, where).toBe(200);
          expect([0, 1], where).toContain(reply.body.code);
        } else {
          expect(reply.status, where).toBe(expected);
          expect(reply.body, where).toEqual({
            code: 0,
            msg:
              expected === 401
                ? 'Login expired, please log in again'
                : 'You do not have permission for this action',
            data: null,
          });
        }
      }
    });
  }

  it('every registered /api route has a policy and a row in the matrix (and no row is stale)', () => {
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`).sort();
    expect(registered.length).toBeGreaterThan(0);
    for (const route of t.app.apiRoutes) {
      expect(route.policy, `${route.method} ${route.url}`).toBeDefined();
    }
    expect(registered).toEqual(Object.keys(MATRIX).sort());
    expect(new Set(registered).size).toBe(registered.length);
  });
});

describe.each(engines)('start-up refuses routes without a policy on %s', (engine) => {
  it('rejects an /api route without config.policy', async () => {
    const database = await createTestDatabase(engine);
    try {
      const build = buildApp({
        logger: false,
        db: database.handle,
        config: { dataDir: database.dataDir, staticDir: database.dataDir },
        extraApiRoutes: (api) => {
          api.post('/platform/forgotten', async () => ({ code: 1 }));
        },
      });
      await expect(build).rejects.toThrow(MissingPolicyError);
      await expect(build).rejects.toThrow(/POST \/api\/v1\/platform\/forgotten has no policy/);
    } finally {
      await database.drop();
    }
  });

  it('rejects a policy with roles that do not exist', async () => {
    const database = await createTestDatabase(engine);
    try {
      const build = buildApp({
        logger: false,
        db: database.handle,
        config: { dataDir: database.dataDir, staticDir: database.dataDir },
        extraApiRoutes: (api) => {
          api.get(
            '/platform/odd',
            { config: { policy: { roles: ['superuser'] as never } } },
            async () => ({}),
          );
        },
      });
      await expect(build).rejects.toThrow(/has a policy without valid roles/);
    } finally {
      await database.drop();
    }
  });
});
