import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_STATUS } from '../../server/platform/db/schema';
import { setUserStatus } from '../../server/modules/sessions/service';
import { DEMO_PASSWORD, MINUTE, createTestApp, engines, snapshot, type TestApp } from './helpers';

interface LoginData {
  userinfo: { token: string; accountId: number; user_type: number; username: string };
}

const EN = { lang: 'en-US' };

describe.each(engines)('login and logout on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const login = (body: unknown, remoteAddress?: string) =>
    t.call<LoginData>('POST', '/api/v1/platform/login', { body, headers: EN, remoteAddress });

  it('logs every demo account in with its role and a session token', async () => {
    const expected: Record<string, number> = {
      admin: 0,
      partner: 1,
      partner2: 1,
      merchant: 2,
      merchant2: 2,
      agent: 3,
    };
    for (const [account, userType] of Object.entries(expected)) {
      const reply = await login({ account, password: DEMO_PASSWORD });
      expect(reply.status).toBe(200);
      expect(reply.body.code).toBe(1);
      const { userinfo } = reply.body.data;
      expect(userinfo.username).toBe(account);
      expect(userinfo.user_type).toBe(userType);
      expect(userinfo.accountId).toBe((await t.user(account)).id);
      expect(userinfo.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('stores only a hash of the token and records the login time and address', async () => {
    const reply = await login({ account: 'partner', password: DEMO_PASSWORD }, '10.1.2.3');
    const token = reply.body.data.userinfo.token;
    const sessions = await t.db.selectFrom('sessions').selectAll().execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].token_hash).not.toContain(token);
    expect(sessions[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].kind).toBe('login');
    expect(sessions[0].expires_at - sessions[0].created_at).toBe(12 * 60 * MINUTE);
    const user = await t.user('partner');
    expect(user.last_login_at).toBe(t.clock());
    expect(user.last_login_ip).toBe('10.1.2.3');
  });

  it('answers a wrong password and an unknown account with the same message', async () => {
    const before = await snapshot(t.db, ['login_throttle']);
    const wrong = await login({ account: 'admin', password: 'Wrong@2026' });
    const unknown = await login({ account: 'nobody', password: 'Wrong@2026' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ code: 0, msg: 'Wrong account or password', data: null });
    expect(unknown.body).toEqual(wrong.body);
    expect(await snapshot(t.db, ['login_throttle'])).toEqual(before);
  });

  it('speaks the caller’s language (lang header, then Accept-Language, then zh-CN)', async () => {
    const body = { account: 'admin', password: 'nope' };
    const zh = await t.call('POST', '/api/v1/platform/login', { body });
    expect(zh.body.msg).toBe('账号或密码错误');
    const accept = await t.call('POST', '/api/v1/platform/login', {
      body,
      headers: { 'accept-language': 'en-GB,en;q=0.8' },
    });
    expect(accept.body.msg).toBe('Wrong account or password');
    const lang = await t.call('POST', '/api/v1/platform/login', {
      body,
      headers: { lang: 'zh-CN', 'accept-language': 'en-US' },
    });
    expect(lang.body.msg).toBe('账号或密码错误');
  });

  it('refuses a disabled account clearly, but only once the password is right', async () => {
    await setUserStatus(t.app.ctx, (await t.user('merchant')).id, USER_STATUS.disabled);
    const wrong = await login({ account: 'merchant', password: 'Wrong@2026' });
    expect(wrong.body.msg).toBe('Wrong account or password');
    const right = await login({ account: 'merchant', password: DEMO_PASSWORD });
    expect(right.body).toEqual({ code: 0, msg: 'This account is disabled', data: null });
    expect(await t.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('validates the payload with the contract and changes nothing', async () => {
    const before = await snapshot(t.db);
    const cases: [unknown, string][] = [
      [{ password: DEMO_PASSWORD }, 'Username cannot be empty'],
      [{ account: '', password: DEMO_PASSWORD }, 'Username cannot be empty'],
      [{ account: '   ', password: DEMO_PASSWORD }, 'Username cannot be empty'],
      [{ account: 'admin' }, 'Password cannot be empty'],
      [{ account: 'admin', password: '' }, 'Password cannot be empty'],
      [{ account: 42, password: DEMO_PASSWORD }, 'Username cannot be empty'],
      [{ account: 'admin', password: ['Demo@2026'] }, 'Password cannot be empty'],
      [{ account: 'admin', password: DEMO_PASSWORD, role: 'admin' }, 'Unknown field: role'],
      [{ account: 'a'.repeat(65), password: DEMO_PASSWORD }, 'account: Too long'],
      [{ account: 'admin', password: 'p'.repeat(129) }, 'password: Too long'],
      [[], 'Invalid value'],
      ['admin', 'Invalid value'],
      [null, 'Invalid value'],
    ];
    for (const [body, msg] of cases) {
      const reply = await login(body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg, data: null });
    }
    const noBody = await t.call('POST', '/api/v1/platform/login', { headers: EN });
    expect(noBody.body).toEqual({ code: 0, msg: 'Invalid value', data: null });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('locks an account name for 15 minutes after 5 failures, even for the right password', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await login({ account: 'admin', password: `Wrong@${i}` })).body.msg).toBe(
        'Wrong account or password',
      );
    }
    const locked = await login({ account: 'admin', password: DEMO_PASSWORD });
    expect(locked.body).toEqual({
      code: 0,
      msg: 'Too many failed attempts. Try again in 15 minutes',
      data: null,
    });
    // Another account from the same address is not affected; the name is locked case-insensitively.
    expect((await login({ account: 'partner', password: DEMO_PASSWORD })).body.code).toBe(1);
    expect((await login({ account: 'ADMIN', password: DEMO_PASSWORD })).body.code).toBe(0);
    t.clock.advance(10 * MINUTE);
    expect((await login({ account: 'admin', password: DEMO_PASSWORD })).body.msg).toBe(
      'Too many failed attempts. Try again in 5 minutes',
    );
    t.clock.advance(5 * MINUTE);
    expect((await login({ account: 'admin', password: DEMO_PASSWORD })).body.code).toBe(1);
  });

  it('locks unknown account names the same way as known ones', async () => {
    for (let i = 0; i < 5; i += 1) await login({ account: 'ghost', password: 'Wrong@2026' });
    expect((await login({ account: 'ghost', password: 'Wrong@2026' })).body.msg).toBe(
      'Too many failed attempts. Try again in 15 minutes',
    );
  });

  it('forgets the failures of an account after a successful login', async () => {
    for (let i = 0; i < 4; i += 1) await login({ account: 'admin', password: 'Wrong@2026' });
    expect((await login({ account: 'admin', password: DEMO_PASSWORD })).body.code).toBe(1);
    for (let i = 0; i < 4; i += 1) await login({ account: 'admin', password: 'Wrong@2026' });
    expect((await login({ account: 'admin', password: DEMO_PASSWORD })).body.code).toBe(1);
  });

  it('starts a new window once 15 minutes passed since the first failure', async () => {
    for (let i = 0; i < 4; i += 1) await login({ account: 'admin', password: 'Wrong@2026' });
    t.clock.advance(15 * MINUTE);
    for (let i = 0; i < 4; i += 1) await login({ account: 'admin', password: 'Wrong@2026' });
    expect((await login({ account: 'admin', password: DEMO_PASSWORD })).body.code).toBe(1);
  });

  it('locks an address after 20 failures within 15 minutes, whatever the accounts', async () => {
    for (let i = 0; i < 20; i += 1) {
      await login({ account: `guess${i % 5}x${Math.floor(i / 5)}`, password: 'x' }, '10.9.9.9');
    }
    const locked = await login({ account: 'admin', password: DEMO_PASSWORD }, '10.9.9.9');
    expect(locked.body.msg).toBe('Too many failed attempts. Try again in 15 minutes');
    const elsewhere = await login({ account: 'admin', password: DEMO_PASSWORD }, '10.9.9.10');
    expect(elsewhere.body.code).toBe(1);
  });

  it('lets no more than 5 of many parallel guesses through before the lock', async () => {
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login({ account: 'merchant', password: `Bad@${i}` })),
    );
    const messages = replies.map((r) => r.body.msg);
    expect(messages.filter((m) => m === 'Wrong account or password')).toHaveLength(5);
    expect(messages.filter((m) => m.startsWith('Too many failed attempts'))).toHaveLength(7);
  });

  it('logout ends the calling session only, and is idempotent', async () => {
    const first = await t.login('partner');
    const second = await t.login('partner');
    const out = await t.call('POST', '/api/v1/platform/logout', { token: first, headers: EN });
    expect(out.body).toEqual({ code: 1, msg: 'Logged out', data: null });
    expect((await t.post('/platform/get_user_info', undefined, first)).status).toBe(401);
    expect((await t.post('/platform/get_user_info', undefined, second)).body.code).toBe(1);
    const again = await t.call('POST', '/api/v1/platform/logout', { token: first, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.code).toBe(1);
    const anonymous = await t.call('POST', '/api/v1/platform/logout', {
      payload: '',
      contentType: 'application/json',
    });
    expect(anonymous.body.code).toBe(1);
    const revoked = await t.db
      .selectFrom('sessions')
      .select(['revoked_reason'])
      .where('revoked_at', 'is not', null)
      .execute();
    expect(revoked).toEqual([{ revoked_reason: 'logout' }]);
  });

  it('logout refuses unknown fields and changes nothing', async () => {
    const token = await t.login('partner');
    const before = await snapshot(t.db);
    const reply = await t.call('POST', '/api/v1/platform/logout', {
      token,
      body: { everywhere: true },
      headers: EN,
    });
    expect(reply.body).toEqual({ code: 0, msg: 'Unknown field: everywhere', data: null });
    expect(await snapshot(t.db)).toEqual(before);
  });
});
