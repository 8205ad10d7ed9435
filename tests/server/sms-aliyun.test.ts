import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signAliyunRpc } from '../../server/integrations/sms/aliyun';
import { createTestApp, engines, snapshot, type TestApp } from './helpers';
import { startFakeAliyunSms, type FakeAliyunSms } from './fake-aliyun-sms';

/**
 * SMS codes through Alibaba Cloud's SMS service once the system init's SMS group is set up
 * (docs/domain.md §System init "Taking effect"): the next code goes to the service with the
 * stored signature and template, without a restart; a field cleared sends through the embedded
 * log again; the service's refusals are said in the caller's language and withdraw the code.
 */
const EN = { lang: 'en-US' };
const ACCOUNT = {
  accessKeyId: 'LTAI5tFakeAccessKey01',
  accessKeySecret: 'fake-access-key-secret-0123456789',
  signName: '极光视频',
  templateCode: 'SMS_123456789',
  templateName: '注册验证码',
};

it("signs as Alibaba Cloud's documentation's worked example (DescribeRegions, testsecret)", () => {
  // help.aliyun.com "Signature mechanism" (RPC, signature version 1.0): the published signature.
  const params = {
    AccessKeyId: 'testid',
    Action: 'DescribeRegions',
    Format: 'XML',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
    SignatureVersion: '1.0',
    Timestamp: '2016-02-23T12:46:24Z',
    Version: '2014-05-26',
  };
  expect(signAliyunRpc('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
});

describe.each(engines)('SMS codes through Alibaba Cloud on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let fake: FakeAliyunSms;
  beforeAll(async () => {
    fake = await startFakeAliyunSms(ACCOUNT);
  });
  afterAll(async () => {
    await fake?.stop();
  });
  afterEach(async () => {
    await t?.close();
  });

  const captcha = (mobile: string) =>
    t.call('POST', '/api/v1/platform/get_captcha', {
      body: { mobile, purpose: 'register' },
      headers: EN,
    });
  const setSms = (values: Record<string, string>, clear: string[] = []) =>
    t.call('POST', '/api/v1/init_config/set_config', {
      token: admin,
      body: { group: 'sms', values, clear },
      headers: EN,
    });
  const smsLog = () => fs.readFile(path.join(t.dataDir, 'sms.log'), 'utf8').catch(() => '');

  it('a saved SMS group sends the next code through the service; clearing goes back to the log', async () => {
    t = await createTestApp(engine, { realSms: true });
    admin = await t.login('admin');
    // Nothing set: the embedded log.
    expect((await captcha('13900000001')).body.code).toBe(1);
    expect(await smsLog()).toMatch(/^13900000001 register \d{6}\n$/);

    const saved = await setSms({
      endpoint: fake.url,
      access_key_id: ACCOUNT.accessKeyId,
      access_key_secret: ACCOUNT.accessKeySecret,
      sign_name: ACCOUNT.signName,
      template_code: ACCOUNT.templateCode,
    });
    expect(saved.body.code, saved.raw).toBe(1);
    const before = fake.seen.length;
    expect((await captcha('13900000002')).body).toMatchObject({ code: 1 });
    const sent = fake.seen.slice(before);
    expect(sent.map((p) => p.Action)).toEqual(['SendSms']);
    expect(sent[0]).toMatchObject({
      PhoneNumbers: '13900000002',
      SignName: ACCOUNT.signName,
      TemplateCode: ACCOUNT.templateCode,
    });
    const { code } = JSON.parse(sent[0].TemplateParam) as { code: string };
    expect(code).toMatch(/^\d{6}$/);
    // The code the service delivered is the one that signs up.
    const registered = await t.call('POST', '/api/v1/platform/register', {
      body: {
        username: 'smsviaaliyun',
        password: 'Shop#2026',
        mobile: '13900000002',
        code,
        domain: 'localhost',
      },
      headers: EN,
    });
    expect(registered.body.code, registered.raw).toBe(1);
    expect(await smsLog()).not.toContain('13900000002');

    // A field cleared: not set up any more, the log again.
    await setSms({}, ['template_code']);
    const seen = fake.seen.length;
    expect((await captcha('13900000003')).body.code).toBe(1);
    expect(fake.seen.length).toBe(seen);
    expect(await smsLog()).toContain('13900000003 register');
  });

  it("the service's refusals are said in the caller's language and withdraw the code", async () => {
    t = await createTestApp(engine, { realSms: true });
    admin = await t.login('admin');
    await setSms({
      endpoint: fake.url,
      access_key_id: ACCOUNT.accessKeyId,
      access_key_secret: 'a-wrong-secret-0000000000',
      sign_name: ACCOUNT.signName,
      template_code: ACCOUNT.templateCode,
    });
    const codes = () => t.db.selectFrom('sms_codes').select('mobile').execute();
    const before = await snapshot(t.db, ['sms_codes']);
    expect((await captcha('13900000011')).body).toEqual({
      code: 0,
      msg: 'The SMS service refused our settings: an administrator must check them. Try again later',
      data: null,
    });
    expect(await snapshot(t.db, ['sms_codes'])).toEqual(before);

    await setSms({ access_key_secret: ACCOUNT.accessKeySecret });
    fake.failNextSend('isv.MOBILE_NUMBER_ILLEGAL');
    expect((await captcha('13900000012')).body.msg).toBe(
      'The SMS service refused to send a code to this number',
    );
    fake.failNextSend('ServiceUnavailable', 503);
    const zh = await t.call('POST', '/api/v1/platform/get_captcha', {
      body: { mobile: '13900000013', purpose: 'register' },
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body.msg).toBe('短信服务暂时不可用，请稍后再试');
    // Withdrawn: asking again at once is not "too often", and sends.
    expect((await captcha('13900000013')).body.code).toBe(1);
    expect((await codes()).map((c) => c.mobile)).toEqual(['13900000013']);
  });
});
