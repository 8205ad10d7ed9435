import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigPair, SystemInfo } from '../../src/api/contract/system';
import { createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

/** The demo partner's branding of localhost / 127.0.0.1, merged over the platform defaults. */
const PARTNER_BRANDING: SystemInfo = {
  name: '星云智剪',
  logo: '/logo.svg',
  favicon: '/favicon.svg',
  copyright: '© 2026 星云智剪 版权所有',
  icp_record_number: '沪ICP备2026000001号-1',
  police_record: '1',
  police_record_number: '沪公网安备31010402000001号',
  money_name: '星币',
  VITE_MERCHANT_COUNT_LIMITATION: '-1',
  money_recharge_exchange_config: '1,2,3,4',
  dy_auth_publish_show: '1',
  digital_short_video_text_cost: '0.1',
  digital_voice_money_exchange_num: '10',
  digital_man_money_exchange_num: '1',
  image_clone_money_exchange_num: '50',
  expirence_money_show: '1',
  saler_show: '1',
  register_open: '1',
  theme_color: '',
};

const PLATFORM_DEFAULTS: SystemInfo = {
  ...PARTNER_BRANDING,
  name: '智能短视频平台',
  copyright: '© 2026 智能短视频平台',
  icp_record_number: '',
  police_record: '0',
  police_record_number: '',
  money_name: '余额',
};

describe.each(engines)('get_system_info and get_simple_config on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const systemInfo = (query?: Record<string, string>, headers: Record<string, string> = EN) =>
    t.call<SystemInfo>('GET', '/api/v1/platform/get_system_info', { query, headers });

  it('gives a branded host its branding over the platform defaults', async () => {
    for (const domain of [
      'localhost',
      '127.0.0.1',
      'LOCALHOST:8080',
      'http://127.0.0.1:5173/',
      'localhost.',
    ]) {
      const reply = await systemInfo({ domain });
      expect(reply.body.code, domain).toBe(1);
      expect(reply.body.data, domain).toEqual(PARTNER_BRANDING);
    }
  });

  it('gives an unknown host the platform defaults', async () => {
    for (const domain of ['example.com', 'localhost.example.com', '[::1]:8080']) {
      expect((await systemInfo({ domain })).body.data, domain).toEqual(PLATFORM_DEFAULTS);
    }
  });

  it('uses the Host header when no domain is given', async () => {
    expect((await systemInfo(undefined, { ...EN, host: 'localhost:8080' })).body.data).toEqual(
      PARTNER_BRANDING,
    );
    expect((await systemInfo({ domain: '' }, { ...EN, host: 'other.test' })).body.data).toEqual(
      PLATFORM_DEFAULTS,
    );
  });

  it('fills the fields a domain leaves empty from the defaults, and ignores revoked domains', async () => {
    await t.db
      .updateTable('domains')
      .set({ logo: '', money_name: '', police_record: '0' })
      .where('hostname', '=', 'localhost')
      .execute();
    await t.db
      .updateTable('platform_config')
      .set({ value: '/platform-logo.svg' })
      .where('name', '=', 'logo')
      .execute();
    const merged = (await systemInfo({ domain: 'localhost' })).body.data;
    expect(merged).toMatchObject({
      name: '星云智剪',
      logo: '/platform-logo.svg',
      money_name: '余额',
      police_record: '0',
    });
    await t.db
      .updateTable('domains')
      .set({ status: 0 })
      .where('hostname', '=', '127.0.0.1')
      .execute();
    expect((await systemInfo({ domain: '127.0.0.1' })).body.data).toEqual({
      ...PLATFORM_DEFAULTS,
      logo: '/platform-logo.svg',
    });
  });

  it('validates its query and changes nothing', async () => {
    const before = await snapshot(t.db);
    const long = await systemInfo({ domain: 'a'.repeat(254) });
    expect(long.body).toEqual({ code: 0, msg: 'domain: Too long', data: null });
    const extra = await systemInfo({ domain: 'localhost', admin: '1' });
    expect(extra.body).toEqual({ code: 0, msg: 'Unknown field: admin', data: null });
    const twice = await t.call('GET', '/api/v1/platform/get_system_info?domain=a&domain=b', {
      headers: EN,
    });
    expect(twice.body).toEqual({ code: 0, msg: 'domain: Invalid value', data: null });
    expect(await snapshot(t.db)).toEqual(before);
  });

  const simpleConfig = (query?: Record<string, string>) =>
    t.call<ConfigPair[]>('GET', '/api/v1/platform/get_simple_config', { query, headers: EN });

  it('lists the non-secret settings of the requested groups', async () => {
    const reply = await simpleConfig({ group: 'show_config,resource' });
    expect(reply.body.code).toBe(1);
    const values = Object.fromEntries(reply.body.data.map((p) => [p.name, p.value]));
    expect(values).toMatchObject({
      register_open: '1',
      expirence_money_show: '1',
      saler_show: '1',
      money_recharge_exchange_config: '1,2,3,4',
      VITE_MERCHANT_COUNT_LIMITATION: '-1',
      dy_auth_publish_show: '1',
      upload_video_max_mb: '500',
      upload_image_max_mb: '10',
      upload_audio_max_mb: '50',
    });
    for (const pair of reply.body.data) expect(Object.keys(pair).sort()).toEqual(['name', 'value']);

    const showOnly = await simpleConfig({ group: 'show_config' });
    const names = showOnly.body.data.map((p) => p.name);
    expect(names).toContain('register_open');
    expect(names).not.toContain('upload_video_max_mb');
  });

  it('never lists secrets, nor groups other than show_config and resource', async () => {
    await t.db
      .insertInto('platform_config')
      .values({
        name: 'oss_secret_key',
        value: 'top-secret',
        group_name: 'resource',
        is_secret: 1,
        updated_at: 0,
      })
      .execute();
    const reply = await simpleConfig({ group: 'show_config,resource' });
    expect(reply.raw).not.toContain('top-secret');
    expect(reply.body.data.map((p) => p.name)).not.toContain('oss_secret_key');
    expect(reply.raw).not.toContain('sms_access_key_secret');

    for (const group of ['sms', 'base,sms', 'show_config,price']) {
      const refused = await simpleConfig({ group });
      expect(refused.body, group).toEqual({ code: 0, msg: 'group: Invalid value', data: null });
    }
  });

  it('validates its query', async () => {
    expect((await simpleConfig()).body).toEqual({ code: 0, msg: 'group: Required', data: null });
    expect((await simpleConfig({ group: ',' })).body).toEqual({
      code: 0,
      msg: 'group: Required',
      data: null,
    });
    expect((await simpleConfig({ group: 'show_config', x: '1' })).body).toEqual({
      code: 0,
      msg: 'Unknown field: x',
      data: null,
    });
    expect((await simpleConfig({ group: 'show_config,'.repeat(30) })).body.msg).toBe(
      'group: Too long',
    );
  });
});
