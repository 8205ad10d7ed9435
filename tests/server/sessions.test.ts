import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_STATUS } from '../../server/platform/db/schema';
import { setUserStatus } from '../../server/modules/sessions/service';
import { HOUR, MINUTE, createTestApp, engines, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

describe.each(engines)('sessions on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const whoAmI = (token: string | undefined) =>
    t.call('POST', '/api/v1/platform/get_user_info', { token, headers: EN });

  it('answers HTTP 401 for a missing, malformed or unknown token', async () => {
    for (const token of [undefined, '', 'not-a-token', 'A'.repeat(43), 'x'.repeat(5000)]) {
      const reply = await whoAmI(token);
      expect(reply.status, String(token)).toBe(401);
      expect(reply.body).toEqual({
        code: 0,
        msg: 'Login expired, please log in again',
        data: null,
      });
    }
  });

  it('ends a session 2 hours after its last use (idle expiry)', async () => {
    const token = await t.login('merchant');
    t.clock.advance(119 * MINUTE);
    expect((await whoAmI(token)).body.code).toBe(1);
    t.clock.advance(119 * MINUTE);
    expect((await whoAmI(token)).body.code).toBe(1);
    t.clock.advance(120 * MINUTE);
    expect((await whoAmI(token)).status).toBe(401);
  });

  it('ends a session 12 hours after login however busy it is (absolute expiry)', async () => {
    const token = await t.login('merchant');
    for (let i = 1; i <= 14; i += 1) {
      t.clock.advance(50 * MINUTE);
      expect((await whoAmI(token)).body.code, `after ${i * 50} minutes`).toBe(1);
    }
    t.clock.advance(20 * MINUTE); // 12 hours after login
    expect((await whoAmI(token)).status).toBe(401);
  });

  it('follows SESSION_ABSOLUTE_HOURS and SESSION_IDLE_MINUTES', async () => {
    await t.close();
    t = await createTestApp(engine, {
      config: { sessionAbsoluteHours: 1, sessionIdleMinutes: 10 },
    });
    const token = await t.login('merchant');
    t.clock.advance(9 * MINUTE);
    expect((await whoAmI(token)).body.code).toBe(1);
    t.clock.advance(10 * MINUTE);
    expect((await whoAmI(token)).status).toBe(401);
    const other = await t.login('merchant');
    for (let i = 0; i < 6; i += 1) {
      t.clock.advance(9 * MINUTE);
      expect((await whoAmI(other)).body.code).toBe(1);
    }
    t.clock.advance(7 * MINUTE);
    expect((await whoAmI(other)).status).toBe(401);
  });

  it('a logged-out token answers 401, not 50008', async () => {
    const token = await t.login('agent');
    await t.post('/platform/logout', undefined, token);
    expect((await whoAmI(token)).status).toBe(401);
  });

  it('a password change ends every session of the user with code 50008', async () => {
    const a = await t.login('partner');
    const b = await t.login('partner');
    const other = await t.login('merchant');
    const changed = await t.call('POST', '/api/v1/platform/change_pwd', {
      token: a,
      headers: EN,
      body: { old_password: 'Demo@2026', new_password: 'Next#2027', confirm_password: 'Next#2027' },
    });
    expect(changed.body).toEqual({
      code: 1,
      msg: 'Password changed, please log in again',
      data: null,
    });
    for (const token of [a, b]) {
      const reply = await whoAmI(token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        code: 50008,
        msg: 'Your password was changed, please log in again',
        data: null,
      });
    }
    expect((await whoAmI(other)).body.code).toBe(1);
  });

  it('disabling an account ends its sessions (50008) and those it opened by overstep', async () => {
    const partner = await t.login('partner');
    const merchantId = (await t.user('merchant')).id;
    const overstep = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: merchantId },
      partner,
    );
    const stepped = overstep.body.data.userinfo.token;
    expect((await whoAmI(stepped)).body.code).toBe(1);
    await setUserStatus(t.app.ctx, (await t.user('partner')).id, USER_STATUS.disabled);
    for (const token of [partner, stepped]) {
      const reply = await whoAmI(token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        code: 50008,
        msg: 'This account has been disabled',
        data: null,
      });
    }
  });

  it('a session of a user disabled behind its back is ended on its next use', async () => {
    const token = await t.login('merchant');
    await t.db
      .updateTable('users')
      .set({ status: USER_STATUS.disabled })
      .where('username', '=', 'merchant')
      .execute();
    expect((await whoAmI(token)).body.code).toBe(50008);
    const session = await t.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session.revoked_reason).toBe('disabled');
  });

  it('a session ended by someone else answers 401 once it would have expired anyway', async () => {
    const token = await t.login('merchant');
    await setUserStatus(t.app.ctx, (await t.user('merchant')).id, USER_STATUS.disabled);
    expect((await whoAmI(token)).body.code).toBe(50008);
    t.clock.advance(13 * HOUR);
    expect((await whoAmI(token)).status).toBe(401);
  });

  it('an overstep session lives OVERSTEP_SESSION_MINUTES (60) and not longer', async () => {
    const admin = await t.login('admin');
    const reply = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      admin,
    );
    const stepped = reply.body.data.userinfo.token;
    t.clock.advance(59 * MINUTE);
    expect((await whoAmI(stepped)).body.code).toBe(1);
    t.clock.advance(2 * MINUTE);
    expect((await whoAmI(stepped)).status).toBe(401);
    expect((await whoAmI(admin)).body.code).toBe(1);
  });
});
