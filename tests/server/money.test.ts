import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  ExchangeReply,
  ListReply,
  MoneyLogRow,
  TransferRecord,
} from '../../src/api/contract/money';
import type { Account } from '../../src/api/contract/dashboard';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { setConfigValue } from '../../server/modules/system/repo';
import { api, createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

describe.each(engines)('transfers, exchange and the ledger on %s', (engine) => {
  let t: TestApp;
  let tokens: Record<string, string>;
  let ids: Record<string, number>;

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens = {};
    ids = {};
    for (const name of ['admin', 'partner', 'partner2', 'merchant', 'merchant2', 'agent']) {
      tokens[name] = await t.login(name);
      ids[name] = (await t.user(name)).id;
    }
  });
  afterEach(async () => {
    expect(await reconcile(t.db)).toEqual([]);
    await t.close();
  });

  const send = (who: string, url: string, body: unknown, headers: Record<string, string> = {}) =>
    t.call<unknown>('POST', api(url), { body, token: tokens[who], headers: { ...EN, ...headers } });
  const transfer = (who: string, body: unknown, headers?: Record<string, string>) =>
    send(who, '/platform/transfer', body, headers);
  const account = async (who: string) =>
    (await t.get<Account>('/platform/get_account', undefined, tokens[who])).body.data;

  it('a partner gives money to its merchant and takes some back: balances, ledger, record', async () => {
    const before = { partner: await account('partner'), merchant: await account('merchant') };
    expect(before.partner.money).toBe('98799.50');
    const given = await transfer('partner', {
      to_user_id: ids.merchant,
      asset: 'money',
      amount: '100.25',
      remark: 'monthly quota',
    });
    expect(given.body).toMatchObject({ code: 1, msg: 'Transfer completed' });
    const record = given.body.data as TransferRecord;
    expect(record).toMatchObject({
      from_user_id: ids.partner,
      to_user_id: ids.merchant,
      asset: 'money',
      amount: '100.25',
      from_before: '98799.50',
      from_after: '98699.25',
      to_before: '1200.50',
      to_after: '1300.75',
      remark: 'monthly quota',
      operator_id: ids.partner,
      operator_username: 'partner',
    });
    expect(record.transfer_no).toMatch(/^TR\d{6}\d{8}$/);
    expect((await account('merchant')).money).toBe('1300.75');

    const taken = await transfer('partner', {
      to_user_id: ids.merchant,
      asset: 'money',
      amount: 0.75,
      direction: 'take',
    });
    expect(taken.body.code).toBe(1);
    expect(taken.body.data).toMatchObject({ from_user_id: ids.merchant, to_user_id: ids.partner });
    expect((await account('merchant')).money).toBe('1300.00');
    expect((await account('partner')).money).toBe('98700.00');

    const log = await t.get<ListReply<MoneyLogRow>>(
      '/platform/user_money_log',
      { asset: 'money' },
      tokens.merchant,
    );
    expect(log.body.data.list.slice(0, 2)).toMatchObject([
      { type: 'transfer_out', change: '-0.75', before: '1300.75', after: '1300.00' },
      {
        type: 'transfer_in',
        change: '100.25',
        before: '1200.50',
        after: '1300.75',
        memo: 'monthly quota',
      },
    ]);
    expect(log.body.data.list[0].related_id).toBe(log.body.data.list[0].related_id);
  });

  it('other assets move in their units (digital-human seconds, clone counts)', async () => {
    for (const [asset, amount] of [
      ['digital_man', '600'],
      ['digital_voice', '1'],
      ['image_clone', 2],
    ] as const) {
      const reply = await transfer('partner', { to_user_id: ids.merchant, asset, amount });
      expect(reply.body, asset).toMatchObject({ code: 1, data: { asset, amount: String(amount) } });
    }
    expect(await account('merchant')).toMatchObject({
      digital_man_seconds: 2 * 3600 + 600,
      voice_clone_count: 3,
      image_clone_count: 3,
    });
  });

  it('an admin gives from and takes back to the platform, not its own balance', async () => {
    const reply = await transfer('admin', {
      to_user_id: ids.partner2,
      asset: 'money',
      amount: '500',
    });
    expect(reply.body.data).toMatchObject({
      from_user_id: ids.admin,
      from_before: null,
      from_after: null,
      to_before: '49700.00',
      to_after: '50200.00',
    });
    expect((await account('admin')).money).toBe('0.00');
    const back = await transfer('admin', {
      to_user_id: ids.merchant2,
      asset: 'money',
      amount: '300',
      direction: 'take',
    });
    expect(back.body.data).toMatchObject({ to_before: null, from_after: '0.00' });
    const issuance = await t.db
      .selectFrom('system_accounts')
      .select('balance')
      .where('account', '=', 'issuance')
      .where('asset', '=', 'money')
      .executeTakeFirstOrThrow();
    // Demo grants 150 000.00, +500 given, −300 taken back.
    expect(Number(issuance.balance)).toBe(-(15_000_000 + 50_000 - 30_000));
  });

  it('refusals change nothing: short balance, self, out of reach, no flag, bad amounts', async () => {
    const before = await snapshot(t.db, ['sessions']);
    const cases: [string, unknown, string][] = [
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '98799.51' },
        'Insufficient balance',
      ],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '1200.51', direction: 'take' },
        'Insufficient balance',
      ],
      [
        'partner',
        { to_user_id: ids.partner, asset: 'money', amount: '1' },
        'You cannot transfer to yourself',
      ],
      ['partner', { to_user_id: ids.merchant2, asset: 'money', amount: '1' }, 'User not found'],
      ['partner', { to_user_id: 987_654, asset: 'money', amount: '1' }, 'User not found'],
      ['partner', { to_user_id: ids.admin, asset: 'money', amount: '1' }, 'User not found'],
      ['partner', { to_user_id: ids.partner2, asset: 'money', amount: '1' }, 'User not found'],
      [
        'admin',
        { to_user_id: ids.admin, asset: 'money', amount: '1' },
        'You cannot transfer to yourself',
      ],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '0' },
        'Enter an amount greater than 0 with at most 2 decimals',
      ],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '1.005' },
        'Enter an amount greater than 0 with at most 2 decimals',
      ],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'digital_man', amount: '1.5' },
        'Enter a whole number greater than 0',
      ],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '100000000.01' },
        'The amount is too large',
      ],
      ['partner', { to_user_id: ids.merchant, asset: 'gold', amount: '1' }, 'Choose an asset'],
      [
        'partner',
        { to_user_id: ids.merchant, asset: 'money', amount: '1', extra: 1 },
        'Unknown field: extra',
      ],
    ];
    for (const [who, body, msg] of cases) {
      const reply = await transfer(who, body);
      expect({ status: reply.status, body: reply.body }, JSON.stringify(body)).toEqual({
        status: 200,
        body: { code: 0, msg, data: null },
      });
    }
    // A merchant, an agent and an overstep session may not transfer at all.
    for (const who of ['merchant', 'agent']) {
      const reply = await transfer(who, { to_user_id: ids.merchant2, asset: 'money', amount: '1' });
      expect(reply.status).toBe(403);
    }
    expect(await snapshot(t.db, ['sessions'])).toEqual(before);
  });

  it('a partner without the asset’s flag may not transfer it; flags are granted only as held', async () => {
    const off = await send('admin', '/platform/edit_transfer_config', {
      user_id: ids.partner,
      can_transfer_digital_voice: 0,
    });
    expect(off.body).toMatchObject({
      code: 1,
      data: { id: ids.partner, can_transfer_digital_voice: 0, can_transfer_money: 1 },
    });
    const refused = await transfer('partner', {
      to_user_id: ids.merchant,
      asset: 'digital_voice',
      amount: '1',
    });
    expect(refused.body).toMatchObject({
      code: 0,
      msg: 'You are not allowed to transfer this asset',
    });
    const grant = await send('partner', '/platform/edit_transfer_config', {
      user_id: ids.merchant,
      can_transfer_digital_voice: 1,
    });
    expect(grant.body).toMatchObject({ code: 0, msg: 'You can only grant permissions you hold' });
    const ok = await send('partner', '/platform/edit_transfer_config', {
      user_id: ids.merchant,
      can_transfer_money: 1,
    });
    expect(ok.body).toMatchObject({ code: 1, data: { can_transfer_money: 1 } });
    const other = await send('partner2', '/platform/edit_transfer_config', {
      user_id: ids.merchant,
      can_transfer_money: 0,
    });
    expect(other.body).toMatchObject({ code: 0, msg: 'User not found' });
    expect((await t.user('merchant')).can_transfer_money).toBe(1);
  });

  it('an Idempotency-Key makes a retried transfer change nothing twice', async () => {
    const body = { to_user_id: ids.merchant, asset: 'money', amount: '10' };
    const key = { 'idempotency-key': 'retry-0000-0001' };
    const first = await transfer('partner', body, key);
    const again = await transfer('partner', body, key);
    expect(first.body.code).toBe(1);
    expect(again.body).toEqual(first.body);
    expect((await account('merchant')).money).toBe('1210.50');
    const twins = await Promise.all(
      Array.from({ length: 8 }, () =>
        transfer('partner', { ...body, amount: '1' }, { 'idempotency-key': 'twin-key-42' }),
      ),
    );
    expect(new Set(twins.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect((await account('merchant')).money).toBe('1211.50');

    const changed = await transfer('partner', { ...body, amount: '11' }, key);
    expect(changed.body).toMatchObject({
      code: 0,
      msg: 'This Idempotency-Key was already used for a different request',
    });
    const bad = await transfer('partner', body, { 'idempotency-key': 'short' });
    expect(bad.body).toMatchObject({ code: 0 });
    expect((await account('merchant')).money).toBe('1211.50');
    // Keys belong to their user: another partner's identical key is its own request.
    const own = await transfer(
      'partner2',
      { to_user_id: ids.merchant2, asset: 'money', amount: '1' },
      key,
    );
    expect(own.body.code).toBe(1);
  });

  it('exchange: money → minutes and clones at the platform price or the user’s override', async () => {
    const minutes = await send('merchant', '/platform/exchange', {
      asset: 'digital_man',
      quantity: 10,
    });
    expect(minutes.body).toMatchObject({
      code: 1,
      msg: 'Exchange completed',
      data: { cost: '10.00', money: '1190.50', balance: String(2 * 3600 + 600) },
    });
    const clone = (
      await send('merchant', '/platform/exchange', { asset: 'image_clone', quantity: 2 })
    ).body.data as ExchangeReply;
    expect(clone).toMatchObject({ cost: '100.00', money: '1090.50', balance: '3' });
    await t.db
      .updateTable('users')
      .set({ digital_voice_money_exchange_num: '2.5' })
      .where('id', '=', ids.merchant)
      .execute();
    const voice = await send('merchant', '/platform/exchange', {
      asset: 'digital_voice',
      quantity: 4,
    });
    expect(voice.body.data).toMatchObject({ cost: '10.00', money: '1080.50', balance: '6' });

    await setConfigValue(t.db, 'money_recharge_exchange_config', '1,2', t.clock());
    const off = await send('merchant', '/platform/exchange', { asset: 'image_clone', quantity: 1 });
    expect(off.body).toMatchObject({ code: 0, msg: 'This exchange is not available' });
    const tooMuch = await send('merchant', '/platform/exchange', {
      asset: 'digital_man',
      quantity: 100_000,
    });
    expect(tooMuch.body).toMatchObject({ code: 0, msg: 'Insufficient balance' });
    expect((await account('merchant')).money).toBe('1080.50');
  });

  it('the ledger and transfer records are scoped: own, subtree, or everything for the admin', async () => {
    await transfer('partner', { to_user_id: ids.merchant, asset: 'money', amount: '5' });
    await transfer('partner2', { to_user_id: ids.merchant2, asset: 'money', amount: '7' });
    await transfer('admin', { to_user_id: ids.partner, asset: 'digital_voice', amount: '3' });

    const records = async (who: string, query: Record<string, string> = {}) =>
      (await t.get<ListReply<TransferRecord>>('/platform/transfer_record', query, tokens[who]))
        .body;
    // Seeded transfers: 4 partner→merchant (one per asset) and 3 partner2→merchant2.
    expect((await records('admin')).data.total).toBe(3 + 7);
    const partnerSees = (await records('partner')).data;
    expect(partnerSees.total).toBe(2 + 4);
    expect(partnerSees.list.slice(0, 2).map((r) => r.amount)).toEqual(['3', '5.00']);
    const partner2Sees = (await records('partner2')).data;
    expect(partner2Sees.total).toBe(1 + 3);
    expect(partner2Sees.list[0].amount).toBe('7.00');
    const merchantSees = (await records('merchant')).data.list;
    expect(merchantSees.length).toBe(5);
    expect(merchantSees.every((r) => r.to_username === 'merchant')).toBe(true);
    expect((await records('partner', { direction: 'in' })).data.list.map((r) => r.asset)).toEqual([
      'digital_voice',
    ]);
    expect((await records('partner', { asset: 'money', direction: 'out' })).data.total).toBe(2);
    expect((await records('partner2', { user_id: String(ids.merchant) })).msg).toBe('用户不存在');
    expect((await records('admin', { limit: '101' })).code).toBe(0);

    const log = async (who: string, query: Record<string, string> = {}) =>
      (await t.get<ListReply<MoneyLogRow>>('/platform/user_money_log', query, tokens[who])).body;
    const partnerSeesMerchant = await log('partner', { user_id: String(ids.merchant) });
    expect(partnerSeesMerchant.code).toBe(1);
    expect(partnerSeesMerchant.data.list.every((row) => row.username === 'merchant')).toBe(true);
    expect((await log('partner2', { user_id: String(ids.merchant) })).code).toBe(0);
    expect((await log('merchant', { user_id: String(ids.partner) })).code).toBe(0);
    const typed = await log('merchant', { type: 'transfer_in', asset: 'money', limit: '1' });
    expect(typed.data).toMatchObject({ total: 2, list: [{ change: '5.00' }] });
    const later = await log('merchant', { start: String(t.clock() + 1) });
    expect(later.data.total).toBe(0);
  });

  it('property: malformed amounts and bodies are refused with a message and change nothing', async () => {
    const before = await snapshot(t.db, ['sessions']);
    const badAmount = fc.oneof(
      fc.integer({ max: 0 }).map(String),
      fc
        .double({ noNaN: false })
        .filter((n) => !Number.isFinite(n) || n <= 0 || !/^\d+(\.\d{1,2})?$/.test(String(n))),
      fc
        .string()
        .filter((s) => !/^\s*\d{1,16}(\.\d{1,2})?\s*$/.test(s) || /^\s*0*(\.0*)?\s*$/.test(s)),
      fc.integer({ min: 1, max: 999 }).map((n) => `1.${String(n).padStart(3, '0')}`),
      fc.bigInt({ min: 10n ** 8n + 1n, max: 10n ** 30n }).map(String),
      fc.constantFrom('NaN', 'Infinity', '-1', '1e3', '0x10', ' ', '', '١٢', '1,5'),
    );
    await fc.assert(
      fc.asyncProperty(badAmount, async (amount) => {
        const reply = await transfer('partner', {
          to_user_id: ids.merchant,
          asset: 'money',
          amount,
        });
        expect(reply.status).toBe(200);
        expect(reply.body.code).toBe(0);
        expect(reply.body.msg).toMatch(/amount|too large|Invalid/);
      }),
      { numRuns: 60 },
    );
    const badBody = fc.oneof(
      fc
        .dictionary(
          fc
            .string({ minLength: 1 })
            .filter((k) => !['to_user_id', 'asset', 'amount', 'remark', 'direction'].includes(k)),
          fc.jsonValue(),
          { minKeys: 1, maxKeys: 3 },
        )
        .map((extra) => ({ to_user_id: ids.merchant, asset: 'money', amount: '1', ...extra })),
      fc.record({
        to_user_id: fc.oneof(
          fc.string().filter((v) => !/^\s*\+?\d+(\.0*)?\s*$/.test(v)),
          // Not a whole positive number (that could be a real user's id).
          fc.double().filter((d) => !(Number.isInteger(d) && d > 0)),
          fc.constant(null),
          fc.integer({ max: 0 }),
        ),
        asset: fc.constant('money'),
        amount: fc.constant('1'),
      }),
      fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
    );
    await fc.assert(
      fc.asyncProperty(badBody, async (body) => {
        const reply = await transfer('partner', body);
        expect(reply.status).toBeLessThan(500);
        expect(reply.body.code).toBe(0);
        expect(reply.body.msg.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
    expect(await snapshot(t.db, ['sessions'])).toEqual(before);
  });
});
