import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userInfoSchema, type UserInfo } from '../../src/api/contract/auth';
import type { Account, DashboardData } from '../../src/api/contract/dashboard';
import { HOUR, MINUTE, createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const exactUserInfo = z.strictObject(userInfoSchema.shape);

describe.each(engines)('current user, account and dashboard on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  it('get_user_info returns exactly the contract’s fields, with money as a 2-decimal string', async () => {
    const expected: Record<string, Partial<UserInfo>> = {
      admin: { user_type: 0, money: '0.00', service_id: 0, mobile: '13800000000' },
      partner: {
        user_type: 1,
        money: '98799.50',
        service_prefix_no: 'PA',
        service_type: 1,
        open_oem: 1,
        can_transfer_money: 1,
        can_transfer_digital_man: 1,
        can_transfer_digital_voice: 1,
      },
      partner2: { user_type: 1, money: '49700.00', service_prefix_no: 'PB', open_oem: 0 },
      agent: { user_type: 3, money: '0.00', mobile: '13800000004' },
      merchant: {
        user_type: 2,
        money: '1200.50',
        mobile: '13800000003',
        phone: '13800000003',
        show_clip_menu: 1,
        can_transfer_money: 0,
      },
      merchant2: { user_type: 2, money: '300.00' },
    };
    for (const [username, fields] of Object.entries(expected)) {
      const token = await t.login(username);
      const reply = await t.post<UserInfo>('/platform/get_user_info', undefined, token);
      expect(reply.body.code).toBe(1);
      const info = exactUserInfo.parse(reply.body.data);
      const row = await t.user(username);
      expect(info).toMatchObject({
        ...fields,
        accountId: row.id,
        username,
        overstep_by: null,
        service_id: row.service_id,
      });
      expect(info.registrationDate).toBe(new Date(row.created_at).toISOString());
    }
  });

  it('get_user_info and get_account take no input', async () => {
    const token = await t.login('merchant');
    const extra = await t.call('POST', '/api/v1/platform/get_user_info', {
      token,
      body: { accountId: 1 },
      headers: EN,
    });
    expect(extra.body).toEqual({ code: 0, msg: 'Unknown field: accountId', data: null });
    const query = await t.call('GET', '/api/v1/platform/get_account', {
      token,
      query: { user_id: '1' },
      headers: EN,
    });
    expect(query.body).toEqual({ code: 0, msg: 'Unknown field: user_id', data: null });
  });

  it('get_account returns the caller’s own balances, equal to its ledger', async () => {
    const expected: Record<string, Account> = {
      partner: {
        money: '98799.50',
        digital_man_seconds: 98 * 3600,
        voice_clone_count: 48,
        image_clone_count: 19,
      },
      merchant: {
        money: '1200.50',
        digital_man_seconds: 7200,
        voice_clone_count: 2,
        image_clone_count: 1,
      },
      agent: { money: '0.00', digital_man_seconds: 0, voice_clone_count: 0, image_clone_count: 0 },
    };
    for (const [username, account] of Object.entries(expected)) {
      const reply = await t.get<Account>(
        '/platform/get_account',
        undefined,
        await t.login(username),
      );
      expect(reply.body).toEqual({ code: 1, msg: '操作成功', data: account });
    }
  });

  it('edit_profile saves the user’s own fields and returns the new user info', async () => {
    const token = await t.login('merchant');
    const reply = await t.call<UserInfo>('POST', '/api/v1/platform/edit_profile', {
      token,
      headers: EN,
      body: {
        nickname: '  晨光  ',
        email: 'shop@example.com',
        introduction: '本地生活',
        personalWebsite: 'https://shop.example.com',
        location: '上海',
        job: '店长',
        organization: '晨光小店',
      },
    });
    expect(reply.body.code).toBe(1);
    expect(reply.body.msg).toBe('Profile saved');
    expect(reply.body.data).toMatchObject({
      nickname: '晨光',
      email: 'shop@example.com',
      introduction: '本地生活',
      personalWebsite: 'https://shop.example.com',
      location: '上海',
      locationName: '上海',
      job: '店长',
      jobName: '店长',
      organization: '晨光小店',
    });
    const row = await t.user('merchant');
    expect(row).toMatchObject({ nickname: '晨光', personal_website: 'https://shop.example.com' });
    // Only what is sent changes.
    await t.post('/platform/edit_profile', { email: '' }, token);
    expect(await t.user('merchant')).toMatchObject({ email: '', nickname: '晨光' });
  });

  it('edit_profile refuses bad input and fields it does not own, changing nothing', async () => {
    const token = await t.login('merchant');
    const before = await snapshot(t.db);
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email' }, 'Enter a valid email address'],
      [{ nickname: 'n'.repeat(33) }, 'nickname: Too long'],
      [{ introduction: 'i'.repeat(201) }, 'introduction: Too long'],
      [{ nickname: 7 }, 'nickname: Invalid value'],
      [{ money: '99999.00' }, 'Unknown field: money'],
      [{ user_type: 0 }, 'Unknown field: user_type'],
      [{ mobile: '13900000000' }, 'Unknown field: mobile'],
      [{ username: 'boss' }, 'Unknown field: username'],
      [[], 'Invalid value'],
    ];
    for (const [body, msg] of cases) {
      const reply = await t.call('POST', '/api/v1/platform/edit_profile', {
        token,
        body,
        headers: EN,
      });
      expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg, data: null });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('dashboard_data totals what each role may see, counting only the others', async () => {
    const expected: Record<string, DashboardData> = {
      admin: {
        partners: 2,
        agents: 1,
        merchants: 2,
        users_today: 5,
        money: '150000.00',
        digital_man_seconds: 150 * 3600,
        voice_clone_count: 70,
        image_clone_count: 30,
      },
      partner: {
        partners: 0,
        agents: 1,
        merchants: 1,
        users_today: 2,
        money: '100000.00',
        digital_man_seconds: 100 * 3600,
        voice_clone_count: 50,
        image_clone_count: 20,
      },
      partner2: {
        partners: 0,
        agents: 0,
        merchants: 1,
        users_today: 1,
        money: '50000.00',
        digital_man_seconds: 50 * 3600,
        voice_clone_count: 20,
        image_clone_count: 10,
      },
      agent: {
        partners: 0,
        agents: 0,
        merchants: 1,
        users_today: 1,
        money: '1200.50',
        digital_man_seconds: 7200,
        voice_clone_count: 2,
        image_clone_count: 1,
      },
      merchant: {
        partners: 0,
        agents: 0,
        merchants: 0,
        users_today: 0,
        money: '1200.50',
        digital_man_seconds: 7200,
        voice_clone_count: 2,
        image_clone_count: 1,
      },
      merchant2: {
        partners: 0,
        agents: 0,
        merchants: 0,
        users_today: 0,
        money: '300.00',
        digital_man_seconds: 3600,
        voice_clone_count: 1,
        image_clone_count: 0,
      },
    };
    for (const [username, data] of Object.entries(expected)) {
      const reply = await t.get('/platform/dashboard_data', undefined, await t.login(username));
      expect(reply.body, username).toEqual({ code: 1, msg: '操作成功', data });
    }
    // An overstep session sees what the merchant sees.
    const admin = await t.login('admin');
    const stepped = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      admin,
    );
    const asMerchant = await t.get(
      '/platform/dashboard_data',
      undefined,
      stepped.body.data.userinfo.token,
    );
    expect(asMerchant.body.data).toEqual(expected.merchant);
  });

  it('dashboard_data counts "today" in Asia/Shanghai', async () => {
    // Seeded at 10:00 Shanghai time; 13 h 59 min later it is still the same day there.
    t.clock.advance(13 * HOUR + 59 * MINUTE);
    let reply = await t.get<DashboardData>(
      '/platform/dashboard_data',
      undefined,
      await t.login('admin'),
    );
    expect(reply.body.data.users_today).toBe(5);
    t.clock.advance(MINUTE);
    reply = await t.get<DashboardData>(
      '/platform/dashboard_data',
      undefined,
      await t.login('admin'),
    );
    expect(reply.body.data.users_today).toBe(0);
  });
});
