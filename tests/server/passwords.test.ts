import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, MINUTE, createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const NEW = 'Fresh#2027';

describe.each(engines)('change_pwd on %s', (engine) => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp(engine);
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
  });

  const change = (body: unknown, as = token) =>
    t.call('POST', '/api/v1/platform/change_pwd', { token: as, body, headers: EN });

  it('changes the password: the new one logs in, the old one no longer does', async () => {
    const reply = await change({
      old_password: DEMO_PASSWORD,
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(reply.body.code).toBe(1);
    await expect(t.login('merchant')).rejects.toThrow();
    expect(await t.login('merchant', NEW)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const before = await snapshot(t.db, ['login_throttle']);
    const reply = await change({
      old_password: 'Wrong@2026',
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(reply.body).toEqual({ code: 0, msg: 'The current password is wrong', data: null });
    expect(await snapshot(t.db, ['login_throttle'])).toEqual(before);
    expect((await t.post('/platform/get_user_info', undefined, token)).body.code).toBe(1);
  });

  it('counts wrong current passwords against the account’s login throttle', async () => {
    for (let i = 0; i < 5; i += 1) {
      await change({ old_password: `Bad@${i}xx`, new_password: NEW, confirm_password: NEW });
    }
    const locked = await change({
      old_password: DEMO_PASSWORD,
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(locked.body.msg).toBe('Too many failed attempts. Try again in 15 minutes');
    t.clock.advance(15 * MINUTE);
    const reply = await change({
      old_password: DEMO_PASSWORD,
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(reply.body.code).toBe(1);
  });

  it('validates the payload and changes nothing', async () => {
    const before = await snapshot(t.db);
    const ok = { old_password: DEMO_PASSWORD, new_password: NEW, confirm_password: NEW };
    const cases: [unknown, string][] = [
      [{ ...ok, confirm_password: 'Other#2027' }, 'The two passwords do not match'],
      [{ ...ok, new_password: 'abc', confirm_password: 'abc' }, PASSWORD_RULE],
      [{ ...ok, new_password: 'abcdefgh1', confirm_password: 'abcdefgh1' }, PASSWORD_RULE],
      [{ ...ok, new_password: 'abc def#1', confirm_password: 'abc def#1' }, PASSWORD_RULE],
      [{ ...ok, new_password: '', confirm_password: '' }, 'Password cannot be empty'],
      [{ ...ok, old_password: '' }, 'Password cannot be empty'],
      [{ new_password: NEW, confirm_password: NEW }, 'Password cannot be empty'],
      [{ ...ok, old_password: 123456 }, 'Password cannot be empty'],
      [{ ...ok, user_id: 1 }, 'Unknown field: user_id'],
      [
        { ...ok, new_password: `Aa1#${'x'.repeat(80)}`, confirm_password: 'x' },
        'new_password: Too long',
      ],
      [
        { ...ok, new_password: NEW, old_password: NEW },
        'The new password must differ from the current one',
      ],
      [[ok], 'Invalid value'],
    ];
    for (const [body, msg] of cases) {
      const reply = await change(body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg, data: null });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('is refused to an overstep session (HTTP 403)', async () => {
    const admin = await t.login('admin');
    const stepped = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      admin,
    );
    const before = await snapshot(t.db);
    const reply = await change(
      { old_password: DEMO_PASSWORD, new_password: NEW, confirm_password: NEW },
      stepped.body.data.userinfo.token,
    );
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({
      code: 0,
      msg: 'You do not have permission for this action',
      data: null,
    });
    expect(await snapshot(t.db)).toEqual(before);
  });
});

const PASSWORD_RULE =
  'Password: at least six characters, with letters, digits and special characters, no spaces';

describe.each(engines)('get_captcha and reset_pwd on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const captcha = (body: unknown) =>
    t.call('POST', '/api/v1/platform/get_captcha', { body, headers: EN });
  const reset = (body: unknown) =>
    t.call('POST', '/api/v1/platform/reset_pwd', { body, headers: EN });
  const MOBILE = '13800000003'; // merchant

  it('sends a 6-digit code, stores only its hash, one per mobile per 60 seconds', async () => {
    const reply = await captcha({ mobile: MOBILE, purpose: 'reset' });
    expect(reply.body).toEqual({ code: 1, msg: 'The code has been sent', data: null });
    expect(t.sms.sent).toHaveLength(1);
    const code = t.sms.lastCode(MOBILE)!;
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.db.selectFrom('sms_codes').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).not.toContain(code);
    expect(rows[0].expires_at - rows[0].created_at).toBe(5 * MINUTE);

    t.clock.advance(45_000);
    const again = await captcha({ mobile: MOBILE, purpose: 'reset' });
    expect(again.body).toEqual({
      code: 0,
      msg: 'A code was sent recently. Try again in 15 seconds',
      data: null,
    });
    expect(t.sms.sent).toHaveLength(1);
    t.clock.advance(15_000);
    expect((await captcha({ mobile: MOBILE, purpose: 'reset' })).body.code).toBe(1);
    expect(t.sms.sent).toHaveLength(2);
  });

  it('answers alike for a mobile no account uses, without sending anything', async () => {
    const known = await captcha({ mobile: MOBILE, purpose: 'reset' });
    const unknown = await captcha({ mobile: '13912345678', purpose: 'reset' });
    expect(unknown.body).toEqual(known.body);
    expect(t.sms.sent.map((m) => m.mobile)).toEqual([MOBILE]);
    const soon = await captcha({ mobile: '13912345678', purpose: 'reset' });
    expect(soon.body.msg).toMatch(/^A code was sent recently/);
  });

  it('the embedded SMS provider appends `mobile purpose code` to DATA_DIR/sms.log', async () => {
    await t.close();
    t = await createTestApp(engine, { realSms: true });
    expect((await captcha({ mobile: MOBILE, purpose: 'reset' })).body.code).toBe(1);
    const log = await fs.readFile(path.join(t.dataDir, 'sms.log'), 'utf8');
    expect(log).toMatch(/^13800000003 reset \d{6}\n$/);
  });

  it('validates the payload and changes nothing', async () => {
    const before = await snapshot(t.db);
    const cases: [unknown, string][] = [
      [
        { mobile: '1380000000', purpose: 'reset' },
        'Enter an 11-digit mobile number starting with 1',
      ],
      [
        { mobile: '23800000003', purpose: 'reset' },
        'Enter an 11-digit mobile number starting with 1',
      ],
      [
        { mobile: 13800000003, purpose: 'reset' },
        'Enter an 11-digit mobile number starting with 1',
      ],
      [{ mobile: MOBILE, purpose: 'login' }, 'purpose: Invalid value'],
      [{ mobile: MOBILE }, 'purpose: Invalid value'],
      [{ mobile: MOBILE, purpose: 'reset', code: '123456' }, 'Unknown field: code'],
      [
        { mobile: `1${'3'.repeat(5000)}`, purpose: 'reset' },
        'Enter an 11-digit mobile number starting with 1',
      ],
    ];
    for (const [body, msg] of cases) {
      const reply = await captcha(body);
      expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg, data: null });
    }
    expect(t.sms.sent).toHaveLength(0);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('resets the password with the code and ends the user’s sessions (50008)', async () => {
    const session = await t.login('merchant');
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const code = t.sms.lastCode(MOBILE)!;
    const reply = await reset({ mobile: MOBILE, code, new_password: NEW, confirm_password: NEW });
    expect(reply.body).toEqual({ code: 1, msg: 'Password reset, please log in', data: null });
    expect(await t.login('merchant', NEW)).toBeTruthy();
    const old = await t.call('POST', '/api/v1/platform/get_user_info', {
      token: session,
      headers: EN,
    });
    expect(old.body).toEqual({
      code: 50008,
      msg: 'Your password was reset, please log in again',
      data: null,
    });
    // The code is used up.
    const reuse = await reset({
      mobile: MOBILE,
      code,
      new_password: 'Other#2028',
      confirm_password: 'Other#2028',
    });
    expect(reuse.body.msg).toBe('The code is wrong or has expired');
  });

  it('allows 5 tries per code, then refuses even the right one', async () => {
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const code = t.sms.lastCode(MOBILE)!;
    const wrong = code === '000000' ? '111111' : '000000';
    const before = await snapshot(t.db, ['sms_codes']);
    for (let i = 0; i < 5; i += 1) {
      const reply = await reset({
        mobile: MOBILE,
        code: wrong,
        new_password: NEW,
        confirm_password: NEW,
      });
      expect(reply.body).toEqual({ code: 0, msg: 'The code is wrong or has expired', data: null });
    }
    const right = await reset({ mobile: MOBILE, code, new_password: NEW, confirm_password: NEW });
    expect(right.body.msg).toBe('The code is wrong or has expired');
    expect(await snapshot(t.db, ['sms_codes'])).toEqual(before);
  });

  it('accepts the right code within 5 tries', async () => {
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const code = t.sms.lastCode(MOBILE)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) {
      await reset({ mobile: MOBILE, code: wrong, new_password: NEW, confirm_password: NEW });
    }
    const right = await reset({ mobile: MOBILE, code, new_password: NEW, confirm_password: NEW });
    expect(right.body.code).toBe(1);
  });

  it('refuses an expired code, a code of another purpose and a superseded code', async () => {
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const first = t.sms.lastCode(MOBILE)!;
    t.clock.advance(5 * MINUTE);
    const before = await snapshot(t.db);
    const expired = await reset({
      mobile: MOBILE,
      code: first,
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(expired.body.msg).toBe('The code is wrong or has expired');
    expect(await snapshot(t.db)).toEqual(before);

    await captcha({ mobile: MOBILE, purpose: 'register' });
    const registerCode = t.sms.lastCode(MOBILE)!;
    const otherPurpose = await reset({
      mobile: MOBILE,
      code: registerCode,
      new_password: NEW,
      confirm_password: NEW,
    });
    expect(otherPurpose.body.msg).toBe('The code is wrong or has expired');

    t.clock.advance(MINUTE);
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const second = t.sms.lastCode(MOBILE)!;
    t.clock.advance(MINUTE);
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    if (second !== t.sms.lastCode(MOBILE)) {
      const superseded = await reset({
        mobile: MOBILE,
        code: second,
        new_password: NEW,
        confirm_password: NEW,
      });
      expect(superseded.body.msg).toBe('The code is wrong or has expired');
    }
    await expect(t.login('merchant', NEW)).rejects.toThrow();
  });

  it('validates the payload and changes nothing', async () => {
    await captcha({ mobile: MOBILE, purpose: 'reset' });
    const code = t.sms.lastCode(MOBILE)!;
    const ok = { mobile: MOBILE, code, new_password: NEW, confirm_password: NEW };
    const before = await snapshot(t.db);
    const cases: [unknown, string][] = [
      [{ ...ok, code: '12345' }, 'Enter the 6-digit code'],
      [{ ...ok, code: 123456 }, 'Enter the 6-digit code'],
      [{ ...ok, mobile: 'abc' }, 'Enter an 11-digit mobile number starting with 1'],
      [{ ...ok, confirm_password: 'x' }, 'The two passwords do not match'],
      [{ ...ok, new_password: 'short', confirm_password: 'short' }, PASSWORD_RULE],
      [{ ...ok, username: 'merchant' }, 'Unknown field: username'],
      [{ mobile: MOBILE, code }, 'Password cannot be empty'],
    ];
    for (const [body, msg] of cases) {
      const reply = await reset(body);
      expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg, data: null });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
