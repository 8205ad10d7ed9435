import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passwordRule, usernameRule } from '../../src/api/contract/auth';
import {
  addByServiceBody,
  addCustomerBody,
  customerRowSchema,
  platformUserPageSchema,
  type CustomerPage,
  type CustomerRow,
  type PlatformUserPage,
} from '../../src/api/contract/customers';
import type { NewUser } from '../../server/platform/db/schema';
import { ASSETS } from '../../server/platform/db/schema';
import { formatCents } from '../../server/platform/lib/money';
import { BALANCE_COLUMN } from '../../server/modules/ledger/repo';
import { setConfigValue } from '../../server/modules/system/repo';
import { DEMO_PASSWORD, T0, api, createTestApp, engines, snapshot, type TestApp } from './helpers';

const DAY = 24 * 3600 * 1000;
const exactRow = z.strictObject(customerRowSchema.shape);
const exactPage = z.strictObject({ list: z.array(exactRow), total: z.number() });

type Lang = 'en-US' | 'zh-CN';

describe.each(engines)('customers on %s', (engine) => {
  let t: TestApp;
  let ids: Record<'admin' | 'partner' | 'partner2' | 'agent' | 'merchant' | 'merchant2', number>;
  const tokens = new Map<string, string>();

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens.clear();
    ids = {
      admin: (await t.user('admin')).id,
      partner: (await t.user('partner')).id,
      partner2: (await t.user('partner2')).id,
      agent: (await t.user('agent')).id,
      merchant: (await t.user('merchant')).id,
      merchant2: (await t.user('merchant2')).id,
    };
    // Logged in up front, so that the snapshots around refused calls see no new sessions.
    for (const who of ['admin', 'partner', 'partner2']) await as(who);
  });
  afterEach(async () => {
    await t.close();
  });

  async function as(username: string): Promise<string> {
    let token = tokens.get(username);
    if (!token) {
      token = await t.login(username);
      tokens.set(username, token);
    }
    return token;
  }

  async function post<T = CustomerRow>(
    who: string,
    url: string,
    body: unknown,
    lang: Lang = 'en-US',
  ) {
    return t.call<T>('POST', api(url), { token: await as(who), body, headers: { lang } });
  }

  async function get<T = CustomerPage>(
    who: string,
    url: string,
    query: Record<string, string | number> = {},
  ) {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return t.call<T>('GET', api(url), {
      token: await as(who),
      query: q,
      headers: { lang: 'en-US' },
    });
  }

  async function list(who: string, query: Record<string, string | number>) {
    const reply = await get(who, '/provider_service', query);
    expect(reply.body.code, reply.raw).toBe(1);
    return exactPage.parse(reply.body.data);
  }

  const names = (page: CustomerPage) => page.list.map((r) => r.username);

  /** Fails with the reply's message, which reads better than "expected 0 to be 1". */
  function expectOk(reply: { body: { code: number; msg: string } }) {
    expect(reply.body.code, reply.body.msg).toBe(1);
  }

  function expectRefused(reply: { status: number; body: unknown }, msg: string) {
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, msg, data: null });
  }

  /** Users straight into the table (list tests need many rows with chosen times and balances). */
  async function insertUsers(rows: (Partial<NewUser> & { username: string; user_type: number })[]) {
    const hash = (await t.user('merchant')).password_hash;
    for (const row of rows) {
      await t.db
        .insertInto('users')
        .values({
          pid: ids.partner,
          service_id: ids.partner,
          agent_id: null,
          password_hash: hash,
          mobile: null,
          service_prefix_no: null,
          expire_at: null,
          last_login_at: null,
          last_login_ip: null,
          created_at: T0,
          updated_at: T0,
          deleted_at: null,
          ...row,
        })
        .execute();
    }
  }

  /** Every user's four balances equal the sums of its ledger rows. */
  async function expectBalancesEqualLedger() {
    const users = await t.db.selectFrom('users').selectAll().execute();
    const sums = await t.db
      .selectFrom('ledger')
      .select(['user_id', 'asset', sql<number>`sum(change)`.as('total')])
      .groupBy(['user_id', 'asset'])
      .execute();
    for (const user of users) {
      for (const asset of ASSETS) {
        const sum = sums.find((s) => s.user_id === user.id && s.asset === asset);
        expect(Number(user[BALANCE_COLUMN[asset]]), `${user.username} ${asset}`).toBe(
          Number(sum?.total ?? 0),
        );
      }
    }
  }

  const newMerchant = (extra: Record<string, unknown> = {}) => ({
    user_type: 2,
    username: 'newshop',
    password: 'Shop#2026',
    name: '新店',
    mobile: '13912340001',
    ...extra,
  });

  // -------------------------------------------------------------------------------------------
  describe('lists', () => {
    it('rows carry exactly the contract’s fields, with tree parents, counts and money strings', async () => {
      const merchants = await list('admin', { user_type: 2 });
      expect(names(merchants)).toEqual(['merchant2', 'merchant']);
      expect(merchants.total).toBe(2);
      const merchant = merchants.list.find((r) => r.username === 'merchant')!;
      expect(merchant).toMatchObject({
        id: ids.merchant,
        name: '晨光小店',
        mobile: '13800000003',
        user_type: 2,
        pid: ids.agent, // referred by the agent: the agent is its parent in the tree
        parent_name: '销售小王',
        service_id: ids.partner,
        service_name: '星云传媒',
        agent_id: ids.agent,
        agent_name: '销售小王',
        status: 1,
        money: '1200.50',
        digital_man_seconds: 7200,
        voice_clone_count: 2,
        image_clone_count: 1,
        merchant_count: 0,
        child_count: 0,
        service_prefix_no: '',
        created_at: T0,
        last_login_at: null,
        expire_at: null,
      });
      const merchant2 = merchants.list.find((r) => r.username === 'merchant2')!;
      expect(merchant2).toMatchObject({
        pid: ids.partner2,
        parent_name: '极光文化',
        agent_id: null,
      });

      const partners = await list('admin', { user_type: 1 });
      expect(names(partners)).toEqual(['partner2', 'partner']);
      expect(partners.list[1]).toMatchObject({
        service_prefix_no: 'PA',
        service_type: 1,
        open_oem: 1,
        merchant_count: 1,
        merchant_count_limit: -1,
        // the agent; its merchant hangs under the agent
        child_count: 1,
        money: '98799.50',
        pid: ids.admin,
        parent_name: '平台管理员',
      });
      const agents = await list('partner', { user_type: 3 });
      expect(agents.list).toHaveLength(1);
      expect(agents.list[0]).toMatchObject({
        username: 'agent',
        merchant_count: 1,
        child_count: 1,
        pid: ids.partner,
        money: '0.00',
      });
    });

    it('rows are written by the database as the contract’s JSON: escapes, unicode, money, nulls', async () => {
      const tricky = 'quote " back \\ slash\nline\ttab \u0001 ctl 😀 </script> 名';
      await t.db
        .updateTable('users')
        .set({ name: tricky, remark: tricky, mobile: null, email: 'a"b@c.d', expire_at: T0 })
        .where('id', '=', ids.merchant2)
        .execute();
      for (const cents of [0, 5, 10, 99, 100, 101, 1999, 123_456_789_012_345]) {
        await t.db
          .updateTable('users')
          .set({ money: cents })
          .where('id', '=', ids.merchant2)
          .execute();
        const page = await list('admin', { user_type: 2, pid: ids.partner2 });
        expect(page.list, String(cents)).toHaveLength(1);
        expect(page.list[0]).toMatchObject({
          name: tricky,
          remark: tricky,
          mobile: '',
          email: 'a"b@c.d',
          expire_at: T0,
          last_login_at: null,
          agent_id: null,
          agent_name: '',
          money: formatCents(cents),
        });
      }
    });

    it('a row reads the same in the list and in a mutation’s reply, for every type', async () => {
      for (const [type, id] of [
        [1, ids.partner],
        [2, ids.merchant],
        [3, ids.agent],
      ]) {
        const listed = (await list('admin', { user_type: type })).list.find((r) => r.id === id);
        const edited = await post('admin', '/provider_service/edit', { id, remark: 'same' });
        expectOk(edited);
        expect(exactRow.parse(edited.body.data)).toEqual({ ...listed, remark: 'same' });
      }
    });

    it('a partner sees only its subtree (never itself); partner2 only its own', async () => {
      expect(names(await list('partner', { user_type: 2 }))).toEqual(['merchant']);
      expect(names(await list('partner', { user_type: 3 }))).toEqual(['agent']);
      expect((await list('partner', { user_type: 1 })).total).toBe(0);
      expect(names(await list('partner2', { user_type: 2 }))).toEqual(['merchant2']);
      expect((await list('partner2', { user_type: 3 })).total).toBe(0);
      // Filters cannot widen the scope.
      const foreign = await list('partner2', { user_type: 2, service_id: ids.partner });
      expect(foreign).toEqual({ list: [], total: 0 });
      expect((await list('partner2', { user_type: 2, pid: ids.agent })).total).toBe(0);
      expect((await list('partner2', { user_type: 2, keyword: 'merchant' })).total).toBe(1);
    });

    describe('with many rows', () => {
      beforeEach(async () => {
        // shop01..shop25 under partner: every third referred by the agent, every fifth disabled,
        // one a day from T0 + 1 day, money i yuan; shop25's name has a literal % and _.
        await insertUsers(
          Array.from({ length: 25 }, (_, k) => {
            const i = k + 1;
            const n = String(i).padStart(2, '0');
            return {
              user_type: 2,
              username: `shop${n}`,
              name: i === 25 ? '满100%_减' : `店铺${n}`,
              mobile: `139000000${n}`,
              agent_id: i % 3 === 0 ? ids.agent : null,
              status: i % 5 === 0 ? 0 : 1,
              money: i * 100,
              created_at: T0 + i * DAY,
            };
          }),
        );
      });

      it('pages, totals and the default order (newest id first)', async () => {
        const first = await list('partner', { user_type: 2 });
        expect(first.total).toBe(26);
        expect(first.list).toHaveLength(20);
        expect(first.list[0].username).toBe('shop25');
        const second = await list('partner', { user_type: 2, page: 2 });
        expect(second.list).toHaveLength(6);
        expect(second.list.at(-1)!.username).toBe('merchant');
        const small = await list('partner', { user_type: 2, page: 3, limit: 5 });
        expect(names(small)).toEqual(['shop15', 'shop14', 'shop13', 'shop12', 'shop11']);
        expect(small.total).toBe(26);
        expect(await list('partner', { user_type: 2, page: 99 })).toEqual({ list: [], total: 26 });
      });

      it('filters by keyword (name, account, mobile; % and _ literal), status, agent, parent, dates', async () => {
        const count = async (query: Record<string, string | number>) =>
          (await list('partner', { user_type: 2, limit: 100, ...query })).total;
        expect(await count({ keyword: 'shop1' })).toBe(10);
        expect(await count({ keyword: 'SHOP1' })).toBe(10);
        expect(await count({ keyword: '店铺0' })).toBe(9);
        expect(await count({ keyword: '1390000002' })).toBe(6); // 20–25
        expect(await count({ keyword: '%' })).toBe(1);
        expect(await count({ keyword: '_' })).toBe(1);
        expect(await count({ keyword: '100%_' })).toBe(1);
        expect(await count({ keyword: 'nobody' })).toBe(0);
        expect(await count({ keyword: '' })).toBe(26);
        expect(await count({ status: 0 })).toBe(5);
        expect(await count({ status: 1 })).toBe(21);
        expect(await count({ agent_id: ids.agent })).toBe(9);
        expect(await count({ pid: ids.agent })).toBe(9);
        expect(await count({ pid: ids.partner })).toBe(17);
        expect(await count({ created_from: T0 + 5 * DAY, created_to: T0 + 10 * DAY })).toBe(5);
        expect(await count({ created_from: T0 + 20 * DAY })).toBe(6);
        expect(await count({ created_to: T0 + DAY })).toBe(1); // the seeded merchant
        expect(await count({ status: 0, agent_id: ids.agent })).toBe(1); // shop15

        const tree = await list('partner', { user_type: 3, pid: ids.partner });
        expect(tree.list[0]).toMatchObject({
          username: 'agent',
          child_count: 9,
          merchant_count: 9,
        });
        const partnerRow = (await list('admin', { user_type: 1 })).list.find(
          (r) => r.username === 'partner',
        );
        expect(partnerRow).toMatchObject({ merchant_count: 26, child_count: 18 });
        expect((await list('admin', { user_type: 2, service_id: ids.partner2 })).total).toBe(1);
      });

      it('sorts by whitelisted columns in either direction', async () => {
        const byMoney = await list('partner', { user_type: 2, sort: 'money', order: 'asc' });
        expect(byMoney.list.slice(0, 3).map((r) => r.money)).toEqual(['1.00', '2.00', '3.00']);
        const byMoneyDesc = await list('partner', { user_type: 2, sort: 'money', limit: 2 });
        expect(names(byMoneyDesc)).toEqual(['merchant', 'shop25']);
        const byName = await list('partner', {
          user_type: 2,
          sort: 'username',
          order: 'asc',
          limit: 3,
        });
        expect(names(byName)).toEqual(['merchant', 'shop01', 'shop02']);
        const byCreated = await list('partner', { user_type: 2, sort: 'created_at', limit: 2 });
        expect(names(byCreated)).toEqual(['shop25', 'shop24']);
        // Ties fall back to the id, in the same direction.
        const byCount = await list('partner', { user_type: 2, sort: 'merchant_count', limit: 2 });
        expect(names(byCount)).toEqual(['shop25', 'shop24']);
        // Empty values last, in both directions.
        await t.db
          .updateTable('users')
          .set({ last_login_at: T0 })
          .where('username', '=', 'shop03')
          .execute();
        for (const order of ['asc', 'desc']) {
          const page = await list('partner', { user_type: 2, sort: 'last_login_at', order });
          expect(page.list[0].username).toBe('shop03');
        }
        const partners = await list('admin', { user_type: 1, sort: 'merchant_count' });
        expect(names(partners)).toEqual(['partner', 'partner2']);
      });
    });

    it('refuses bad queries', async () => {
      const cases: [Record<string, string | number>, string][] = [
        [{}, 'Choose a user type'],
        [{ user_type: 0 }, 'Choose a user type'],
        [{ user_type: 'x' }, 'Choose a user type'],
        [{ user_type: 2, limit: 101 }, 'limit: Invalid value'],
        [{ user_type: 2, limit: 0 }, 'limit: Invalid value'],
        [{ user_type: 2, page: 0 }, 'page: Invalid value'],
        [{ user_type: 2, sort: 'password_hash' }, 'sort: Invalid value'],
        [{ user_type: 2, order: 'sideways' }, 'order: Invalid value'],
        [{ user_type: 2, status: 2 }, 'status: Invalid value'],
        [{ user_type: 2, created_from: '2026-01-01' }, 'created_from: Invalid value'],
        [
          { user_type: 2, created_from: 20, created_to: 10 },
          'The start date must not be after the end date',
        ],
        [{ user_type: 2, keyword: 'k'.repeat(65) }, 'keyword: Too long'],
        [{ user_type: 2, role: 'admin' }, 'Unknown field: role'],
      ];
      for (const [query, msg] of cases) {
        expectRefused(await get('admin', '/provider_service', query), msg);
      }
    });

    it('used_service_prefix_no_list and the user picker', async () => {
      const prefixes = await get<string[]>(
        'partner',
        '/provider_service/used_service_prefix_no_list',
      );
      expect(prefixes.body).toEqual({ code: 1, msg: 'Success', data: ['PA', 'PB'] });

      const pick = async (who: string, query: Record<string, string | number> = {}) => {
        const reply = await get<PlatformUserPage>(who, '/platform/platform_user_list', query);
        expect(reply.body.code, reply.body.msg).toBe(1);
        return z.strictObject(platformUserPageSchema.shape).parse(reply.body.data);
      };
      const admin = await pick('admin');
      expect(admin.list.map((r) => r.username).sort()).toEqual(
        ['agent', 'merchant', 'merchant2', 'partner', 'partner2'].sort(),
      );
      expect((await pick('partner')).list.map((r) => r.username).sort()).toEqual([
        'agent',
        'merchant',
      ]);
      expect((await pick('partner2')).list.map((r) => r.username)).toEqual(['merchant2']);
      expect((await pick('admin', { user_type: 1 })).total).toBe(2);
      expect((await pick('admin', { keyword: '晨光' })).list[0]).toEqual({
        id: ids.merchant,
        username: 'merchant',
        name: '晨光小店',
        nickname: '',
        mobile: '13800000003',
        user_type: 2,
        service_id: ids.partner,
        status: 1,
      });
      expect((await pick('partner2', { keyword: '晨光' })).total).toBe(0);
      expectRefused(
        await get('admin', '/platform/platform_user_list', { limit: 51 }),
        'limit: Invalid value',
      );
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('scope of mutations', () => {
    it('partner2 gets “not found” for partner’s users on every call, and nothing changes', async () => {
      const before = await snapshot(t.db);
      for (const id of [ids.merchant, ids.agent, ids.partner, ids.admin, 999_999]) {
        const calls: [string, Record<string, unknown>][] = [
          ['/provider_service/edit_by_service', { id, name: 'taken over' }],
          ['/provider_service/edit_account', { id, password: 'Evil#2026' }],
          ['/provider_service/edit_account', { id, status: 0 }],
          ['/provider_service/edit_account', { id, username: 'stolen' }],
          ['/provider_service/delete', { id }],
        ];
        for (const [url, body] of calls) {
          expectRefused(await post('partner2', url, body), 'User not found');
          expectRefused(await post('partner2', url, body, 'zh-CN'), '用户不存在');
        }
      }
      // A partner cannot manage itself either.
      expectRefused(
        await post('partner2', '/provider_service/edit_account', { id: ids.partner2, status: 0 }),
        'User not found',
      );
      // Nor pick another partner's agent.
      expectRefused(
        await post(
          'partner2',
          '/provider_service/add_by_service',
          newMerchant({ agent_id: ids.agent }),
        ),
        'Agent not found',
      );
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('admin-only calls are closed to partners', async () => {
      for (const url of [
        '/provider_service/add',
        '/provider_service/edit',
        '/provider_service/edit_type',
      ]) {
        const reply = await post('partner', url, {});
        expect(reply.status).toBe(403);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('create', () => {
    it('admin creates a partner (prefix in upper case, platform merchant limit) and it can log in', async () => {
      await setConfigValue(t.db, 'VITE_MERCHANT_COUNT_LIMITATION', '50', T0);
      const reply = await post('admin', '/provider_service/add', {
        user_type: 1,
        username: 'partner3',
        password: 'Part#2026',
        name: '新服务商',
        mobile: '13912340003',
        service_prefix_no: 'pc',
        service_type: 1,
        open_oem: 1,
        can_transfer_money: 1,
      });
      expectOk(reply);
      expect(reply.body.msg).toBe('User created');
      const row = exactRow.parse(reply.body.data);
      expect(row).toMatchObject({
        username: 'partner3',
        user_type: 1,
        service_prefix_no: 'PC',
        service_type: 1,
        open_oem: 1,
        can_transfer_money: 1,
        merchant_count_limit: 50,
        pid: ids.admin,
        money: '0.00',
        status: 1,
      });
      expect(row.service_id).toBe(row.id);
      await t.login('partner3', 'Part#2026');
      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'customer.add')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_id: ids.admin, target_id: row.id, result: 'ok' });
      expect(JSON.parse(audit[0].diff)).toMatchObject({
        username: { after: 'partner3' },
        password_hash: 'changed',
      });
      expect(audit[0].diff).not.toContain('Part#2026');
      const prefixes = await get<string[]>(
        'admin',
        '/provider_service/used_service_prefix_no_list',
      );
      expect(prefixes.body.data).toEqual(['PA', 'PB', 'PC']);
    });

    it('admin creates merchants and agents under a partner', async () => {
      const merchant = await post('admin', '/provider_service/add', {
        ...newMerchant(),
        service_id: ids.partner2,
      });
      expectOk(merchant);
      expect(merchant.body.data).toMatchObject({
        user_type: 2,
        service_id: ids.partner2,
        pid: ids.partner2,
        agent_id: null,
        name: '新店',
      });
      const agent = await post('admin', '/provider_service/add', {
        user_type: 3,
        username: 'agent2',
        password: 'Agent#2026',
        service_id: ids.partner2,
      });
      expectOk(agent);
      expect(agent.body.data).toMatchObject({ user_type: 3, name: 'agent2', pid: ids.partner2 });
      const referred = await post('admin', '/provider_service/add', {
        ...newMerchant({ username: 'shop3', mobile: '13912340009' }),
        service_id: ids.partner2,
        agent_id: agent.body.data.id,
      });
      expectOk(referred);
      expect(referred.body.data).toMatchObject({
        agent_id: agent.body.data.id,
        pid: agent.body.data.id,
        agent_name: 'agent2',
      });
      // Another partner's agent, a merchant as partner, a missing partner.
      const before = await snapshot(t.db);
      expectRefused(
        await post('admin', '/provider_service/add', {
          ...newMerchant({ username: 'shop4', mobile: '' }),
          service_id: ids.partner2,
          agent_id: ids.agent,
        }),
        'Agent not found',
      );
      for (const serviceId of [ids.merchant, ids.admin, 999_999]) {
        expectRefused(
          await post('admin', '/provider_service/add', {
            ...newMerchant({ username: 'shop4', mobile: '' }),
            service_id: serviceId,
          }),
          'Partner not found',
        );
      }
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses bad and duplicate input, changing nothing', async () => {
      const partner = (extra: Record<string, unknown>) => ({
        user_type: 1,
        username: 'partner3',
        password: 'Part#2026',
        service_prefix_no: 'PC',
        ...extra,
      });
      const before = await snapshot(t.db);
      const cases: [string, Record<string, unknown>, string][] = [
        ['add', partner({ username: 'ab' }), 'Account: 3 to 32 letters, digits, _ . @ or -'],
        ['add', partner({ username: 'has space' }), 'Account: 3 to 32 letters, digits, _ . @ or -'],
        ['add', partner({ username: '账号名' }), 'Account: 3 to 32 letters, digits, _ . @ or -'],
        ['add', partner({ username: '' }), 'Username cannot be empty'],
        ['add', partner({ username: 'partner' }), 'This account name is already taken'],
        [
          'add',
          partner({ password: 'short' }),
          'Password: at least six characters, with letters, digits and special characters, no spaces',
        ],
        [
          'add',
          partner({ password: 'NoSpecial1' }),
          'Password: at least six characters, with letters, digits and special characters, no spaces',
        ],
        [
          'add',
          partner({ mobile: '23800000000' }),
          'Enter an 11-digit mobile number starting with 1',
        ],
        [
          'add',
          partner({ mobile: '1380000000' }),
          'Enter an 11-digit mobile number starting with 1',
        ],
        ['add', partner({ mobile: '13800000003' }), 'This mobile number is already registered'],
        ['add', partner({ service_prefix_no: 'P' }), 'Prefix: 2 to 6 letters or digits'],
        ['add', partner({ service_prefix_no: 'PABCDEF' }), 'Prefix: 2 to 6 letters or digits'],
        ['add', partner({ service_prefix_no: 'P-1' }), 'Prefix: 2 to 6 letters or digits'],
        ['add', partner({ service_prefix_no: '前缀' }), 'Prefix: 2 to 6 letters or digits'],
        ['add', partner({ service_prefix_no: undefined }), 'Prefix: 2 to 6 letters or digits'],
        ['add', partner({ service_prefix_no: 'pa' }), 'This prefix is already in use'],
        ['add', partner({ service_type: 3 }), 'service_type: Invalid value'],
        [
          'add',
          partner({ merchant_count_limit: -2 }),
          'Merchant limit: -1 (unlimited) or a whole number from 0',
        ],
        [
          'add',
          partner({ merchant_count_limit: 1.5 }),
          'Merchant limit: -1 (unlimited) or a whole number from 0',
        ],
        ['add', partner({ open_oem: 2 }), 'open_oem: Invalid value'],
        ['add', partner({ service_id: ids.partner }), 'service_id: Unknown field'],
        ['add', partner({ money: '100.00' }), 'Unknown field: money'],
        ['add', partner({ user_type: 0 }), 'Choose a user type'],
        ['add', partner({ email: 'nope' }), 'Enter a valid email address'],
        ['add', partner({ name: 'n'.repeat(65) }), 'name: Too long'],
        [
          'add',
          partner({ digital_man_money_exchange_num: '1.23456' }),
          'digital_man_money_exchange_num: Invalid value',
        ],
        [
          'add',
          { ...newMerchant(), service_prefix_no: 'PZ', service_id: ids.partner },
          'service_prefix_no: Unknown field',
        ],
        ['add', newMerchant(), 'Choose a partner'],
        [
          'add',
          { ...newMerchant({ user_type: 3 }), service_id: ids.partner, agent_id: ids.agent },
          'agent_id: Unknown field',
        ],
        [
          'add_by_service',
          newMerchant({ username: 'x' }),
          'Account: 3 to 32 letters, digits, _ . @ or -',
        ],
        [
          'add_by_service',
          newMerchant({ username: 'merchant' }),
          'This account name is already taken',
        ],
        [
          'add_by_service',
          newMerchant({ mobile: '13800000005' }),
          'This mobile number is already registered',
        ],
        [
          'add_by_service',
          newMerchant({ mobile: 13912340001 }),
          'Enter an 11-digit mobile number starting with 1',
        ],
        ['add_by_service', newMerchant({ user_type: 1 }), 'Choose a user type'],
        [
          'add_by_service',
          newMerchant({ service_prefix_no: 'PZ' }),
          'Unknown field: service_prefix_no',
        ],
        [
          'add_by_service',
          newMerchant({ can_transfer_money: 1 }),
          'Unknown field: can_transfer_money',
        ],
        ['add_by_service', newMerchant({ service_id: ids.partner2 }), 'Unknown field: service_id'],
        ['add_by_service', newMerchant({ agent_id: ids.merchant }), 'Agent not found'],
        [
          'add_by_service',
          newMerchant({ trial_money: '0' }),
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        [
          'add_by_service',
          newMerchant({ trial_money: '1.234' }),
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        [
          'add_by_service',
          newMerchant({ trial_money: '-5' }),
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        [
          'add_by_service',
          newMerchant({ trial_money: 5 }),
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        ['add_by_service', newMerchant({ trial_money: '100000001' }), 'The amount is too large'],
        [
          'add_by_service',
          newMerchant({ user_type: 3, trial_money: '5' }),
          'trial_money: Unknown field',
        ],
      ];
      for (const [call, body, msg] of cases) {
        const who = call === 'add' ? 'admin' : 'partner';
        expectRefused(await post(who, `/provider_service/${call}`, body), msg);
      }
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('a partner adds merchants (with its agent) and agents under itself', async () => {
      const reply = await post('partner', '/provider_service/add_by_service', {
        ...newMerchant(),
        agent_id: ids.agent,
        nickname: '小新',
        expire_at: T0 + 365 * DAY,
        remark: 'VIP',
      });
      expectOk(reply);
      expect(exactRow.parse(reply.body.data)).toMatchObject({
        user_type: 2,
        service_id: ids.partner,
        agent_id: ids.agent,
        pid: ids.agent,
        nickname: '小新',
        expire_at: T0 + 365 * DAY,
        remark: 'VIP',
        money: '0.00',
      });
      expect(await t.user('newshop')).toMatchObject({ pid: ids.partner, service_id: ids.partner });
      const agent = await post('partner', '/provider_service/add_by_service', {
        user_type: 3,
        username: 'agent2',
        password: 'Agent#2026',
      });
      expectOk(agent);
      expect(agent.body.data).toMatchObject({ user_type: 3, pid: ids.partner, agent_id: null });
      expect((await list('partner', { user_type: 3 })).total).toBe(2);
      expect((await list('partner2', { user_type: 3 })).total).toBe(0);
    });

    it('the agent picker follows saler_show', async () => {
      await setConfigValue(t.db, 'saler_show', '0', T0);
      const before = await snapshot(t.db);
      expectRefused(
        await post(
          'partner',
          '/provider_service/add_by_service',
          newMerchant({ agent_id: ids.agent }),
        ),
        'Choosing an agent is turned off',
      );
      expectRefused(
        await post('partner', '/provider_service/edit_by_service', {
          id: ids.merchant,
          agent_id: null,
        }),
        'Choosing an agent is turned off',
      );
      expect(await snapshot(t.db)).toEqual(before);
      expectOk(await post('partner', '/provider_service/add_by_service', newMerchant()));
    });

    it('the merchant limit stops a partner at N (agents are not counted)', async () => {
      await t.db
        .updateTable('users')
        .set({ merchant_count_limit: 2 })
        .where('id', '=', ids.partner)
        .execute();
      expectOk(await post('partner', '/provider_service/add_by_service', newMerchant()));
      const before = await snapshot(t.db);
      const third = newMerchant({ username: 'shop3', mobile: '13912340003' });
      expectRefused(
        await post('partner', '/provider_service/add_by_service', third),
        'The merchant limit has been reached (2)',
      );
      expectRefused(
        await post('partner', '/provider_service/add_by_service', third, 'zh-CN'),
        '商户数量已达上限（2）',
      );
      // The admin adding under that partner meets the same limit.
      expectRefused(
        await post('admin', '/provider_service/add', { ...third, service_id: ids.partner }),
        'The merchant limit has been reached (2)',
      );
      expect(await snapshot(t.db)).toEqual(before);
      expectOk(
        await post('partner', '/provider_service/add_by_service', {
          user_type: 3,
          username: 'agent2',
          password: 'Agent#2026',
        }),
      );
      // A deleted merchant frees its place.
      expectOk(
        await post('partner', '/provider_service/delete', { id: (await t.user('newshop')).id }),
      );
      expectOk(await post('partner', '/provider_service/add_by_service', third));
      // Parallel creations cannot pass the limit together.
      const racers = await Promise.all(
        [4, 5, 6, 7].map((i) =>
          post(
            'partner',
            '/provider_service/add_by_service',
            newMerchant({ username: `race${i}`, mobile: `1391234000${i}` }),
          ),
        ),
      );
      expect(racers.every((r) => r.body.code === 0)).toBe(true);
      await t.db
        .updateTable('users')
        .set({ merchant_count_limit: 4 })
        .where('id', '=', ids.partner)
        .execute();
      const more = await Promise.all(
        [4, 5, 6, 7].map((i) =>
          post(
            'partner',
            '/provider_service/add_by_service',
            newMerchant({ username: `race${i}`, mobile: `1391234000${i}` }),
          ),
        ),
      );
      expect(more.filter((r) => r.body.code === 1)).toHaveLength(2);
      expect((await list('partner', { user_type: 2 })).total).toBe(4);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('trial credit', () => {
    it('moves money from the partner to the new merchant through the ledger', async () => {
      const partnerBefore = await t.user('partner');
      const reply = await post(
        'partner',
        '/provider_service/add_by_service',
        newMerchant({ trial_money: '88.8' }),
      );
      expectOk(reply);
      expect(reply.body.data.money).toBe('88.80');
      const partnerAfter = await t.user('partner');
      expect(partnerAfter.money).toBe(partnerBefore.money - 8880);
      const created = await t.user('newshop');
      const rows = await t.db
        .selectFrom('ledger')
        .selectAll()
        .where('type', '=', 'trial_credit')
        .orderBy('id')
        .execute();
      expect(rows).toMatchObject([
        {
          user_id: ids.partner,
          asset: 'money',
          change: -8880,
          before: partnerBefore.money,
          after: partnerBefore.money - 8880,
          related_type: 'user',
          related_id: created.id,
          operator_id: ids.partner,
        },
        {
          user_id: created.id,
          asset: 'money',
          change: 8880,
          before: 0,
          after: 8880,
          related_type: 'user',
          related_id: created.id,
        },
      ]);
      await expectBalancesEqualLedger();
    });

    it('refuses a credit larger than the partner’s balance, or when switched off', async () => {
      const partner2 = await t.user('partner2');
      const before = await snapshot(t.db, ['platform_config']);
      const tooMuch = ((partner2.money + 1) / 100).toFixed(2);
      expectRefused(
        await post(
          'partner2',
          '/provider_service/add_by_service',
          newMerchant({ trial_money: tooMuch }),
        ),
        `Your balance is too low for a trial credit of ${tooMuch}`,
      );
      await setConfigValue(t.db, 'expirence_money_show', '0', T0);
      const afterSwitch = await snapshot(t.db);
      expectRefused(
        await post(
          'partner2',
          '/provider_service/add_by_service',
          newMerchant({ trial_money: '1' }),
        ),
        'Trial credit is turned off',
      );
      expect(await snapshot(t.db)).toEqual(afterSwitch);
      expect(await snapshot(t.db, ['platform_config'])).toEqual(before);
      // Exactly the whole balance is fine.
      await setConfigValue(t.db, 'expirence_money_show', '1', T0);
      const all = (partner2.money / 100).toFixed(2);
      expectOk(
        await post(
          'partner2',
          '/provider_service/add_by_service',
          newMerchant({ trial_money: all }),
        ),
      );
      expect((await t.user('partner2')).money).toBe(0);
      await expectBalancesEqualLedger();
    });

    it('two parallel credits never overdraw the partner', async () => {
      const partner2 = await t.user('partner2');
      const most = ((Math.floor(partner2.money / 100) * 60) / 100).toFixed(2); // 60 % each
      const replies = await Promise.all(
        [1, 2].map((i) =>
          post(
            'partner2',
            '/provider_service/add_by_service',
            newMerchant({ username: `trial${i}`, mobile: `1391234100${i}`, trial_money: most }),
          ),
        ),
      );
      expect(replies.filter((r) => r.body.code === 1)).toHaveLength(1);
      expect((await t.user('partner2')).money).toBeGreaterThanOrEqual(0);
      await expectBalancesEqualLedger();
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('edit', () => {
    it('admin edits profile fields and flags; only what is sent changes; audited', async () => {
      const reply = await post('admin', '/provider_service/edit', {
        id: ids.merchant,
        name: '晨光旗舰店',
        mobile: '13912349999',
        show_clip_menu: 0,
        can_transfer_money: 1,
        digital_man_money_exchange_num: '0.8',
        expire_at: T0 + DAY,
      });
      expectOk(reply);
      expect(reply.body.msg).toBe('Saved');
      expect(reply.body.data).toMatchObject({
        name: '晨光旗舰店',
        mobile: '13912349999',
        show_clip_menu: 0,
        can_transfer_money: 1,
        digital_man_money_exchange_num: '0.8',
        expire_at: T0 + DAY,
        nickname: '',
        email: '',
        agent_id: ids.agent,
      });
      // Clearing the mobile and the expiry.
      const cleared = await post('admin', '/provider_service/edit', {
        id: ids.merchant,
        mobile: '',
        expire_at: null,
        agent_id: null,
      });
      expect(cleared.body.data).toMatchObject({
        mobile: '',
        expire_at: null,
        agent_id: null,
        pid: ids.partner,
      });
      expect((await t.user('merchant')).mobile).toBeNull();
      const audits = await t.db
        .selectFrom('audit_log')
        .select(['action', 'target_id'])
        .where('action', '=', 'customer.edit')
        .execute();
      expect(audits).toEqual([
        { action: 'customer.edit', target_id: ids.merchant },
        { action: 'customer.edit', target_id: ids.merchant },
      ]);
    });

    it('partner fields only on partners; the prefix is fixed once a partner has merchants', async () => {
      const before = await snapshot(t.db);
      expectRefused(
        await post('admin', '/provider_service/edit', {
          id: ids.merchant,
          service_prefix_no: 'ZZ',
        }),
        'Prefix, tier, merchant limit and OEM apply to partners only',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', { id: ids.agent, agent_id: ids.agent }),
        'Only merchants have an agent',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', { id: ids.partner, service_prefix_no: 'ZZ' }),
        'The prefix cannot change once the partner has merchants',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', {
          id: ids.partner2,
          service_prefix_no: 'pa',
        }),
        'The prefix cannot change once the partner has merchants',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', { id: ids.merchant, mobile: '13800000005' }),
        'This mobile number is already registered',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', {
          id: ids.merchant,
          agent_id: ids.merchant2,
        }),
        'Agent not found',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', { id: ids.admin, name: 'x' }),
        'User not found',
      );
      expectRefused(
        await post('admin', '/provider_service/edit', { id: ids.merchant, password: 'New#2026' }),
        'Unknown field: password',
      );
      expect(await snapshot(t.db)).toEqual(before);
      // Same prefix (any case) is not a change; a partner without merchants may change it.
      expectOk(
        await post('admin', '/provider_service/edit', { id: ids.partner, service_prefix_no: 'pa' }),
      );
      const fresh = await post('admin', '/provider_service/add', {
        user_type: 1,
        username: 'partner3',
        password: 'Part#2026',
        service_prefix_no: 'PC',
      });
      expectOk(fresh);
      expectRefused(
        await post('admin', '/provider_service/edit', {
          id: fresh.body.data.id,
          service_prefix_no: 'PB',
        }),
        'This prefix is already in use',
      );
      const changed = await post('admin', '/provider_service/edit', {
        id: fresh.body.data.id,
        service_prefix_no: 'pd9',
        merchant_count_limit: 10,
        service_type: 1,
        open_oem: 1,
      });
      expect(changed.body.data).toMatchObject({
        service_prefix_no: 'PD9',
        merchant_count_limit: 10,
        service_type: 1,
        open_oem: 1,
      });
    });

    it('a partner edits its own merchants and agents', async () => {
      const reply = await post('partner', '/provider_service/edit_by_service', {
        id: ids.merchant,
        nickname: '晨光',
        agent_id: null,
        show_clip_menu: 0,
      });
      expectOk(reply);
      expect(reply.body.data).toMatchObject({
        nickname: '晨光',
        agent_id: null,
        pid: ids.partner,
        show_clip_menu: 0,
      });
      expectOk(
        await post('partner', '/provider_service/edit_by_service', {
          id: ids.agent,
          remark: '华东',
        }),
      );
      expect((await t.user('agent')).remark).toBe('华东');
      const before = await snapshot(t.db);
      expectRefused(
        await post('partner', '/provider_service/edit_by_service', {
          id: ids.merchant,
          open_oem: 1,
        }),
        'Unknown field: open_oem',
      );
      expectRefused(
        await post('partner', '/provider_service/edit_by_service', {
          id: ids.agent,
          agent_id: ids.agent,
        }),
        'Only merchants have an agent',
      );
      expectRefused(
        await post('partner', '/provider_service/edit_by_service', {
          id: ids.merchant,
          mobile: '13800000001',
        }),
        'This mobile number is already registered',
      );
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('edit_account', () => {
    it('a password reset ends the user’s sessions; the new password works, the old does not', async () => {
      const merchantToken = await t.login('merchant');
      const reply = await post('partner', '/provider_service/edit_account', {
        id: ids.merchant,
        password: 'Fresh#2026',
      });
      expectOk(reply);
      const me = await t.call('POST', api('/platform/get_user_info'), {
        token: merchantToken,
        headers: { lang: 'en-US' },
      });
      expect(me.body).toEqual({
        code: 50008,
        msg: 'Your password was reset, please log in again',
        data: null,
      });
      const old = await t.call('POST', api('/platform/login'), {
        body: { account: 'merchant', password: DEMO_PASSWORD },
        headers: { lang: 'en-US' },
      });
      expectRefused(old, 'Wrong account or password');
      await t.login('merchant', 'Fresh#2026');
      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'customer.edit_account')
        .where('result', '=', 'ok')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ actor_id: ids.partner, target_id: ids.merchant });
      expect(JSON.parse(audit.diff)).toEqual({ password_hash: 'changed' });
      expect(audit.diff).not.toContain('Fresh#2026');
    });

    it('disabling ends the sessions and refuses login; enabling lets the user back in', async () => {
      const agentToken = await t.login('agent');
      expectOk(await post('admin', '/provider_service/edit_account', { id: ids.agent, status: 0 }));
      const me = await t.call('POST', api('/platform/get_user_info'), {
        token: agentToken,
        headers: { lang: 'en-US' },
      });
      expect(me.body).toEqual({ code: 50008, msg: 'This account has been disabled', data: null });
      const login = await t.call('POST', api('/platform/login'), {
        body: { account: 'agent', password: DEMO_PASSWORD },
        headers: { lang: 'en-US' },
      });
      expectRefused(login, 'This account is disabled');
      expect((await list('partner', { user_type: 3, status: 0 })).total).toBe(1);
      expectOk(
        await post('partner', '/provider_service/edit_account', { id: ids.agent, status: 1 }),
      );
      await t.login('agent');
      const actions = await t.db
        .selectFrom('audit_log')
        .select(['actor_id', 'diff'])
        .where('action', '=', 'customer.edit_account')
        .where('result', '=', 'ok')
        .orderBy('id')
        .execute();
      expect(actions.map((a) => [a.actor_id, JSON.parse(a.diff)])).toEqual([
        [ids.admin, { status: { before: 1, after: 0 } }],
        [ids.partner, { status: { before: 0, after: 1 } }],
      ]);
    });

    it('renames the account; refuses taken names and empty calls', async () => {
      const renamed = await post('admin', '/provider_service/edit_account', {
        id: ids.merchant2,
        username: 'mountain',
      });
      expectOk(renamed);
      expect(renamed.body.data.username).toBe('mountain');
      await t.login('mountain');
      const before = await snapshot(t.db);
      expectRefused(
        await post('admin', '/provider_service/edit_account', {
          id: ids.merchant,
          username: 'partner2',
        }),
        'This account name is already taken',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_account', { id: ids.merchant }),
        'Nothing to change',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_account', {
          id: ids.merchant,
          password: 'abc',
        }),
        'Password: at least six characters, with letters, digits and special characters, no spaces',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_account', { id: ids.merchant, status: 3 }),
        'status: Invalid value',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_account', { id: 'abc', status: 1 }),
        'Choose a user',
      );
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('edit_type', () => {
    it('is refused while the user has users under it', async () => {
      const before = await snapshot(t.db);
      expectRefused(
        await post('admin', '/provider_service/edit_type', { id: ids.agent, user_type: 2 }),
        'This user still has users under it',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_type', {
          id: ids.partner2,
          user_type: 2,
          service_id: ids.partner,
        }),
        'This user still has users under it',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_type', { id: ids.admin, user_type: 1 }),
        'User not found',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_type', { id: ids.merchant, user_type: 4 }),
        'Choose a user type',
      );
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('turns merchants, agents and partners into one another', async () => {
      // merchant2 → agent of partner2.
      const agent = await post('admin', '/provider_service/edit_type', {
        id: ids.merchant2,
        user_type: 3,
      });
      expectOk(agent);
      expect(agent.body.data).toMatchObject({
        user_type: 3,
        service_id: ids.partner2,
        pid: ids.partner2,
      });
      // → partner: its own service_id.
      const partner = await post('admin', '/provider_service/edit_type', {
        id: ids.merchant2,
        user_type: 1,
      });
      expect(partner.body.data).toMatchObject({
        user_type: 1,
        service_id: ids.merchant2,
        pid: ids.admin,
        service_prefix_no: '',
        service_type: 2,
      });
      // A partner becoming a merchant needs the partner it moves under.
      expectRefused(
        await post('admin', '/provider_service/edit_type', { id: ids.merchant2, user_type: 2 }),
        'Choose a partner',
      );
      expectRefused(
        await post('admin', '/provider_service/edit_type', {
          id: ids.merchant2,
          user_type: 2,
          service_id: ids.merchant2,
        }),
        'Partner not found',
      );
      const back = await post('admin', '/provider_service/edit_type', {
        id: ids.merchant2,
        user_type: 2,
        service_id: ids.partner,
      });
      expect(back.body.data).toMatchObject({
        user_type: 2,
        service_id: ids.partner,
        pid: ids.partner,
        agent_id: null,
      });
      expect(names(await list('partner', { user_type: 2 })).sort()).toEqual([
        'merchant',
        'merchant2',
      ]);
      // A partner at its limit takes no merchant by a type change either.
      await t.db
        .updateTable('users')
        .set({ merchant_count_limit: 2 })
        .where('id', '=', ids.partner)
        .execute();
      const newAgent = await post('partner', '/provider_service/add_by_service', {
        user_type: 3,
        username: 'agent2',
        password: 'Agent#2026',
      });
      expectRefused(
        await post('admin', '/provider_service/edit_type', {
          id: newAgent.body.data.id,
          user_type: 2,
        }),
        'The merchant limit has been reached (2)',
      );
      const audits = await t.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'customer.edit_type')
        .where('result', '=', 'ok')
        .execute();
      expect(audits).toHaveLength(3);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('delete', () => {
    it('only with zero balances and nobody under it; sessions end; the name stays taken', async () => {
      const before = await snapshot(t.db);
      expectRefused(
        await post('partner', '/provider_service/delete', { id: ids.merchant }),
        'Only a user whose balances are all zero can be deleted',
      );
      expectRefused(
        await post('partner', '/provider_service/delete', { id: ids.agent }),
        'This user still has users under it',
      );
      expectRefused(
        await post('admin', '/provider_service/delete', { id: ids.partner }),
        'Only a user whose balances are all zero can be deleted',
      );
      expect(await snapshot(t.db)).toEqual(before);

      const created = await post('partner', '/provider_service/add_by_service', newMerchant());
      const id = created.body.data.id;
      const token = await t.login('newshop', 'Shop#2026');
      // One image clone is enough to keep it.
      await t.db.updateTable('users').set({ image_clone_count: 1 }).where('id', '=', id).execute();
      expectRefused(
        await post('partner', '/provider_service/delete', { id }),
        'Only a user whose balances are all zero can be deleted',
      );
      await t.db.updateTable('users').set({ image_clone_count: 0 }).where('id', '=', id).execute();
      const reply = await post('partner', '/provider_service/delete', { id });
      expect(reply.body).toEqual({ code: 1, msg: 'User deleted', data: null });
      expect((await t.user('newshop')).deleted_at).toBe(T0);
      const me = await t.call('POST', api('/platform/get_user_info'), { token });
      expect(me.body.code).not.toBe(1);
      expect(names(await list('partner', { user_type: 2 }))).toEqual(['merchant']);
      expectRefused(await post('partner', '/provider_service/delete', { id }), 'User not found');
      expectRefused(
        await post('partner', '/provider_service/add_by_service', newMerchant({ mobile: '' })),
        'This account name is already taken',
      );
      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'customer.delete')
        .where('result', '=', 'ok')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ actor_id: ids.partner, target_id: id });
    });

    it('a partner without merchants, balances or domains can be deleted by the admin', async () => {
      const created = await post('admin', '/provider_service/add', {
        user_type: 1,
        username: 'partner3',
        password: 'Part#2026',
        service_prefix_no: 'PC',
      });
      expectOk(await post('admin', '/provider_service/delete', { id: created.body.data.id }));
      expect((await list('admin', { user_type: 1 })).total).toBe(2);
      // Its prefix stays taken.
      const prefixes = await get<string[]>(
        'admin',
        '/provider_service/used_service_prefix_no_list',
      );
      expect(prefixes.body.data).toContain('PC');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('properties', () => {
    const validBase = {
      user_type: 2,
      username: 'propshop',
      password: 'Prop#2026',
      mobile: '13912345678',
    };
    const REQUIRED = ['user_type', 'username', 'password'];
    const known = new Set([
      ...Object.keys(addByServiceBody.shape),
      ...Object.keys(addCustomerBody.shape),
      '__proto__',
      'constructor',
      'prototype',
    ]);
    type Bad = { field: string; value?: unknown; missing?: true };
    const bad = (field: string, values: fc.Arbitrary<unknown>): fc.Arbitrary<Bad> =>
      values.map((value) => ({ field, value }));
    const badInput: fc.Arbitrary<Bad> = fc.oneof(
      bad(
        'username',
        fc.oneof(
          fc.string({ maxLength: 40 }).filter((s) => !usernameRule.safeParse(s).success),
          fc.integer(),
          fc.constant(null),
        ),
      ),
      bad(
        'password',
        fc.oneof(
          fc.string({ maxLength: 70 }).filter((s) => !passwordRule.safeParse(s).success),
          fc.boolean(),
        ),
      ),
      bad(
        'mobile',
        fc.oneof(
          fc.string({ maxLength: 14 }).filter((s) => s !== '' && !/^1\d{10}$/.test(s)),
          fc.integer(),
        ),
      ),
      bad(
        'user_type',
        fc.oneof(
          fc.integer().filter((n) => n !== 2 && n !== 3),
          fc
            .string({ maxLength: 4 })
            .filter((s) => !(/^-?\d{1,3}$/.test(s) && [2, 3].includes(Number(s)))),
        ),
      ),
      bad(
        'trial_money',
        fc.oneof(
          fc.string({ maxLength: 14 }).filter((s) => {
            const v = s.trim();
            return s !== '' && (!/^\d{1,11}(\.\d{1,2})?$/.test(v) || /^[0.]+$/.test(v));
          }),
          // Negative or huge (NaN and ±Infinity would reach the server as null: no value at all).
          fc.double({ max: -0.01, noNaN: true, noDefaultInfinity: true }),
          fc.double({ min: 1e12, max: 1e300, noNaN: true }),
        ),
      ),
      bad(
        'expire_at',
        fc.oneof(
          fc.string().filter((s) => !/^\d{1,16}$/.test(s)),
          fc.double({ min: -1e9, max: -1, noNaN: true }),
        ),
      ),
      fc
        .tuple(
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k)),
          fc.jsonValue(),
        )
        .map(([field, value]) => ({ field, value })),
      fc.constantFrom(...REQUIRED).map((field): Bad => ({ field, missing: true })),
    );
    const withBad = (base: Record<string, unknown>, input: Bad) => {
      const body: Record<string, unknown> = { ...base };
      if (input.missing) delete body[input.field];
      else body[input.field] = input.value;
      return body;
    };

    it('random bad input is refused and changes nothing', async () => {
      const partner = await as('partner');
      const admin = await as('admin');
      const before = await snapshot(t.db);
      await fc.assert(
        fc.asyncProperty(badInput, async (input) => {
          const calls: [string, string, Record<string, unknown>][] = [
            ['/provider_service/add_by_service', partner, withBad(validBase, input)],
            [
              '/provider_service/add',
              admin,
              withBad({ ...validBase, service_id: ids.partner }, input),
            ],
          ];
          if (!input.missing) {
            // The same bad field on an edit (fields an edit does not take are unknown there).
            calls.push(
              ['/provider_service/edit_by_service', partner, withBad({ id: ids.merchant }, input)],
              ['/provider_service/edit', admin, withBad({ id: ids.merchant }, input)],
            );
          }
          for (const [url, token, body] of calls) {
            const reply = await t.call('POST', api(url), { token, body });
            expect(reply.status, `${url} ${JSON.stringify(body)}`).toBe(200);
            expect(reply.body.code, `${url} ${JSON.stringify(body)}`).toBe(0);
          }
        }),
        { numRuns: engine === 'postgres' ? 40 : 80 },
      );
      expect(await snapshot(t.db)).toEqual(before);
    });
  });
});
