import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAmount } from '../../src/api/contract/money';
import type {
  ListReply,
  OrderCreateReply,
  RechargeOrder,
  RechargePackage,
} from '../../src/api/contract/recharge';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { closeExpiredOrders, MAX_OPEN_ORDERS } from '../../server/modules/recharge/service';
import {
  createSandboxPaymentProvider,
  sandboxSecret,
  signSandboxBody,
  SANDBOX_SIGNATURE_HEADER,
  type SandboxPaymentProvider,
} from '../../server/integrations/payment/sandbox';
import { api, createTestApp, engines, MINUTE, snapshot, type Reply, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const PRICE_MSG = 'Price: an amount from 0.01 to 100000000.00 with at most 2 decimals';
const ORDER_NOT_FOUND = { code: 0, msg: 'Order not found', data: null };

/** An independent model of a valid package amount: cents, or undefined when it must be refused. */
function expectedCents(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value).trim());
  if (!match) return undefined;
  const cents = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  if (cents < 1n || cents > 10_000_000_000n) return undefined;
  return Number(cents);
}

const centsOf = (amount: string) => parseAmount('money', amount) as number;

describe.each(engines)('recharge packages and orders on %s', (engine) => {
  let t: TestApp;
  /** A copy of the server's sandbox (same secret): builds the notifications it would send. */
  let sandbox: SandboxPaymentProvider;

  beforeAll(async () => {
    t = await createTestApp(engine);
    sandbox = createSandboxPaymentProvider({
      secret: sandboxSecret(t.app.ctx.config),
      apiBase: '/api/v1',
      deliver: () => Promise.reject(new Error('tests post notifications themselves')),
    });
  });
  afterEach(async () => {
    expect(await reconcile(t.db)).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = <T>(
    method: 'GET' | 'POST',
    path: string,
    token: string | undefined,
    input: { body?: unknown; query?: Record<string, string> } = {},
  ): Promise<Reply<T>> => t.call<T>(method, api(path), { token, headers: EN, ...input });

  const balance = async (username: string) => Number((await t.user(username)).money);

  async function addPackage(token: string, body: Record<string, unknown>) {
    const reply = await call<RechargePackage>('POST', '/recharge_package/add', token, { body });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  async function createOrder(token: string, packageId: number) {
    const reply = await call<OrderCreateReply>('POST', '/recharge_order/create', token, {
      body: { package_id: packageId, pay_way: 'sandbox' },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  const detail = (token: string, orderNo: string) =>
    call<RechargeOrder>('GET', '/recharge_order/detail', token, { query: { order_no: orderNo } });

  /** The notification the sandbox sends when `order` is paid. */
  const notificationOf = (order: OrderCreateReply) =>
    sandbox.notificationFor(
      {
        order_no: order.order_no,
        amount: centsOf(order.amount),
        subject: order.package_name,
        expires_at: order.expires_at,
      },
      t.clock(),
    );

  const postNotification = (headers: Record<string, string>, body: string) =>
    t.call<{ order_no: string; pay_status: string; credited: boolean }>(
      'POST',
      api('/pay/notify/sandbox'),
      { payload: body, headers: { ...headers, ...EN } },
    );

  /** Opens the pay_url and presses "Pay" (a plain form post), as a browser would. */
  async function payThroughCheckout(payUrl: string) {
    const page = await t.call('GET', payUrl, { headers: EN });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.raw).toContain('<button type="submit">Pay</button>');
    const link = new URL(payUrl, 'http://localhost').searchParams;
    const form = new URLSearchParams({
      order_no: link.get('order_no') ?? '',
      sign: link.get('sign') ?? '',
    });
    return t.call('POST', api('/pay/sandbox/pay'), {
      payload: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: EN,
    });
  }

  describe('packages', () => {
    it('admin adds, edits, sorts, switches off and deletes packages; buyers see those on sale', async () => {
      const admin = await t.login('admin');
      const merchant = await t.login('merchant');
      const a = await addPackage(admin, {
        name: '  Starter  ',
        price: '9.9',
        money: 10,
        description: 'first',
      });
      expect(a).toMatchObject({
        name: 'Starter',
        price: '9.90',
        money: '10.00',
        gift_money: '0.00',
        sort: 0,
        status: 1,
        description: 'first',
      });
      const b = await addPackage(admin, {
        name: 'Bonus',
        price: 100,
        money: '100.00',
        gift_money: '12.5',
        sort: 3,
        status: 0,
      });
      expect(b).toMatchObject({ price: '100.00', gift_money: '12.50', sort: 3, status: 0 });

      const edited = await call<RechargePackage>('POST', '/recharge_package/edit', admin, {
        body: { id: a.id, price: '19.99', name: 'Starter+' },
      });
      expect(edited.body).toMatchObject({
        code: 1,
        msg: 'Package saved',
        data: { id: a.id, name: 'Starter+', price: '19.99', money: '10.00' },
      });

      const byName = await call<ListReply<RechargePackage>>(
        'GET',
        '/recharge_package/list',
        admin,
        {
          query: { name: 'starter' },
        },
      );
      expect(byName.body.data.list.map((p) => p.id)).toEqual([a.id]);
      const off = await call<ListReply<RechargePackage>>('GET', '/recharge_package/list', admin, {
        query: { status: '0', name: '' },
      });
      expect(off.body.data.list.map((p) => p.id)).toContain(b.id);
      expect(off.body.data.list.every((p) => p.status === 0)).toBe(true);

      // Buyers: only packages on sale, whatever status they ask for.
      const forSale = await call<ListReply<RechargePackage>>(
        'GET',
        '/recharge_package/list',
        merchant,
        { query: { status: '0', limit: '100' } },
      );
      const saleIds = forSale.body.data.list.map((p) => p.id);
      expect(saleIds).toContain(a.id);
      expect(saleIds).not.toContain(b.id);
      expect(forSale.body.data.list.every((p) => p.status === 1)).toBe(true);

      const switched = await call<RechargePackage>('POST', '/recharge_package/set_status', admin, {
        body: { id: b.id, status: 1 },
      });
      expect(switched.body.data.status).toBe(1);

      // New order: b first, then a; the others keep their sort.
      const sorted = await call('POST', '/recharge_package/sort', admin, {
        body: { ids: [b.id, a.id] },
      });
      expect(sorted.body).toMatchObject({ code: 1, msg: 'Order of packages saved' });
      const all = await call<ListReply<RechargePackage>>('GET', '/recharge_package/list', admin, {
        query: { limit: '100' },
      });
      const ours = all.body.data.list.filter((p) => p.id === a.id || p.id === b.id);
      expect(ours.map((p) => [p.id, p.sort])).toEqual([
        [b.id, 1],
        [a.id, 2],
      ]);
      const keys = all.body.data.list.map((p) => [p.sort, p.id]);
      expect(keys).toEqual([...keys].sort((x, y) => x[0] - y[0] || x[1] - y[1]));

      const deleted = await call('POST', '/recharge_package/delete', admin, { body: { id: a.id } });
      expect(deleted.body).toMatchObject({ code: 1, msg: 'Package deleted' });
      for (const token of [admin, merchant]) {
        const list = await call<ListReply<RechargePackage>>(
          'GET',
          '/recharge_package/list',
          token,
          { query: { limit: '100' } },
        );
        expect(list.body.data.list.map((p) => p.id)).not.toContain(a.id);
      }
      const before = await snapshot(t.db);
      for (const [path, body] of [
        ['/recharge_package/edit', { id: a.id, name: 'again' }],
        ['/recharge_package/set_status', { id: a.id, status: 0 }],
        ['/recharge_package/delete', { id: a.id }],
        ['/recharge_package/sort', { ids: [b.id, a.id] }],
        ['/recharge_package/edit', { id: 999_999, name: 'ghost' }],
      ] as const) {
        const reply = await call('POST', path, admin, { body });
        expect(reply.body, path).toEqual({ code: 0, msg: 'Package not found', data: null });
      }
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses bad package fields with a clear message and changes nothing', async () => {
      const admin = await t.login('admin');
      const good = { name: 'Valid', price: '1.00', money: '1.00' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...good, price: '-1' }, PRICE_MSG],
        [{ ...good, price: -5 }, PRICE_MSG],
        [{ ...good, price: '0' }, PRICE_MSG],
        [{ ...good, price: 0 }, PRICE_MSG],
        [{ ...good, price: '0.00' }, PRICE_MSG],
        [{ ...good, price: '1.234' }, PRICE_MSG],
        [{ ...good, price: 12.345 }, PRICE_MSG],
        [{ ...good, price: '100000000.01' }, PRICE_MSG],
        [{ ...good, price: '99999999999999999999' }, PRICE_MSG],
        [{ ...good, price: 1e21 }, PRICE_MSG],
        [{ ...good, price: '1e3' }, PRICE_MSG],
        [{ ...good, price: 'ten' }, PRICE_MSG],
        [{ ...good, price: '' }, PRICE_MSG],
        [{ ...good, price: null }, PRICE_MSG],
        [{ ...good, price: true }, PRICE_MSG],
        [{ ...good, price: ['1'] }, PRICE_MSG],
        [{ name: 'No price', money: '1' }, PRICE_MSG],
        [
          { ...good, money: '0' },
          'Credited money: an amount from 0.01 to 100000000.00 with at most 2 decimals',
        ],
        [
          { ...good, gift_money: '-0.01' },
          'Gift: an amount from 0 to 100000000.00 with at most 2 decimals',
        ],
        [{ ...good, name: '' }, 'Package name: 1 to 30 characters'],
        [{ ...good, name: '   ' }, 'Package name: 1 to 30 characters'],
        [{ ...good, name: 'x'.repeat(31) }, 'Package name: 1 to 30 characters'],
        [{ ...good, description: 'd'.repeat(201) }, 'description: Too long'],
        [{ ...good, sort: -1 }, 'Sort: a whole number from 0 to 999999'],
        [{ ...good, sort: 1.5 }, 'Sort: a whole number from 0 to 999999'],
        [{ ...good, status: 2 }, 'status: Invalid value'],
        [{ ...good, owner_id: 1 }, 'Unknown field: owner_id'],
      ];
      const before = await snapshot(t.db);
      for (const [body, message] of cases) {
        const reply = await call('POST', '/recharge_package/add', admin, { body });
        expect(reply.status, JSON.stringify(body)).toBe(200);
        expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg: message, data: null });
      }
      const editCases: [Record<string, unknown>, string][] = [
        [{ id: 1, price: '0' }, PRICE_MSG],
        [{ id: 1 }, 'Nothing to change'],
        [{ id: 0, name: 'x' }, 'Choose a package'],
      ];
      for (const [body, message] of editCases) {
        const reply = await call('POST', '/recharge_package/edit', admin, { body });
        expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg: message, data: null });
      }
      for (const ids of [[], [1, 1], ['x'], 'all']) {
        const reply = await call('POST', '/recharge_package/sort', admin, { body: { ids } });
        expect(reply.body.msg, JSON.stringify(ids)).toBe(
          'List each package once, in the new order',
        );
      }
      const zh = await t.call('POST', api('/recharge_package/add'), {
        token: admin,
        body: { ...good, price: '1.001' },
        headers: { lang: 'zh-CN' },
      });
      expect(zh.body.msg).toBe('价格须为 0.01–100000000.00 之间、最多两位小数的金额');
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('property: any price is either stored exactly or refused without a trace', async () => {
      const admin = await t.login('admin');
      const priceInput = fc.oneof(
        fc.string({ maxLength: 14 }),
        fc.integer({ min: -1000, max: 20_000_000_000 }),
        fc.double(),
        fc
          .tuple(fc.integer({ min: -3, max: 200_000_000 }), fc.integer({ min: 0, max: 1999 }))
          .map(([whole, part]) => `${whole}.${part}`),
        fc.constantFrom(
          '0',
          '0.00',
          '00.10',
          ' 12.5 ',
          '12.',
          '.5',
          '100000000.00',
          '100000000.01',
        ),
        fc.constantFrom(null, true, [], {}),
      );
      const count = async () => ({
        packages: (await t.db.selectFrom('recharge_packages').select('id').execute()).length,
        // A refusal records only that it was refused (result `refused`).
        audit: (
          await t.db.selectFrom('audit_log').select('id').where('result', '=', 'ok').execute()
        ).length,
      });
      await fc.assert(
        fc.asyncProperty(priceInput, async (price) => {
          const sent = JSON.parse(JSON.stringify({ price }) ?? '{}').price as unknown;
          const expected = expectedCents(sent);
          const before = await count();
          const reply = await call<RechargePackage>('POST', '/recharge_package/add', admin, {
            body: { name: 'Prop', price, money: '1' },
          });
          expect(reply.status).toBe(200);
          if (expected === undefined) {
            expect(reply.body).toEqual({ code: 0, msg: PRICE_MSG, data: null });
            expect(await count()).toEqual(before);
          } else {
            expect(reply.body.code, reply.raw).toBe(1);
            expect(centsOf(reply.body.data.price)).toBe(expected);
            const stored = await t.db
              .selectFrom('recharge_packages')
              .select('price')
              .where('id', '=', reply.body.data.id)
              .executeTakeFirstOrThrow();
            expect(Number(stored.price)).toBe(expected);
            await call('POST', '/recharge_package/delete', admin, {
              body: { id: reply.body.data.id },
            });
          }
        }),
        { numRuns: engine === 'postgres' ? 60 : 120 },
      );
    });
  });

  describe('orders and payment', () => {
    let pkg: RechargePackage;
    beforeAll(async () => {
      pkg = await addPackage(await t.login('admin'), {
        name: 'Hundred',
        price: '99.00',
        money: '100.00',
        gift_money: '10.50',
      });
    });

    it('a merchant creates a pending order that expires in 30 minutes; admin and agent may not buy', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      expect(order).toMatchObject({
        package_name: 'Hundred',
        amount: '99.00',
        money: '100.00',
        gift_money: '10.50',
        pay_way: 'sandbox',
        pay_status: 'pending',
        created_at: t.clock(),
        expires_at: t.clock() + 30 * MINUTE,
      });
      expect(order.order_no).toMatch(/^RC\d{6}\d{8}$/);
      expect(order.pay_url).toMatch(
        new RegExp(`^/api/v1/pay/sandbox/checkout\\?order_no=${order.order_no}&sign=[0-9a-f]{32}$`),
      );
      const shown = await detail(merchant, order.order_no);
      expect(shown.body.data).toMatchObject({
        order_no: order.order_no,
        username: 'merchant',
        pay_status: 'pending',
        transaction_id: null,
        paid_at: null,
        closed_at: null,
      });

      for (const who of ['admin', 'agent']) {
        const reply = await call('POST', '/recharge_order/create', await t.login(who), {
          body: { package_id: pkg.id, pay_way: 'sandbox' },
        });
        expect(reply.status, who).toBe(403);
      }
    });

    it('refuses orders for missing, deleted or off-sale packages and unknown payment methods', async () => {
      const admin = await t.login('admin');
      const partner = await t.login('partner');
      const gone = await addPackage(admin, { name: 'Gone', price: '1', money: '1' });
      await call('POST', '/recharge_package/delete', admin, { body: { id: gone.id } });
      const off = await addPackage(admin, { name: 'Off', price: '1', money: '1', status: 0 });
      const before = await snapshot(t.db);
      const cases: [Record<string, unknown>, string][] = [
        [{ package_id: 999_999, pay_way: 'sandbox' }, 'Package not found'],
        [{ package_id: gone.id, pay_way: 'sandbox' }, 'Package not found'],
        [{ package_id: off.id, pay_way: 'sandbox' }, 'This package is not on sale'],
        [{ package_id: pkg.id, pay_way: 'wechat' }, 'Choose a payment method'],
        [{ package_id: pkg.id }, 'Choose a payment method'],
        [{ package_id: 'x', pay_way: 'sandbox' }, 'Choose a package'],
      ];
      for (const [body, message] of cases) {
        const reply = await call('POST', '/recharge_order/create', partner, { body });
        expect(reply.body, JSON.stringify(body)).toEqual({ code: 0, msg: message, data: null });
      }
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('paying on the sandbox checkout credits money + gift once, through the notification', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      const before = await balance('merchant');
      const payments = async () =>
        Number(
          (
            await t.db
              .selectFrom('system_accounts')
              .select('balance')
              .where('account', '=', 'payments')
              .where('asset', '=', 'money')
              .executeTakeFirst()
          )?.balance ?? 0,
        );
      const paymentsBefore = await payments();

      const paid = await payThroughCheckout(order.pay_url);
      expect(paid.status).toBe(303);
      expect(paid.headers.location).toBe(order.pay_url);
      expect(await balance('merchant')).toBe(before + 11_050);
      expect(await payments()).toBe(paymentsBefore - 11_050);

      const shown = await detail(merchant, order.order_no);
      expect(shown.body.data).toMatchObject({
        pay_status: 'paid',
        paid_at: t.clock(),
        transaction_id: expect.stringMatching(/^SBX[0-9A-F]{24}$/),
      });
      const ledger = await t.db
        .selectFrom('ledger')
        .selectAll()
        .where('related_type', '=', 'recharge_order')
        .where('related_id', '=', shown.body.data.id)
        .execute();
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({
        user_id: (await t.user('merchant')).id,
        asset: 'money',
        type: 'recharge',
        memo: 'Hundred',
      });
      expect(Number(ledger[0].change)).toBe(11_050);

      // The page now says paid and has no button; pressing "Pay" again changes nothing.
      const page = await t.call('GET', order.pay_url, { headers: EN });
      expect(page.raw).toContain('Paid. You can close this page.');
      expect(page.raw).not.toContain('<button');
      const snap = await snapshot(t.db, ['sessions']);
      const repost = await t.call('POST', api('/pay/sandbox/pay'), {
        payload: new URLSearchParams(new URL(order.pay_url, 'http://x').search).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(repost.status).toBe(303);
      expect(await snapshot(t.db, ['sessions'])).toEqual(snap);
    });

    it('a replayed notification (same transaction id) succeeds and credits nothing more', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      const { headers, body } = notificationOf(order);
      const before = await balance('merchant');
      const first = await postNotification(headers, body);
      expect(first.body).toEqual({
        code: 1,
        msg: 'Payment received',
        data: { order_no: order.order_no, pay_status: 'paid', credited: true },
      });
      expect(await balance('merchant')).toBe(before + 11_050);
      const snap = await snapshot(t.db);
      for (let i = 0; i < 3; i += 1) {
        const replay = await postNotification(headers, body);
        expect(replay.status).toBe(200);
        expect(replay.body.data).toEqual({
          order_no: order.order_no,
          pay_status: 'paid',
          credited: false,
        });
      }
      expect(await snapshot(t.db)).toEqual(snap);
    });

    it('20 concurrent identical notifications credit exactly once', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      const { headers, body } = notificationOf(order);
      const before = await balance('merchant');
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => postNotification(headers, body)),
      );
      for (const reply of replies) {
        expect(reply.status, reply.raw).toBe(200);
        expect(reply.body.code).toBe(1);
      }
      expect(replies.filter((r) => r.body.data.credited)).toHaveLength(1);
      expect(await balance('merchant')).toBe(before + 11_050);
      const rows = await t.db
        .selectFrom('ledger')
        .select('id')
        .where('related_type', '=', 'recharge_order')
        .where('related_id', '=', (await detail(merchant, order.order_no)).body.data.id)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('refuses bad signatures, tampered bodies, amount mismatches and unknown orders, changing nothing', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      const { headers, body } = notificationOf(order);
      const secret = sandboxSecret(t.app.ctx.config);
      const signed = (text: string) => ({
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(secret, text),
      });
      const tampered = body.replace('"99.00"', '"0.01"');
      const mismatch = JSON.stringify({ ...JSON.parse(body), amount: '9.90' });
      const unknown = JSON.stringify({ ...JSON.parse(body), order_no: 'RC26010100000000' });
      const cases: [Record<string, string>, string, number, string][] = [
        [
          { 'content-type': 'application/json' },
          body,
          400,
          'The notification signature is not valid',
        ],
        [
          { ...headers, [SANDBOX_SIGNATURE_HEADER]: signSandboxBody('wrong-secret', body) },
          body,
          400,
          'The notification signature is not valid',
        ],
        [headers, tampered, 400, 'The notification signature is not valid'],
        [headers, `${body} `, 400, 'The notification signature is not valid'],
        [signed(mismatch), mismatch, 400, 'The amount paid does not match the order'],
        [signed(unknown), unknown, 404, 'Order not found'],
        [signed('not json'), 'not json', 400, 'The payment notification is malformed'],
        [signed('{"order_no":1}'), '{"order_no":1}', 400, 'The payment notification is malformed'],
      ];
      const before = await snapshot(t.db);
      for (const [h, text, status, message] of cases) {
        const reply = await postNotification(h, text);
        expect(reply.status, text).toBe(status);
        expect(reply.body, text).toEqual({ code: 0, msg: message, data: null });
      }
      // A body that is not JSON at all, and none.
      const plain = await t.call('POST', api('/pay/notify/sandbox'), {
        payload: body,
        contentType: 'text/plain',
        headers: { [SANDBOX_SIGNATURE_HEADER]: 'sha256=00', ...EN },
      });
      expect(plain.status).toBe(400);
      const empty = await t.call('POST', api('/pay/notify/sandbox'), { headers: EN });
      expect(empty.status).toBe(400);
      expect(await snapshot(t.db)).toEqual(before);
      expect((await detail(merchant, order.order_no)).body.data.pay_status).toBe('pending');
    });

    it('a tampered checkout link shows "not valid" and pays nothing', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      const before = await snapshot(t.db, ['sessions']);
      const last = order.pay_url.slice(-1);
      const badSign = `${order.pay_url.slice(0, -1)}${last === '0' ? '1' : '0'}`;
      const page = await t.call('GET', badSign, { headers: EN });
      expect(page.status).toBe(404);
      expect(page.raw).toContain('This payment link is not valid.');
      const pay = await t.call('POST', api('/pay/sandbox/pay'), {
        payload: new URLSearchParams(new URL(badSign, 'http://x').search).toString(),
        contentType: 'application/x-www-form-urlencoded',
        headers: EN,
      });
      expect(pay.status).toBe(404);
      expect(await snapshot(t.db, ['sessions'])).toEqual(before);
    });

    it('the checkout page follows the console’s language and time zone, also after paying', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      // The console adds its language and zone to the link; the browser itself asks for English.
      const link = `${order.pay_url}&lang=zh-CN&tz=${encodeURIComponent('America/New_York')}`;
      const newYork = new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'America/New_York',
        dateStyle: 'short',
        timeStyle: 'short',
      }).format(order.expires_at);
      const page = await t.call('GET', link, { headers: EN });
      expect(page.raw).toContain('<html lang="zh-CN">');
      expect(page.raw).toContain('<button type="submit">支付</button>');
      expect(page.raw).toContain(`<dd>${newYork}</dd>`);
      expect(page.raw).not.toContain('UTC+8');
      const form = new URLSearchParams(new URL(link, 'http://x').search).toString();
      const paid = await t.call('POST', api('/pay/sandbox/pay'), {
        payload: form,
        contentType: 'application/x-www-form-urlencoded',
        headers: EN,
      });
      expect(paid.status).toBe(303);
      const after = await t.call('GET', String(paid.headers.location), { headers: EN });
      expect(after.raw).toContain('支付成功，可以关闭此页面。');
      expect(after.raw).toContain(`<dd>${newYork}</dd>`);
      // Without them: the browser's language, Shanghai time, said so.
      const plain = await t.call('GET', order.pay_url, { headers: EN });
      expect(plain.raw).toContain('<html lang="en-US">');
      expect(plain.raw).toMatch(/<dd>\d{4}-\d\d-\d\d \d\d:\d\d \(UTC\+8\)<\/dd>/);
    });

    it('an unpaid order closes after 30 minutes; a late payment is still credited', async () => {
      const merchant = await t.login('merchant');
      const order = await createOrder(merchant, pkg.id);
      t.clock.advance(29 * MINUTE);
      expect(await closeExpiredOrders(t.app.ctx)).toBe(0);
      expect((await detail(merchant, order.order_no)).body.data.pay_status).toBe('pending');

      t.clock.advance(2 * MINUTE);
      // Reading shows it closed before the job has run.
      const early = await detail(merchant, order.order_no);
      expect(early.body.data).toMatchObject({ pay_status: 'closed', closed_at: order.expires_at });
      const row = () =>
        t.db
          .selectFrom('recharge_orders')
          .selectAll()
          .where('order_no', '=', order.order_no)
          .executeTakeFirstOrThrow();
      expect((await row()).pay_status).toBe('pending');
      expect(await closeExpiredOrders(t.app.ctx)).toBeGreaterThanOrEqual(1);
      expect(await row()).toMatchObject({ pay_status: 'closed' });
      expect(Number((await row()).closed_at)).toBe(order.expires_at);
      expect(await closeExpiredOrders(t.app.ctx)).toBe(0);

      // The checkout page no longer offers to pay.
      const page = await t.call('GET', order.pay_url, { headers: EN });
      expect(page.raw).toContain('This order has closed and can no longer be paid.');
      expect(page.raw).not.toContain('<button');

      // The customer paid at the provider just before it closed; the notification arrives late.
      const before = await balance('merchant');
      const { headers, body } = notificationOf(order);
      const late = await postNotification(headers, body);
      expect(late.body).toMatchObject({ code: 1, data: { pay_status: 'paid', credited: true } });
      expect(await balance('merchant')).toBe(before + 11_050);
      const after = await detail(merchant, order.order_no);
      expect(after.body.data).toMatchObject({ pay_status: 'paid', closed_at: order.expires_at });
    });

    it('scope: admin sees all orders, a partner its subtree, a merchant its own; others look missing', async () => {
      const tokens = {
        admin: await t.login('admin'),
        partner: await t.login('partner'),
        partner2: await t.login('partner2'),
        merchant: await t.login('merchant'),
        merchant2: await t.login('merchant2'),
      };
      const mine = await createOrder(tokens.merchant, pkg.id);
      const partnersOwn = await createOrder(tokens.partner, pkg.id);
      const other = await createOrder(tokens.merchant2, pkg.id);

      // Not yours and not there answer alike.
      const missing = await detail(tokens.partner2, 'RC99999999999999');
      expect(missing.body).toEqual(ORDER_NOT_FOUND);
      for (const [who, orderNo] of [
        ['partner2', mine.order_no],
        ['partner2', partnersOwn.order_no],
        ['merchant2', mine.order_no],
        ['merchant', other.order_no],
        ['merchant', partnersOwn.order_no],
        ['partner', other.order_no],
      ] as const) {
        const reply = await detail(tokens[who], orderNo);
        expect(reply.status).toBe(200);
        expect(reply.body, `${who} ${orderNo}`).toEqual(missing.body);
      }
      for (const [who, orderNo] of [
        ['admin', mine.order_no],
        ['admin', other.order_no],
        ['partner', mine.order_no],
        ['partner', partnersOwn.order_no],
        ['partner2', other.order_no],
        ['merchant', mine.order_no],
        ['merchant2', other.order_no],
      ] as const) {
        expect((await detail(tokens[who], orderNo)).body.code, `${who} ${orderNo}`).toBe(1);
      }

      const list = async (who: keyof typeof tokens, query: Record<string, string> = {}) => {
        const reply = await call<ListReply<RechargeOrder>>(
          'GET',
          '/recharge_order/list',
          tokens[who],
          { query: { limit: '100', ...query } },
        );
        expect(reply.body.code, reply.raw).toBe(1);
        return reply.body.data;
      };
      const partnerId = (await t.user('partner')).id;
      const partner2Id = (await t.user('partner2')).id;
      const ofPartner = await list('partner');
      expect(ofPartner.list.every((o) => o.service_id === partnerId)).toBe(true);
      expect(ofPartner.list.map((o) => o.order_no)).toEqual(
        expect.arrayContaining([mine.order_no, partnersOwn.order_no]),
      );
      expect(ofPartner.list.map((o) => o.order_no)).not.toContain(other.order_no);
      const ofPartner2 = await list('partner2');
      expect(ofPartner2.list.map((o) => o.order_no)).toEqual([other.order_no]);
      expect(ofPartner2.list.every((o) => o.service_id === partner2Id)).toBe(true);
      const all = await list('admin');
      expect(all.total).toBe(ofPartner.total + ofPartner2.total);
      expect(all.list.map((o) => o.id)).toEqual(
        [...all.list.map((o) => o.id)].sort((a, b) => b - a),
      );

      // Filters: number (prefix), buyer, status, time.
      expect(
        (await list('admin', { order_no: mine.order_no })).list.map((o) => o.order_no),
      ).toEqual([mine.order_no]);
      expect((await list('admin', { order_no: 'RC' })).total).toBe(all.total);
      expect((await list('admin', { keyword: 'MERCHANT2' })).list.map((o) => o.order_no)).toEqual([
        other.order_no,
      ]);
      const merchantId = (await t.user('merchant')).id;
      const byUser = await list('partner', { user_id: String(merchantId) });
      expect(byUser.list.every((o) => o.user_id === merchantId)).toBe(true);
      expect((await list('partner2', { user_id: String(merchantId) })).total).toBe(0);
      const pending = await list('admin', { pay_status: 'pending' });
      expect(pending.list.map((o) => o.order_no).sort()).toEqual(
        [mine.order_no, partnersOwn.order_no, other.order_no].sort(),
      );
      const paid = await list('admin', { pay_status: 'paid' });
      expect(paid.total).toBeGreaterThan(0);
      expect(paid.list.every((o) => o.pay_status === 'paid' && o.transaction_id)).toBe(true);
      const closed = await list('admin', { pay_status: 'closed' });
      expect(closed.list.every((o) => o.pay_status === 'closed')).toBe(true);
      const now = String(t.clock());
      expect((await list('admin', { start: now, end: now })).total).toBe(3);
      expect((await list('admin', { start: String(t.clock() + 1) })).total).toBe(0);
      const paged = await list('admin', { limit: '2', page: '2' });
      expect(paged.list).toHaveLength(2);
      expect(paged.total).toBe(all.total);
      const bad = await call('GET', '/recharge_order/list', tokens.admin, {
        query: { start: '10', end: '5' },
      });
      expect(bad.body.msg).toBe('The start date must not be after the end date');

      // A merchant lists its own orders only (its property page), with the same filters.
      const ofMerchant = await list('merchant');
      expect(ofMerchant.list.map((o) => o.order_no)).toContain(mine.order_no);
      expect(ofMerchant.list.every((o) => o.user_id === merchantId)).toBe(true);
      expect((await list('merchant', { order_no: other.order_no })).total).toBe(0);
      expect((await list('merchant', { order_no: mine.order_no })).total).toBe(1);
      const ofMerchant2 = await list('merchant2');
      expect(ofMerchant2.list.map((o) => o.order_no)).toContain(other.order_no);
      expect(ofMerchant2.list.map((o) => o.order_no)).not.toContain(mine.order_no);
    });

    it(`a buyer holds at most ${MAX_OPEN_ORDERS} unpaid orders at once`, async () => {
      const partner2 = await t.login('partner2');
      const open = await t.db
        .selectFrom('recharge_orders')
        .select('id')
        .where('user_id', '=', (await t.user('partner2')).id)
        .where('pay_status', '=', 'pending')
        .where('expires_at', '>', t.clock())
        .execute();
      for (let i = open.length; i < MAX_OPEN_ORDERS; i += 1) await createOrder(partner2, pkg.id);
      const refused = await call('POST', '/recharge_order/create', partner2, {
        body: { package_id: pkg.id, pay_way: 'sandbox' },
      });
      expect(refused.body).toEqual({
        code: 0,
        msg: `You have ${MAX_OPEN_ORDERS} unpaid orders. Pay them or wait until they close`,
        data: null,
      });
      t.clock.advance(31 * MINUTE);
      await createOrder(partner2, pkg.id);
    });

    it(`orders sent at once still stop at ${MAX_OPEN_ORDERS} unpaid`, async () => {
      const partner2 = await t.login('partner2');
      const id = (await t.user('partner2')).id;
      const openOrders = async () =>
        (
          await t.db
            .selectFrom('recharge_orders')
            .select('id')
            .where('user_id', '=', id)
            .where('pay_status', '=', 'pending')
            .where('expires_at', '>', t.clock())
            .execute()
        ).length;
      const before = await openOrders();
      const replies = await Promise.all(
        Array.from({ length: MAX_OPEN_ORDERS - before + 3 }, () =>
          call('POST', '/recharge_order/create', partner2, {
            body: { package_id: pkg.id, pay_way: 'sandbox' },
          }),
        ),
      );
      expect(replies.filter((r) => r.body.code === 1)).toHaveLength(MAX_OPEN_ORDERS - before);
      expect(replies.filter((r) => r.body.code !== 1)).toHaveLength(3);
      expect(await openOrders()).toBe(MAX_OPEN_ORDERS);
    });

    it('an order keeps its price when the package changes later', async () => {
      const admin = await t.login('admin');
      const merchant = await t.login('merchant');
      const own = await addPackage(admin, { name: 'Changing', price: '5', money: '6' });
      const order = await createOrder(merchant, own.id);
      await call('POST', '/recharge_package/edit', admin, {
        body: { id: own.id, price: '50', money: '60' },
      });
      await call('POST', '/recharge_package/delete', admin, { body: { id: own.id } });
      const before = await balance('merchant');
      const { headers, body } = notificationOf(order);
      expect((await postNotification(headers, body)).body.code).toBe(1);
      expect(await balance('merchant')).toBe(before + 600);
      expect((await detail(merchant, order.order_no)).body.data).toMatchObject({
        package_name: 'Changing',
        amount: '5.00',
        money: '6.00',
        pay_status: 'paid',
      });
    });
  });

  it('with the sandbox turned off, orders cannot use it and its pages do not exist', async () => {
    const off = await createTestApp(engine, { config: { paymentSandbox: false } });
    try {
      const partner = await off.login('partner');
      const pkgs = await off.get<ListReply<RechargePackage>>('/recharge_package/list', {}, partner);
      const reply = await off.call('POST', api('/recharge_order/create'), {
        token: partner,
        body: { package_id: pkgs.body.data.list[0].id, pay_way: 'sandbox' },
        headers: EN,
      });
      expect(reply.body).toEqual({
        code: 0,
        msg: 'Test payments (sandbox) are turned off: they are available only with demo data or PAYMENT_SANDBOX=1',
        data: null,
      });
      const notify = await off.call('POST', api('/pay/notify/sandbox'), { body: {} });
      expect(notify.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
