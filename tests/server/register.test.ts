import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_STATUS } from '../../server/platform/db/schema';
import { createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const MOBILE = '13912340000';

interface LoginData {
  userinfo: { token: string; accountId: number; user_type: number; username: string };
}

describe.each(engines)('register on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const register = (body: unknown) =>
    t.call<LoginData>('POST', '/api/v1/platform/register', { body, headers: EN });

  /** A fresh register code (a minute later, so the resend limit never interferes). */
  async function codeFor(mobile = MOBILE): Promise<string> {
    t.clock.advance(61_000);
    const reply = await t.post('/platform/get_captcha', { mobile, purpose: 'register' });
    expect(reply.body.code).toBe(1);
    return t.sms.lastCode(mobile)!;
  }

  const BASE = { username: 'newshop', password: 'Shop#2026', mobile: MOBILE, domain: 'localhost' };
  const valid = async (extra: Record<string, unknown> = {}) => ({
    ...BASE,
    code: await codeFor(),
    ...extra,
  });

  it('creates a merchant under the partner that owns the domain and signs it in', async () => {
    const reply = await register(await valid({ domain: 'http://LOCALHOST:8080' }));
    expect(reply.body.code).toBe(1);
    expect(reply.body.msg).toBe('Account created');
    const { userinfo } = reply.body.data;
    expect(userinfo.username).toBe('newshop');
    expect(userinfo.user_type).toBe(2);
    const partner = await t.user('partner');
    const created = await t.user('newshop');
    expect(created).toMatchObject({
      id: userinfo.accountId,
      user_type: 2,
      pid: partner.id,
      service_id: partner.id,
      agent_id: null,
      mobile: MOBILE,
      status: USER_STATUS.normal,
      money: 0,
    });
    const me = await t.post<{ username: string; service_id: number }>(
      '/platform/get_user_info',
      undefined,
      userinfo.token,
    );
    expect(me.body.data).toMatchObject({ username: 'newshop', service_id: partner.id });
    expect(await t.login('newshop', 'Shop#2026')).toBeTruthy();
  });

  /** Changes nothing but the sign-up throttle's count (and the code's tries). */
  async function refusedWithoutChange(body: unknown, msg: string) {
    const before = await snapshot(t.db, ['login_throttle', 'sms_codes']);
    const reply = await register(body);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, msg, data: null });
    expect(await snapshot(t.db, ['login_throttle', 'sms_codes'])).toEqual(before);
  }

  it('is refused while the platform keeps sign-up closed', async () => {
    const body = await valid();
    await t.db
      .updateTable('platform_config')
      .set({ value: '0' })
      .where('name', '=', 'register_open')
      .execute();
    await refusedWithoutChange(body, 'Sign-up is closed');
  });

  it('is refused on a domain no partner owns, or whose partner is disabled', async () => {
    await refusedWithoutChange(
      await valid({ domain: 'unknown.example.com' }),
      'Sign-up is not available on this domain',
    );
    await t.db
      .updateTable('users')
      .set({ status: USER_STATUS.disabled })
      .where('username', '=', 'partner')
      .execute();
    await refusedWithoutChange(
      await valid({ domain: '127.0.0.1' }),
      'Sign-up is not available on this domain',
    );
  });

  it('is refused once the partner reached its merchant limit', async () => {
    await t.db
      .updateTable('users')
      .set({ merchant_count_limit: 1 })
      .where('username', '=', 'partner')
      .execute();
    await refusedWithoutChange(await valid(), 'The merchant limit has been reached (1)');
    await t.db
      .updateTable('users')
      .set({ merchant_count_limit: 2 })
      .where('username', '=', 'partner')
      .execute();
    expect((await register(await valid())).body.code).toBe(1);
  });

  const UNAVAILABLE =
    'Cannot sign up with these details. If this mobile number already has an account, log in or reset the password; otherwise choose another account name';

  it('keeps usernames and mobiles unique, answering a taken name and a taken mobile alike', async () => {
    await refusedWithoutChange(await valid({ username: 'merchant2' }), UNAVAILABLE);
    const taken = '13800000003';
    await refusedWithoutChange(
      { ...(await valid()), mobile: taken, code: await codeFor(taken) },
      UNAVAILABLE,
    );
    await refusedWithoutChange(
      { ...(await valid({ username: 'MERCHANT2' })), mobile: taken, code: await codeFor(taken) },
      UNAVAILABLE,
    );
    // The code stays usable after such a refusal: the person picks another name.
    const body = await valid({ username: 'merchant2' });
    expect((await register(body)).body.msg).toBe(UNAVAILABLE);
    expect((await register({ ...body, username: 'freshname' })).body.code).toBe(1);
  });

  it('tells nothing about existing accounts to whoever lacks the mobile’s code', async () => {
    const taken = '13800000003';
    await codeFor(taken);
    await codeFor();
    const answers = [];
    for (const [username, mobile] of [
      ['merchant2', MOBILE], // taken name
      ['freshname', taken], // taken mobile
      ['merchant2', taken], // both
      ['freshname2', '13912340001'], // neither (and no code was ever sent)
    ]) {
      const reply = await register({ ...(await valid()), username, mobile, code: '999999' });
      answers.push(reply.body);
    }
    // A wrong code (or none) is all anyone learns, whatever exists.
    for (const answer of answers) {
      expect(answer).toEqual({ code: 0, msg: 'The code is wrong or has expired', data: null });
    }
  });

  it('is throttled per address and per mobile like login', async () => {
    const mobiles = Array.from({ length: 12 }, (_, i) => `139000000${String(i).padStart(2, '0')}`);
    const from = (remoteAddress: string, mobile: string) =>
      t.call<LoginData>('POST', '/api/v1/platform/register', {
        body: {
          username: 'someone',
          password: 'Shop#2026',
          mobile,
          code: '123456',
          domain: 'localhost',
        },
        headers: EN,
        remoteAddress,
      });
    // One address, ten tries across mobiles; the eleventh is refused whatever it sends.
    for (const mobile of mobiles.slice(0, 10)) {
      expect((await from('10.0.0.1', mobile)).body.msg).toBe('The code is wrong or has expired');
    }
    const locked = await from('10.0.0.1', mobiles[10]);
    expect(locked.body).toEqual({
      code: 0,
      msg: 'Too many failed attempts. Try again in 15 minutes',
      data: null,
    });
    // One mobile, five tries from different addresses; the sixth is refused.
    for (let i = 0; i < 5; i += 1) {
      expect((await from(`10.0.1.${i}`, mobiles[11])).body.msg).toBe(
        'The code is wrong or has expired',
      );
    }
    expect((await from('10.0.2.1', mobiles[11])).body.msg).toBe(
      'Too many failed attempts. Try again in 15 minutes',
    );
    // Other addresses and mobiles are not affected; the locks lift after 15 minutes.
    expect((await from('10.0.3.1', MOBILE)).body.msg).toBe('The code is wrong or has expired');
    t.clock.advance(15 * 60_000);
    expect((await from('10.0.0.1', mobiles[10])).body.msg).toBe('The code is wrong or has expired');
  });

  it('gives back the count of a sign-up that succeeded', async () => {
    // Twelve sign-ups from one address within a minute: more than its limit of tries.
    for (let i = 0; i < 12; i += 1) {
      const mobile = `137000000${String(i).padStart(2, '0')}`;
      await t.post('/platform/get_captcha', { mobile, purpose: 'register' });
      const body = { ...BASE, username: `shop${i}`, mobile, code: t.sms.lastCode(mobile) };
      expect((await register(body)).body.code, `sign-up ${i}`).toBe(1);
    }
  });

  it('needs the register code sent to that mobile', async () => {
    const body = await valid();
    const wrong = body.code === '000000' ? '111111' : '000000';
    const before = await snapshot(t.db, ['sms_codes', 'login_throttle']);
    const reply = await register({ ...body, code: wrong });
    expect(reply.body).toEqual({ code: 0, msg: 'The code is wrong or has expired', data: null });
    expect(await snapshot(t.db, ['sms_codes', 'login_throttle'])).toEqual(before);

    await t.post('/platform/get_captcha', { mobile: '13800000003', purpose: 'reset' });
    const resetCode = t.sms.lastCode('13800000003')!;
    const otherMobile = await register({ ...body, code: resetCode });
    expect(otherMobile.body.msg).toBe('The code is wrong or has expired');
  });

  it('validates the payload with the contract and changes nothing', async () => {
    const body = await valid();
    const before = await snapshot(t.db);
    const cases: [unknown, string][] = [
      [{ ...body, username: 'ab' }, 'Account: 3 to 32 letters, digits, _ . @ or -'],
      [{ ...body, username: 'has space' }, 'Account: 3 to 32 letters, digits, _ . @ or -'],
      [{ ...body, username: '' }, 'Username cannot be empty'],
      [
        { ...body, password: 'weakpass' },
        'Password: at least six characters, with letters, digits and special characters, no spaces',
      ],
      [{ ...body, mobile: '138' }, 'Enter an 11-digit mobile number starting with 1'],
      [{ ...body, code: 'abcdef' }, 'Enter the 6-digit code'],
      [{ ...body, domain: '' }, 'domain: Invalid value'],
      [{ ...body, domain: 'd'.repeat(254) }, 'domain: Too long'],
      [{ ...body, user_type: 0 }, 'Unknown field: user_type'],
      [{ ...body, service_id: 1 }, 'Unknown field: service_id'],
    ];
    for (const [input, msg] of cases) {
      const reply = await register(input);
      expect(reply.body, JSON.stringify(input)).toEqual({ code: 0, msg, data: null });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
