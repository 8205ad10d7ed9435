import { afterEach, describe, expect, it } from 'vitest';
import type { OrderCreateReply, RechargePackage } from '../../src/api/contract/recharge';
import { loadConfig } from '../../server/platform/config';
import { holdsDemoData } from '../../server/modules/system/demo-data';
import {
  createSandboxPaymentProvider,
  sandboxSecret,
  type SandboxPaymentProvider,
} from '../../server/integrations/payment/sandbox';
import { api, createTestApp, engines, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const OFF =
  'Test payments (sandbox) are turned off: they are available only with demo data or PAYMENT_SANDBOX=1';

describe('PAYMENT_SANDBOX', () => {
  it('is on, off, or unset (the data decides)', () => {
    expect(loadConfig({}).paymentSandbox).toBeUndefined();
    expect(loadConfig({ PAYMENT_SANDBOX: ' ' }).paymentSandbox).toBeUndefined();
    expect(loadConfig({ PAYMENT_SANDBOX: '1' }).paymentSandbox).toBe(true);
    expect(loadConfig({ PAYMENT_SANDBOX: 'on' }).paymentSandbox).toBe(true);
    expect(loadConfig({ PAYMENT_SANDBOX: '0' }).paymentSandbox).toBe(false);
    expect(loadConfig({ PAYMENT_SANDBOX: 'false' }).paymentSandbox).toBe(false);
    expect(() => loadConfig({ PAYMENT_SANDBOX: 'maybe' })).toThrow(/PAYMENT_SANDBOX/);
  });
});

describe.each(engines)('the sandbox payment provider on %s', (engine) => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  /** A database like one started with DEMO=0: the same rows, without the demo mark. */
  async function withoutDemoMark(app: TestApp) {
    await app.db.deleteFrom('platform_config').where('name', '=', 'demo_data').execute();
    expect(await holdsDemoData(app.db)).toBe(false);
  }

  async function order(app: TestApp) {
    const partner = await app.login('partner');
    const pkgs = await app.get<{ list: RechargePackage[] }>('/recharge_package/list', {}, partner);
    return app.call<OrderCreateReply>('POST', api('/recharge_order/create'), {
      token: partner,
      body: { package_id: pkgs.body.data.list[0].id, pay_way: 'sandbox' },
      headers: EN,
    });
  }

  function copyOfSandbox(app: TestApp): SandboxPaymentProvider {
    return createSandboxPaymentProvider({
      secret: sandboxSecret(app.app.ctx.config),
      apiBase: '/api/v1',
      deliver: () => Promise.reject(new Error('not used')),
    });
  }

  it('is on by default with the demo data', async () => {
    t = await createTestApp(engine);
    expect(await holdsDemoData(t.db)).toBe(true);
    const reply = await order(t);
    expect(reply.body.code, reply.raw).toBe(1);
    const page = await t.call('GET', reply.body.data.pay_url, { headers: EN });
    expect(page.status).toBe(200);
    expect(page.raw).toContain('<title>Test payment (sandbox)</title>');
    expect(page.raw).toContain('A test payment: no real money is charged.');
  });

  it('is off by default without the demo data: orders, its pages and its notifications are refused', async () => {
    t = await createTestApp(engine);
    // An order made while the sandbox was on, paid after it went off, must credit nothing.
    const earlier = await order(t);
    expect(earlier.body.code).toBe(1);
    await withoutDemoMark(t);
    const before = Number((await t.user('partner')).money);

    expect((await order(t)).body).toEqual({ code: 0, msg: OFF, data: null });

    const page = await t.call('GET', earlier.body.data.pay_url, { headers: EN });
    expect(page.status).toBe(404);
    expect(page.raw).toContain('Test payments are turned off on this installation.');
    expect(page.raw).not.toContain('<form');
    const link = new URL(earlier.body.data.pay_url, 'http://localhost').searchParams;
    const pay = await t.call('POST', api('/pay/sandbox/pay'), {
      payload: new URLSearchParams({
        order_no: link.get('order_no') ?? '',
        sign: link.get('sign') ?? '',
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: EN,
    });
    expect(pay.status).toBe(404);

    const { headers, body } = copyOfSandbox(t).notificationFor(
      {
        order_no: earlier.body.data.order_no,
        amount: Math.round(Number(earlier.body.data.amount) * 100),
        subject: earlier.body.data.package_name,
        expires_at: earlier.body.data.expires_at,
      },
      t.clock(),
    );
    const notify = await t.call('POST', api('/pay/notify/sandbox'), {
      payload: body,
      headers: { ...headers, ...EN },
    });
    expect(notify.status).toBe(404);
    expect(notify.body).toEqual({ code: 0, msg: OFF, data: null });
    expect(Number((await t.user('partner')).money)).toBe(before);
  });

  it('is on without the demo data when PAYMENT_SANDBOX=1, and off with demo data when 0', async () => {
    t = await createTestApp(engine, { config: { paymentSandbox: true } });
    await withoutDemoMark(t);
    expect((await order(t)).body.code).toBe(1);
    await t.close();
    t = await createTestApp(engine, { config: { paymentSandbox: false } });
    expect((await order(t)).body).toEqual({ code: 0, msg: OFF, data: null });
  });
});
