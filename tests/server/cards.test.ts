import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AddCardsReply,
  CardListReply,
  CardRow,
  CountReply,
  ExportTicketReply,
  UseCardReply,
} from '../../src/api/contract/cards';
import {
  USER_STATUS,
  type Asset,
  type RechargeCardRow,
  type SystemAccount,
} from '../../server/platform/db/schema';
import { reconcile } from '../../server/modules/ledger/reconcile';
import {
  api,
  createTestApp,
  engines,
  HOUR,
  MINUTE,
  snapshot,
  T0,
  type Reply,
  type TestApp,
} from './helpers';

const EN = { lang: 'en-US' };
const DAY = 24 * 60 * MINUTE;
const NAMES = ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2'] as const;
type Name = (typeof NAMES)[number];

/** Seed balances (server/modules/demo/seed.ts): partner 100 000.00 − 1 200.50 given to merchant, etc. */
const PARTNER_MONEY = 10_000_000 - 120_050;
const PARTNER_VOICE = 48;

describe.each(engines)('recharge cards on %s', (engine) => {
  let t: TestApp;
  let ids: Record<Name, number>;
  let tokens: Record<Name, string>;

  beforeEach(async () => {
    t = await createTestApp(engine);
    ids = {} as Record<Name, number>;
    tokens = {} as Record<Name, string>;
    for (const name of NAMES) {
      ids[name] = (await t.user(name)).id;
      tokens[name] = await t.login(name);
    }
  });
  afterEach(async () => {
    expect(await reconcile(t.db)).toEqual([]);
    await t.close();
  });

  function post<T = unknown>(
    who: Name | string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const token = who in tokens ? tokens[who as Name] : who;
    return t.call<T>('POST', api(`/recharge_card${path}`), {
      token,
      body,
      headers: { ...EN, ...headers },
    });
  }
  function get<T = unknown>(
    who: Name | string,
    path: string,
    query: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const token = who in tokens ? tokens[who as Name] : who;
    return t.call<T>('GET', api(`/recharge_card${path}`), { token, query, headers: EN });
  }
  /** Moves the clock; sessions older than their limits are replaced by fresh ones. */
  async function advance(ms: number): Promise<void> {
    t.clock.advance(ms);
    for (const name of NAMES) tokens[name] = await t.login(name);
  }
  const ok = <T>(reply: Reply<T>): T => {
    expect(reply.body, reply.raw).toMatchObject({ code: 1 });
    return reply.body.data;
  };
  const refused = (reply: Reply, msg: string) => {
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, msg, data: null });
  };

  async function add(who: Name, body: Record<string, unknown>): Promise<AddCardsReply> {
    return ok(await post<AddCardsReply>(who, '/add', body));
  }
  function batch(batchNo: string): Promise<RechargeCardRow[]> {
    return t.db
      .selectFrom('recharge_cards')
      .selectAll()
      .where('batch_no', '=', batchNo)
      .orderBy('id')
      .execute();
  }
  async function card(id: number): Promise<RechargeCardRow> {
    return t.db
      .selectFrom('recharge_cards')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }
  async function balance(
    name: Name,
    column: 'money' | 'digital_man_seconds' | 'voice_clone_count',
  ) {
    return Number((await t.user(name))[column]);
  }
  async function systemBalance(account: SystemAccount, asset: Asset): Promise<number> {
    const row = await t.db
      .selectFrom('system_accounts')
      .select('balance')
      .where('account', '=', account)
      .where('asset', '=', asset)
      .executeTakeFirst();
    return Number(row?.balance ?? 0);
  }
  async function ledgerOf(name: Name, type: string) {
    return t.db
      .selectFrom('ledger')
      .selectAll()
      .where('user_id', '=', ids[name])
      .where('type', '=', type as never)
      .orderBy('id')
      .execute();
  }
  const use = (who: Name | string, c: { card_no: string; card_pwd: string }) =>
    post<UseCardReply>(who, '/use_card', { card_no: c.card_no, card_pwd: c.card_pwd });

  describe('add', () => {
    it('a partner pays face value × quantity from its balance; numbers follow its prefix and day', async () => {
      const cardsBefore = await systemBalance('cards', 'money');
      const reply = await post<AddCardsReply>('partner', '/add', {
        asset: 'money',
        face_value: '50.50',
        quantity: 3,
        price: '45',
        remark: 'spring sale',
        expire_at: T0 + 30 * DAY,
      });
      expect(reply.body.msg).toBe('Cards generated');
      expect(reply.body.data).toEqual({ batch_no: 'BPA260302000001', count: 3 });
      const rows = await batch('BPA260302000001');
      expect(rows.map((r) => r.card_no)).toEqual([
        'PA260302000001',
        'PA260302000002',
        'PA260302000003',
      ]);
      for (const row of rows) {
        expect(row.card_pwd).toMatch(/^[A-Z2-9]{16}$/);
        expect(row).toMatchObject({
          asset: 'money',
          face_value: 5050,
          price: 4500,
          creator_id: ids.partner,
          owner_id: ids.partner,
          service_id: ids.partner,
          paid_by: ids.partner,
          status: 0,
          used_by: null,
          expire_at: T0 + 30 * DAY,
          remark_owner: 'spring sale',
          remark_admin: '',
          deleted_at: null,
        });
      }
      expect(new Set(rows.map((r) => r.card_pwd)).size).toBe(3);
      expect(await balance('partner', 'money')).toBe(PARTNER_MONEY - 15_150);
      const [issued] = await ledgerOf('partner', 'card_issue');
      expect(issued).toMatchObject({ asset: 'money', change: -15_150, memo: 'BPA260302000001' });
      expect(await systemBalance('cards', 'money')).toBe(cardsBefore + 15_150);

      // The sequence goes on within the day and starts again the next day (Asia/Shanghai).
      const second = await add('partner', { asset: 'money', face_value: 1, quantity: 2 });
      expect(second.batch_no).toBe('BPA260302000004');
      await advance(14 * HOUR); // 2026-03-03 00:00 in Shanghai
      const third = await add('partner', { asset: 'money', face_value: 1, quantity: 1 });
      expect(third.batch_no).toBe('BPA260303000001');
    });

    it('an admin mints (issuance → cards): prefix P, platform-wide, digital humans by the minute', async () => {
      const issuance = await systemBalance('issuance', 'digital_man');
      const reply = await add('admin', {
        asset: 'digital_man',
        face_value: 30,
        quantity: 2,
        remark: 'for events',
      });
      expect(reply).toEqual({ batch_no: 'BP260302000001', count: 2 });
      const rows = await batch(reply.batch_no);
      expect(rows.map((r) => r.card_no)).toEqual(['P260302000001', 'P260302000002']);
      expect(rows[0]).toMatchObject({
        face_value: 1800,
        service_id: 0,
        paid_by: null,
        owner_id: ids.admin,
        remark_admin: 'for events',
        remark_owner: '',
        expire_at: null,
        price: 0,
      });
      expect(await systemBalance('issuance', 'digital_man')).toBe(issuance - 3600);
      expect(await systemBalance('cards', 'digital_man')).toBe(3600);
      const list = ok(await get<CardListReply>('admin', '/card_list'));
      expect(list.list[0]).toMatchObject({ face_value: '30', asset: 'digital_man', price: '0.00' });
    });

    it('refuses more than the partner holds, changing nothing', async () => {
      const before = await snapshot(t.db);
      refused(
        await post('partner', '/add', {
          asset: 'digital_voice',
          face_value: 5,
          quantity: 10,
        }),
        'Insufficient balance',
      );
      expect(await snapshot(t.db)).toEqual(before);
      // Exactly the balance is fine.
      await add('partner', { asset: 'digital_voice', face_value: 4, quantity: 12 });
      expect(await balance('partner', 'voice_clone_count')).toBe(0);
      expect(PARTNER_VOICE).toBe(48);
    });

    it('validates the payload', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ asset: 'money', face_value: 1, quantity: 0 }, 'Quantity: a whole number from 1 to 1000'],
        [
          { asset: 'money', face_value: 1, quantity: 1001 },
          'Quantity: a whole number from 1 to 1000',
        ],
        [
          { asset: 'money', face_value: '1.234', quantity: 1 },
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        [
          { asset: 'money', face_value: 0, quantity: 1 },
          'Enter an amount greater than 0 with at most 2 decimals',
        ],
        [
          { asset: 'digital_man', face_value: '1.5', quantity: 1 },
          'Enter a whole number greater than 0',
        ],
        [{ asset: 'image_clone', face_value: 1, quantity: 1 }, 'Choose an asset'],
        [
          { asset: 'money', face_value: 1, quantity: 1, price: '-1' },
          'Price: 0 or more, with at most 2 decimals',
        ],
        [{ asset: 'money', face_value: 1, quantity: 1, role: 'x' }, 'Unknown field: role'],
        [
          { asset: 'money', face_value: 1, quantity: 1, expire_at: T0 - 1 },
          'The expiry must be in the future',
        ],
        [
          { asset: 'money', face_value: 1, quantity: 1, expire_at: T0 },
          'The expiry must be in the future',
        ],
      ];
      const before = await snapshot(t.db);
      for (const [body, msg] of cases) refused(await post('partner', '/add', body), msg);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('accepts an Idempotency-Key: a retry changes nothing twice', async () => {
      const body = { asset: 'money', face_value: '10', quantity: 5 };
      const key = { 'idempotency-key': 'cards-add-0001' };
      const first = ok(await post<AddCardsReply>('partner', '/add', body, key));
      const again = ok(await post<AddCardsReply>('partner', '/add', body, key));
      expect(again).toEqual(first);
      expect(await balance('partner', 'money')).toBe(PARTNER_MONEY - 5_000);
      expect(await t.db.selectFrom('recharge_cards').select('id').execute()).toHaveLength(5);
      refused(
        await post('partner', '/add', { ...body, quantity: 6 }, key),
        'This Idempotency-Key was already used for a different request',
      );
      refused(
        await post('partner', '/add', body, { 'idempotency-key': 'bad key!' }),
        'Idempotency-Key must be 8 to 128 letters, digits or _ . : -',
      );
    });

    it('uses P for a partner without a prefix, sharing the platform’s day sequence', async () => {
      await t.db
        .updateTable('users')
        .set({ service_prefix_no: null })
        .where('id', '=', ids.partner2)
        .execute();
      const a = await add('admin', { asset: 'money', face_value: 1, quantity: 2 });
      const b = await add('partner2', { asset: 'money', face_value: 1, quantity: 2 });
      expect(a.batch_no).toBe('BP260302000001');
      expect(b.batch_no).toBe('BP260302000003');
    });
  });

  describe('use_card', () => {
    it('credits the caller once: the card is marked used in the same transaction', async () => {
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: '20.00',
        quantity: 1,
      });
      const [c] = await batch(batch_no);
      const before = await balance('merchant', 'money');
      const reply = await use('merchant', {
        card_no: c.card_no,
        card_pwd: c.card_pwd.toLowerCase(),
      });
      expect(reply.body.msg).toBe('Card redeemed');
      expect(reply.body.data).toEqual({
        id: c.id,
        card_no: c.card_no,
        asset: 'money',
        face_value: '20.00',
      });
      expect(await balance('merchant', 'money')).toBe(before + 2000);
      const [row] = await ledgerOf('merchant', 'card_redeem');
      expect(row).toMatchObject({
        change: 2000,
        memo: c.card_no,
        related_type: 'recharge_card',
        related_id: c.id,
      });
      expect(await card(c.id)).toMatchObject({ status: 1, used_by: ids.merchant, used_at: T0 });
      expect(await systemBalance('cards', 'money')).toBe(0);

      refused(await use('merchant', c), 'This card has already been used');
      refused(await use('partner', c), 'This card has already been used');
    });

    it('answers "card not found" alike for a wrong number, a wrong password and another service', async () => {
      const { batch_no } = await add('partner', {
        asset: 'digital_voice',
        face_value: 1,
        quantity: 1,
      });
      const [c] = await batch(batch_no);
      const before = await snapshot(t.db, ['login_throttle']);
      refused(
        await use('merchant', { card_no: 'PA000000000000', card_pwd: c.card_pwd }),
        'Card not found',
      );
      refused(
        await use('merchant', { card_no: c.card_no, card_pwd: 'AAAAAAAAAAAAAAAA' }),
        'Card not found',
      );
      refused(await use('merchant2', c), 'Card not found');
      refused(await use('partner2', c), 'Card not found');
      expect(await snapshot(t.db, ['login_throttle'])).toEqual(before);
      // A platform card (admin) is redeemable in every service.
      const minted = await add('admin', { asset: 'digital_voice', face_value: 2, quantity: 1 });
      const [p] = await batch(minted.batch_no);
      expect(ok(await use('merchant2', p)).face_value).toBe('2');
      expect(await balance('merchant2', 'voice_clone_count')).toBe(1 + 2);
      // The partner can redeem its own cards.
      expect(ok(await use('partner', c)).face_value).toBe('1');
    });

    it('refuses void, expired and deleted cards', async () => {
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: 1,
        quantity: 3,
        expire_at: T0 + HOUR,
      });
      const [a, b, c] = await batch(batch_no);
      ok(await post('partner', '/edit_card', { id: a.id, status: 2 }));
      refused(await use('merchant', a), 'This card has been voided');
      ok(await post('partner', '/batch_del', { ids: [c.id] }));
      refused(await use('merchant', c), 'Card not found');
      t.clock.advance(HOUR);
      refused(await use('merchant', b), 'This card has expired');
      expect(await card(b.id)).toMatchObject({ status: 0, used_by: null });
    });

    it('throttles wrong tries per user: 10 in 15 minutes lock redeeming for 15 minutes', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 1, quantity: 3 });
      const [a, b, c] = await batch(batch_no);
      ok(await use('merchant', a));
      // Knowing the password is not guessing: "already used" does not count.
      for (let i = 0; i < 5; i += 1)
        refused(await use('merchant', a), 'This card has already been used');
      for (let i = 0; i < 10; i += 1) {
        refused(
          await use('merchant', { card_no: b.card_no, card_pwd: `WRONG${i}` }),
          'Card not found',
        );
      }
      refused(
        await use('merchant', b),
        'Too many wrong card numbers or passwords. Try again in 15 minutes',
      );
      expect(await card(b.id)).toMatchObject({ status: 0 });
      // Another user is not affected.
      ok(await use('partner', c));
      t.clock.advance(15 * MINUTE);
      ok(await use('merchant', b));
    });

    it('validates the payload', async () => {
      refused(
        await post('merchant', '/use_card', { card_no: '', card_pwd: 'X' }),
        'Enter the card number',
      );
      refused(await post('merchant', '/use_card', { card_no: 'PA1' }), 'Enter the card password');
      refused(
        await post('merchant', '/use_card', { card_no: 'PA1', card_pwd: ' - ' }),
        'Enter the card password',
      );
    });
  });

  describe('transfer_card', () => {
    it('moves unused cards the caller holds to a descendant; the new holder sees the password', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 3 });
      const [a, b, c] = await batch(batch_no);
      const reply = await post<CountReply>('partner', '/transfer_card', {
        ids: [a.id, b.id],
        to_user_id: ids.merchant,
      });
      expect(reply.body.msg).toBe('Cards transferred');
      expect(reply.body.data).toEqual({ count: 2 });
      expect((await card(a.id)).owner_id).toBe(ids.merchant);
      expect((await card(c.id)).owner_id).toBe(ids.partner);

      const mine = ok(await get<CardListReply>('merchant', '/card_list'));
      expect(mine.total).toBe(2);
      expect(mine.list.map((r) => [r.id, r.card_pwd, r.pwd_masked])).toEqual([
        [b.id, b.card_pwd, false],
        [a.id, a.card_pwd, false],
      ]);
      const theirs = ok(await get<CardListReply>('partner', '/card_list'));
      const shownA = theirs.list.find((r) => r.id === a.id) as CardRow;
      expect(shownA).toMatchObject({
        card_pwd: `${a.card_pwd.slice(0, 4)}********${a.card_pwd.slice(-4)}`,
        pwd_masked: true,
        owner_id: ids.merchant,
        owner_username: 'merchant',
        creator_username: 'partner',
      });
      expect(theirs.list.find((r) => r.id === c.id)?.card_pwd).toBe(c.card_pwd);

      // No longer the partner's to move; the merchant cannot transfer at all.
      refused(
        await post('partner', '/transfer_card', { ids: [a.id], to_user_id: ids.agent }),
        'Only unused, unexpired cards you hold can be transferred',
      );
      expect(
        (await post('merchant', '/transfer_card', { ids: [a.id], to_user_id: ids.agent })).status,
      ).toBe(403);
      // A batch moves what the caller still holds of it.
      expect(
        ok(
          await post<CountReply>('partner', '/transfer_card', { batch_no, to_user_id: ids.agent }),
        ),
      ).toEqual({
        count: 1,
      });
      expect((await card(c.id)).owner_id).toBe(ids.agent);
    });

    it('is all or nothing: one used, void or expired card stops the whole selection', async () => {
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: 5,
        quantity: 4,
        expire_at: T0 + HOUR,
      });
      const [a, b, c, d] = await batch(batch_no);
      ok(await use('merchant', b));
      ok(await post('partner', '/edit_card', { id: c.id, status: 2 }));
      const before = await snapshot(t.db, ['sessions']);
      for (const bad of [b, c]) {
        refused(
          await post('partner', '/transfer_card', { ids: [a.id, bad.id], to_user_id: ids.agent }),
          'Only unused, unexpired cards you hold can be transferred',
        );
      }
      refused(
        await post('partner', '/transfer_card', { ids: [a.id, 999_999], to_user_id: ids.agent }),
        'Card not found',
      );
      t.clock.advance(HOUR);
      refused(
        await post('partner', '/transfer_card', { ids: [a.id, d.id], to_user_id: ids.agent }),
        'Only unused, unexpired cards you hold can be transferred',
      );
      refused(
        await post('partner', '/transfer_card', { batch_no, to_user_id: ids.agent }),
        'Only unused, unexpired cards you hold can be transferred',
      );
      expect(await snapshot(t.db, ['sessions'])).toEqual(before);
    });

    it('only to descendants (an admin: to any user but an admin)', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 1 });
      const [a] = await batch(batch_no);
      for (const to of [ids.merchant2, ids.partner2, ids.partner, ids.admin, 999_999]) {
        refused(
          await post('partner', '/transfer_card', { ids: [a.id], to_user_id: to }),
          'User not found',
        );
      }
      const minted = await add('admin', { asset: 'money', face_value: 5, quantity: 2 });
      const [m1, m2] = await batch(minted.batch_no);
      refused(
        await post('admin', '/transfer_card', { ids: [m1.id], to_user_id: ids.admin }),
        'User not found',
      );
      ok(await post('admin', '/transfer_card', { ids: [m1.id], to_user_id: ids.partner2 }));
      ok(await post('admin', '/transfer_card', { ids: [m2.id], to_user_id: ids.merchant }));
      // A platform card a partner holds is in its list (with the password) and it may pass it on.
      const list = ok(await get<CardListReply>('partner2', '/card_list'));
      expect(list.list.map((r) => [r.id, r.card_pwd])).toEqual([[m1.id, m1.card_pwd]]);
      ok(await post('partner2', '/transfer_card', { ids: [m1.id], to_user_id: ids.merchant2 }));
      // The admin cannot move a partner's cards.
      refused(
        await post('admin', '/transfer_card', { ids: [a.id], to_user_id: ids.merchant }),
        'Only unused, unexpired cards you hold can be transferred',
      );
      refused(
        await post('partner', '/transfer_card', { to_user_id: ids.merchant }),
        'Choose cards or a batch',
      );
      refused(
        await post('partner', '/transfer_card', {
          ids: [a.id],
          batch_no,
          to_user_id: ids.merchant,
        }),
        'Choose cards or a batch',
      );
    });
  });

  describe('remark, edit, delete', () => {
    it('remark_card writes the remark of the caller’s role; only admins see the admin’s', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 2 });
      const [a, b] = await batch(batch_no);
      expect(
        ok(await post<CountReply>('admin', '/remark_card', { id: a.id, remark: 'checked' })),
      ).toEqual({
        count: 1,
      });
      expect(
        ok(
          await post<CountReply>('partner', '/remark_card', {
            ids: [a.id, b.id],
            remark: 'for shop',
          }),
        ),
      ).toEqual({ count: 2 });
      expect(await card(a.id)).toMatchObject({ remark_admin: 'checked', remark_owner: 'for shop' });
      const asAdmin = ok(await get<CardListReply>('admin', '/card_list', { batch_no }));
      expect(asAdmin.list.find((r) => r.id === a.id)).toMatchObject({
        remark_admin: 'checked',
        remark_owner: 'for shop',
      });
      const asPartner = ok(await get<CardListReply>('partner', '/card_list', { batch_no }));
      expect(asPartner.list.find((r) => r.id === a.id)).toMatchObject({
        remark_admin: '',
        remark_owner: 'for shop',
      });
      refused(await post('partner', '/remark_card', { remark: 'x' }), 'Choose cards or a batch');
      refused(
        await post('partner', '/remark_card', { id: a.id, remark: 'x'.repeat(201) }),
        'remark: Too long',
      );
    });

    it('edit_card switches unused ↔ void and sets the expiry; used cards are immutable', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 2 });
      const [a, b] = await batch(batch_no);
      const voided = ok(await post<CardRow>('partner', '/edit_card', { id: a.id, status: 2 }));
      expect(voided).toMatchObject({ id: a.id, status: 2, expired: false, card_pwd: a.card_pwd });
      const restored = ok(
        await post<CardRow>('partner', '/edit_card', { id: a.id, status: 0, expire_at: T0 + DAY }),
      );
      expect(restored).toMatchObject({ status: 0, expire_at: T0 + DAY });
      expect(
        ok(await post<CardRow>('admin', '/edit_card', { id: a.id, expire_at: null })).expire_at,
      ).toBeNull();
      refused(
        await post('partner', '/edit_card', { id: a.id, expire_at: T0 }),
        'The expiry must be in the future',
      );
      refused(await post('partner', '/edit_card', { id: a.id }), 'Nothing to change');
      refused(
        await post('partner', '/edit_card', { id: a.id, status: 1 }),
        'status: Invalid value',
      );
      ok(await use('merchant', b));
      const before = await snapshot(t.db);
      refused(
        await post('partner', '/edit_card', { id: b.id, status: 2 }),
        'A used card cannot be changed',
      );
      refused(
        await post('admin', '/edit_card', { id: b.id, expire_at: T0 + DAY }),
        'A used card cannot be changed',
      );
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('batch_del refunds unused and void cards to the partner that paid, minted ones to the platform', async () => {
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: '10.00',
        quantity: 4,
      });
      const [a, b, c, d] = await batch(batch_no);
      expect(await balance('partner', 'money')).toBe(PARTNER_MONEY - 4_000);
      ok(await post('partner', '/edit_card', { id: b.id, status: 2 }));
      ok(await use('merchant', c));
      // A used card in a selection stops it.
      const before = await snapshot(t.db);
      refused(
        await post('partner', '/batch_del', { ids: [a.id, c.id] }),
        'Used cards cannot be deleted',
      );
      expect(await snapshot(t.db)).toEqual(before);
      const reply = await post<CountReply>('partner', '/batch_del', { ids: [a.id, b.id] });
      expect(reply.body).toEqual({ code: 1, msg: 'Cards deleted', data: { count: 2 } });
      expect(await balance('partner', 'money')).toBe(PARTNER_MONEY - 2_000);
      const refunds = await ledgerOf('partner', 'card_refund');
      expect(refunds.map((r) => [r.asset, r.change])).toEqual([['money', 2_000]]);
      expect((await card(a.id)).deleted_at).toBe(T0);
      // Gone from the lists; deleting again finds nothing.
      const list = ok(await get<CardListReply>('partner', '/card_list', { batch_no }));
      expect(list.list.map((r) => r.id).sort()).toEqual([c.id, d.id].sort());
      refused(await post('partner', '/batch_del', { ids: [a.id] }), 'Card not found');
      // A batch: its unused and void cards go, the used one stays.
      expect(ok(await post<CountReply>('admin', '/batch_del', { batch_no }))).toEqual({ count: 1 });
      expect(await balance('partner', 'money')).toBe(PARTNER_MONEY - 1_000);
      expect((await card(c.id)).deleted_at).toBeNull();
      refused(await post('partner', '/batch_del', { batch_no }), 'Used cards cannot be deleted');

      const issuance = await systemBalance('issuance', 'digital_voice');
      const minted = await add('admin', { asset: 'digital_voice', face_value: 3, quantity: 2 });
      expect(await systemBalance('issuance', 'digital_voice')).toBe(issuance - 6);
      ok(
        await post('admin', '/transfer_card', {
          batch_no: minted.batch_no,
          to_user_id: ids.partner,
        }),
      );
      // The partner holds minted cards: deleting them gives the value back to the platform.
      expect(
        ok(await post<CountReply>('partner', '/batch_del', { batch_no: minted.batch_no })),
      ).toEqual({
        count: 2,
      });
      expect(await systemBalance('issuance', 'digital_voice')).toBe(issuance);
      expect(await systemBalance('cards', 'digital_voice')).toBe(0);
      expect(await ledgerOf('partner', 'card_refund')).toHaveLength(2);
    });
  });

  describe('scope', () => {
    it('partner2 gets "card not found" on every call on partner’s cards, and nothing changes', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 2 });
      const [a] = await batch(batch_no);
      const before = await snapshot(t.db, ['login_throttle']);
      const calls: [string, Record<string, unknown>][] = [
        ['/transfer_card', { ids: [a.id], to_user_id: ids.merchant2 }],
        ['/transfer_card', { batch_no, to_user_id: ids.merchant2 }],
        ['/remark_card', { id: a.id, remark: 'mine' }],
        ['/edit_card', { id: a.id, status: 2 }],
        ['/edit_card', { id: a.id, expire_at: null }],
        ['/batch_del', { ids: [a.id] }],
        ['/batch_del', { batch_no }],
        ['/use_card', { card_no: a.card_no, card_pwd: a.card_pwd }],
      ];
      for (const [path, body] of calls) {
        refused(await post('partner2', path, body), 'Card not found');
        // …exactly what a card that does not exist answers.
        const missing = { ...body };
        if ('ids' in missing) missing.ids = [999_999];
        if ('id' in missing) missing.id = 999_999;
        if ('batch_no' in missing) missing.batch_no = 'BNOPE';
        if ('card_no' in missing) missing.card_no = 'PB000000000000';
        refused(await post('partner2', path, missing), 'Card not found');
      }
      expect(await snapshot(t.db, ['login_throttle'])).toEqual(before);
      const list = ok(await get<CardListReply>('partner2', '/card_list'));
      expect(list).toEqual({ list: [], total: 0 });
      expect(ok(await get<CardListReply>('partner2', '/card_list', { batch_no }))).toEqual({
        list: [],
        total: 0,
      });
      expect(ok(await get<CardListReply>('merchant2', '/card_list'))).toEqual({
        list: [],
        total: 0,
      });
    });

    it('merchants and agents see the cards they hold or redeemed', async () => {
      const { batch_no } = await add('partner', { asset: 'money', face_value: 5, quantity: 4 });
      const [a, b, c] = await batch(batch_no);
      ok(await post('partner', '/transfer_card', { ids: [a.id], to_user_id: ids.merchant }));
      ok(await post('partner', '/transfer_card', { ids: [b.id], to_user_id: ids.agent }));
      ok(await use('merchant', c));
      const merchant = ok(await get<CardListReply>('merchant', '/card_list'));
      expect(merchant.list.map((r) => [r.id, r.pwd_masked])).toEqual([
        [c.id, true],
        [a.id, false],
      ]);
      expect(merchant.list[0]).toMatchObject({
        used_by: ids.merchant,
        used_by_username: 'merchant',
        status: 1,
      });
      const agent = ok(await get<CardListReply>('agent', '/card_list'));
      expect(agent.list.map((r) => r.id)).toEqual([b.id]);
      expect(
        ok(await get<CardListReply>('merchant', '/can_operate_card_list')).list.map((r) => r.id),
      ).toEqual([a.id]);
      const all = ok(await get<CardListReply>('admin', '/card_list'));
      expect(all.total).toBe(4);
      expect(all.list.every((r) => r.pwd_masked)).toBe(true);
    });
  });

  describe('lists', () => {
    it('card_list filters by number, batch, asset, status (expired computed), owner, user and time', async () => {
      const first = await add('partner', {
        asset: 'money',
        face_value: 5,
        quantity: 3,
        expire_at: T0 + HOUR,
      });
      t.clock.advance(MINUTE);
      const second = await add('partner', { asset: 'digital_voice', face_value: 1, quantity: 2 });
      const [a, b, c] = await batch(first.batch_no);
      const [d] = await batch(second.batch_no);
      ok(await use('merchant', a));
      ok(await post('partner', '/edit_card', { id: b.id, status: 2 }));
      ok(await post('partner', '/transfer_card', { ids: [d.id], to_user_id: ids.merchant }));
      const idsOf = async (query: Record<string, string>) =>
        ok(await get<CardListReply>('partner', '/card_list', query)).list.map((r) => r.id);
      const e = (await batch(second.batch_no))[1];
      expect(await idsOf({})).toEqual([e.id, d.id, c.id, b.id, a.id]);
      expect(await idsOf({ batch_no: first.batch_no })).toEqual([c.id, b.id, a.id]);
      expect(await idsOf({ card_no: c.card_no.slice(-5) })).toEqual([c.id]);
      expect(await idsOf({ card_no: '%' })).toEqual([]);
      expect(await idsOf({ card_no: 'pa2603' })).toHaveLength(5);
      expect(await idsOf({ asset: 'digital_voice' })).toEqual([e.id, d.id]);
      expect(await idsOf({ status: '1' })).toEqual([a.id]);
      expect(await idsOf({ status: '2' })).toEqual([b.id]);
      expect(await idsOf({ status: '0' })).toEqual([e.id, d.id, c.id]);
      expect(await idsOf({ status: 'expired' })).toEqual([]);
      expect(await idsOf({ owner_id: String(ids.merchant) })).toEqual([d.id]);
      expect(await idsOf({ used_by: String(ids.merchant) })).toEqual([a.id]);
      expect(await idsOf({ start: String(T0 + 1), end: String(T0 + MINUTE) })).toEqual([
        e.id,
        d.id,
      ]);
      expect(await idsOf({ end: String(T0) })).toEqual([c.id, b.id, a.id]);
      expect(await idsOf({ status: '', asset: '' })).toHaveLength(5);
      t.clock.advance(HOUR);
      expect(await idsOf({ status: 'expired' })).toEqual([c.id]);
      expect(await idsOf({ status: '0' })).toEqual([e.id, d.id]);
      const expired = ok(await get<CardListReply>('partner', '/card_list', { status: 'expired' }))
        .list[0];
      expect(expired).toMatchObject({ status: 0, expired: true, expire_at: T0 + HOUR });

      const page = ok(await get<CardListReply>('partner', '/card_list', { page: '2', limit: '2' }));
      expect(page.total).toBe(5);
      expect(page.list.map((r) => r.id)).toEqual([c.id, b.id]);
      refused(
        await get('partner', '/card_list', { limit: '1001' }),
        'Rows per page: a whole number from 1 to 1000',
      );
      refused(await get('partner', '/card_list', { status: '3' }), 'status: Invalid value');
      refused(
        await get('partner', '/card_list', { start: '2', end: '1' }),
        'The start date must not be after the end date',
      );
    });

    it('can_operate_card_list: unused, unexpired cards the caller holds', async () => {
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: 5,
        quantity: 4,
        expire_at: T0 + HOUR,
      });
      const later = await add('partner', { asset: 'digital_voice', face_value: 1, quantity: 1 });
      const [a, b, c, d] = await batch(batch_no);
      const [e] = await batch(later.batch_no);
      ok(await use('merchant', a));
      ok(await post('partner', '/edit_card', { id: b.id, status: 2 }));
      ok(await post('partner', '/transfer_card', { ids: [c.id], to_user_id: ids.merchant }));
      const idsOf = async (query: Record<string, string> = {}) =>
        ok(await get<CardListReply>('partner', '/can_operate_card_list', query)).list.map(
          (r) => r.id,
        );
      expect(await idsOf()).toEqual([e.id, d.id]);
      expect(await idsOf({ asset: 'money' })).toEqual([d.id]);
      const reply = ok(
        await get<CardListReply>('partner', '/can_operate_card_list', { limit: '1' }),
      );
      expect(reply.total).toBe(2);
      expect(reply.list[0]).toMatchObject({ id: e.id, card_pwd: e.card_pwd, pwd_masked: false });
      t.clock.advance(HOUR);
      expect(await idsOf()).toEqual([e.id]);
      refused(
        await get('partner', '/can_operate_card_list', { status: '0' }),
        'Unknown field: status',
      );
    });
  });

  describe('export', () => {
    const download = (ticket: string, headers: Record<string, string> = {}) =>
      t.call('GET', api('/recharge_card/export_data'), { query: { ticket }, headers });
    const ticketFor = async (who: Name, body: Record<string, unknown> = {}) =>
      ok(await post<ExportTicketReply>(who, '/export_ticket', body));
    const csvRows = (raw: string) =>
      raw
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');

    it('streams the filtered cards as CSV once; full passwords only for cards the user holds', async () => {
      // Money is labelled with the brand's name for it on this host (the demo partner's 星币), as
      // the console labels it, in every language.
      const { batch_no } = await add('partner', {
        asset: 'money',
        face_value: '9.90',
        quantity: 3,
        expire_at: T0 + DAY,
      });
      const voice = await add('partner', { asset: 'digital_voice', face_value: 2, quantity: 1 });
      const [a, b, c] = await batch(batch_no);
      ok(await post('partner', '/transfer_card', { ids: [a.id], to_user_id: ids.merchant }));
      ok(await use('merchant', a));
      ok(await post('partner', '/edit_card', { id: b.id, status: 2 }));

      const ticket = await ticketFor('partner', { batch_no });
      expect(ticket.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(ticket.expires_at).toBe(T0 + 60_000);
      expect(ticket.url).toBe(`/api/v1/recharge_card/export_data?ticket=${ticket.ticket}`);
      const stored = await t.db.selectFrom('download_tickets').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ user_id: ids.partner, kind: 'cards', used_at: null });
      expect(stored[0].ticket_hash).not.toContain(ticket.ticket);

      const reply = await download(ticket.ticket);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(reply.headers['content-disposition']).toBe(
        'attachment; filename="cards-2026-03-02.csv"',
      );
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.raw.startsWith('\uFEFF')).toBe(true);
      // The ticket was asked for in en-US; the download itself sends no language.
      expect(csvRows(reply.raw)).toEqual([
        'Card no,Password,Asset,Face value,Status,Expires (UTC+8),Batch',
        `${c.card_no},${c.card_pwd},星币,9.90,Unused,2026-03-03 10:00,${batch_no}`,
        `${b.card_no},${b.card_pwd},星币,9.90,Void,2026-03-03 10:00,${batch_no}`,
        `${a.card_no},${a.card_pwd.slice(0, 4)}********${a.card_pwd.slice(-4)},星币,9.90,Used,2026-03-03 10:00,${batch_no}`,
      ]);

      // Single use.
      const again = await download(ticket.ticket, EN);
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        code: 0,
        msg: 'This download link has expired or was already used. Please export again',
        data: null,
      });

      // A selection, in Chinese; the language of the download's `lang` header wins.
      const [v] = await batch(voice.batch_no);
      const zh = await ticketFor('partner', { ids: [v.id, c.id] });
      const zhReply = await download(zh.ticket, { lang: 'zh-CN' });
      expect(csvRows(zhReply.raw)).toEqual([
        '卡号,卡密,类型,面值,状态,过期时间(UTC+8),批次号',
        `${v.card_no},${v.card_pwd},声音克隆（次）,2,未使用,永久有效,${voice.batch_no}`,
        `${c.card_no},${c.card_pwd},星币,9.90,未使用,2026-03-03 10:00,${batch_no}`,
      ]);
    });

    it('refuses an expired, unknown or malformed ticket, and one whose user was disabled', async () => {
      await add('partner', { asset: 'money', face_value: 1, quantity: 1 });
      const late = await ticketFor('partner');
      t.clock.advance(60_000);
      expect((await download(late.ticket)).status).toBe(410);
      expect((await download('A'.repeat(43))).status).toBe(410);
      const malformed = await download('short', EN);
      expect(malformed.status).toBe(200);
      expect(malformed.body).toEqual({ code: 0, msg: 'ticket: Invalid value', data: null });
      const noTicket = await t.call('GET', api('/recharge_card/export_data'), { headers: EN });
      expect(noTicket.body.code).toBe(0);

      const fresh = await ticketFor('partner');
      await t.db
        .updateTable('users')
        .set({ status: USER_STATUS.disabled })
        .where('id', '=', ids.partner)
        .execute();
      expect((await download(fresh.ticket, EN)).status).toBe(410);
    });

    it('is bound to the user who asked: the scope is theirs whoever downloads', async () => {
      const own = await add('partner2', { asset: 'money', face_value: 1, quantity: 2 });
      await add('partner', { asset: 'money', face_value: 1, quantity: 2 });
      const ticket = await ticketFor('partner2');
      // Sent with partner's session header: the session plays no part.
      const reply = await t.call('GET', api('/recharge_card/export_data'), {
        query: { ticket: ticket.ticket },
        token: tokens.partner,
        headers: EN,
      });
      const rows = csvRows(reply.raw).slice(1);
      const cards = await batch(own.batch_no);
      expect(rows.map((r) => r.split(',')[0])).toEqual(cards.map((c) => c.card_no).reverse());
      expect(rows.map((r) => r.split(',')[1])).toEqual(cards.map((c) => c.card_pwd).reverse());
      // Admin exports everything, masked where the admin is not the holder.
      const all = await download((await ticketFor('admin')).ticket, EN);
      expect(csvRows(all.raw)).toHaveLength(5);
      expect(csvRows(all.raw)[1].split(',')[1]).toMatch(/^[A-Z2-9]{4}\*{8}[A-Z2-9]{4}$/);
      refused(await post('partner', '/export_ticket', { status: 'x' }), 'status: Invalid value');
    });

    it('pages through large exports from the database', async () => {
      for (let i = 0; i < 3; i += 1) {
        await add('admin', {
          asset: 'digital_voice',
          face_value: 1,
          quantity: i === 2 ? 500 : 1000,
        });
      }
      const reply = await download(
        (await ticketFor('admin', { asset: 'digital_voice' })).ticket,
        EN,
      );
      const rows = csvRows(reply.raw);
      expect(rows).toHaveLength(2501);
      const numbers = rows.slice(1).map((r) => r.split(',')[0]);
      expect(new Set(numbers).size).toBe(2500);
      expect(numbers[0]).toBe('P260302002500');
      expect(numbers[2499]).toBe('P260302000001');
      for (const row of rows.slice(1))
        expect(row).toMatch(/^P\d{12},[A-Z2-9]{16},Voice clones,1,Unused,Never,BP\d{12}$/);
    });
  });
});
