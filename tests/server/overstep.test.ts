import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_STATUS } from '../../server/platform/db/schema';
import { setUserStatus } from '../../server/modules/sessions/service';
import { createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

interface LoginData {
  userinfo: { token: string; accountId: number; user_type: number; username: string };
}

describe.each(engines)('overstep_login on %s', (engine) => {
  let t: TestApp;
  let ids: Record<string, number>;
  beforeEach(async () => {
    t = await createTestApp(engine);
    ids = {};
    for (const name of ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2']) {
      ids[name] = (await t.user(name)).id;
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const overstep = (token: string, body: unknown) =>
    t.call<LoginData>('POST', '/api/v1/platform/overstep_login', { token, body, headers: EN });

  it('lets the admin step into any merchant: a separate session, marked and audited', async () => {
    const admin = await t.login('admin');
    for (const merchant of ['merchant', 'merchant2']) {
      const reply = await overstep(admin, { merchant_id: ids[merchant] });
      expect(reply.body.code).toBe(1);
      const { userinfo } = reply.body.data;
      expect(userinfo).toMatchObject({
        accountId: ids[merchant],
        user_type: 2,
        username: merchant,
      });
      expect(userinfo.token).not.toBe(admin);
      const me = await t.post<{ username: string; overstep_by: unknown }>(
        '/platform/get_user_info',
        undefined,
        userinfo.token,
      );
      expect(me.body.data.username).toBe(merchant);
      expect(me.body.data.overstep_by).toEqual({ accountId: ids.admin, username: 'admin' });
    }
    const audit = await t.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(audit.map((a) => [a.actor_id, a.action, a.target_type, a.target_id])).toEqual([
      [ids.admin, 'auth.overstep', 'user', ids.merchant],
      [ids.admin, 'auth.overstep', 'user', ids.merchant2],
    ]);
    const sessions = await t.db
      .selectFrom('sessions')
      .selectAll()
      .where('kind', '=', 'overstep')
      .execute();
    expect(sessions).toHaveLength(2);
    for (const s of sessions) {
      expect(s.overstep_by).toBe(ids.admin);
      expect(s.expires_at - s.created_at).toBe(60 * 60_000);
    }
    // The admin's own session is untouched.
    const self = await t.post<{ username: string; overstep_by: unknown }>(
      '/platform/get_user_info',
      undefined,
      admin,
    );
    expect(self.body.data).toMatchObject({ username: 'admin', overstep_by: null });
  });

  it('lets a partner step into its own merchants only', async () => {
    const partner = await t.login('partner');
    const own = await overstep(partner, { merchant_id: ids.merchant });
    expect(own.body.code).toBe(1);
    const audit = await t.db.selectFrom('audit_log').selectAll().execute();
    expect(audit.map((a) => [a.actor_id, a.target_id])).toEqual([[ids.partner, ids.merchant]]);
  });

  it('answers "merchant not found" alike for missing, foreign and non-merchant ids, changing nothing', async () => {
    const partner = await t.login('partner');
    const partner2 = await t.login('partner2');
    const admin = await t.login('admin');
    const before = await snapshot(t.db);
    const cases: [string, number][] = [
      [partner, ids.merchant2],
      [partner2, ids.merchant],
      [partner, 999_999],
      [partner, ids.agent],
      [partner, ids.partner],
      [admin, ids.partner],
      [admin, ids.agent],
      [admin, ids.admin],
      [admin, 999_999],
    ];
    for (const [token, merchantId] of cases) {
      const reply = await overstep(token, { merchant_id: merchantId });
      expect(reply.status).toBe(200);
      expect(reply.body, String(merchantId)).toEqual({
        code: 0,
        msg: 'Merchant not found',
        data: null,
      });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('refuses a disabled merchant', async () => {
    await setUserStatus(t.app.ctx, ids.merchant, USER_STATUS.disabled);
    const admin = await t.login('admin');
    const before = await snapshot(t.db);
    const reply = await overstep(admin, { merchant_id: ids.merchant });
    expect(reply.body).toEqual({ code: 0, msg: 'This account is disabled', data: null });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('cannot be chained from an overstep session, nor used by merchants and agents (403)', async () => {
    const admin = await t.login('admin');
    const stepped = (await overstep(admin, { merchant_id: ids.merchant })).body.data.userinfo.token;
    const tokens = [stepped, await t.login('merchant'), await t.login('agent')];
    const before = await snapshot(t.db);
    for (const token of tokens) {
      const reply = await overstep(token, { merchant_id: ids.merchant });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({
        code: 0,
        msg: 'You do not have permission for this action',
        data: null,
      });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('validates merchant_id and changes nothing', async () => {
    const admin = await t.login('admin');
    const before = await snapshot(t.db);
    const cases: unknown[] = [
      {},
      { merchant_id: 'abc' },
      { merchant_id: -1 },
      { merchant_id: 0 },
      { merchant_id: 1.5 },
      { merchant_id: 2 ** 40 },
      { merchant_id: null },
      { merchant_id: [ids.merchant] },
      { merchant_id: true },
      { merchant_id: '' },
      { merchant_id: ' 5' },
      { merchant_id: '5e0' },
    ];
    for (const body of cases) {
      const reply = await overstep(admin, body);
      expect(reply.body, JSON.stringify(body)).toEqual({
        code: 0,
        msg: 'Choose a merchant',
        data: null,
      });
    }
    const extra = await overstep(admin, { merchant_id: ids.merchant, as: 'admin' });
    expect(extra.body).toEqual({ code: 0, msg: 'Unknown field: as', data: null });
    expect(await snapshot(t.db)).toEqual(before);
    // A numeric string is accepted (query-string style callers).
    expect((await overstep(admin, { merchant_id: String(ids.merchant) })).body.code).toBe(1);
  });
});
