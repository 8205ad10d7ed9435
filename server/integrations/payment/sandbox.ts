import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { formatUnits, parseAmount } from '../../../src/api/contract/money';
import { keptSecret } from '../../platform/lib/secrets';
import type { Deliver, PaymentOrder, PaymentProvider } from './types';

/**
 * The embedded sandbox (no payment network, no real money): its checkout page has a "Pay"
 * button; paying sends a notification signed with HMAC-SHA256 to the same endpoint a real
 * provider calls, through the server's own HTTP stack.
 */
export interface SandboxPaymentProvider extends PaymentProvider {
  readonly way: 'sandbox';
  /** True when `sign` is the one in the order's pay_url (only its holder may open the page). */
  checkCheckoutSign(orderNo: string, sign: string): boolean;
  /** The customer pressed "Pay": notify the server; resolves with the endpoint's answer. */
  pay(order: PaymentOrder, paidAt: number): Promise<{ status: number; body: string }>;
  /** The signed notification `pay` sends (tests replay and tamper with it). */
  notificationFor(
    order: PaymentOrder,
    paidAt: number,
  ): { headers: Record<string, string>; body: string };
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_SECRET_FILE = 'payment-sandbox.secret';

/** `sha256=<hex HMAC-SHA256 of the raw body>`. */
export function signSandboxBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The sandbox's signing secret: `PAYMENT_SANDBOX_SECRET`, else a random one kept in
 * `DATA_DIR/payment-sandbox.secret` (server/platform/lib/secrets.ts).
 */
export function sandboxSecret(config: { dataDir: string; paymentSandboxSecret?: string }): string {
  return keptSecret(config.dataDir, SANDBOX_SECRET_FILE, config.paymentSandboxSecret);
}

const notificationSchema = z.strictObject({
  order_no: z.string().regex(/^[A-Za-z0-9]{1,40}$/),
  transaction_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** CNY, 2 decimals. */
  amount: z.string(),
  paid_at: z.number().int().min(0).max(8_640_000_000_000_000),
});

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface SandboxOptions {
  secret: string;
  /** Where the server's API lives, e.g. `/api/v1` (pay_url and the notification URL). */
  apiBase: string;
  deliver: Deliver;
}

export function createSandboxPaymentProvider(options: SandboxOptions): SandboxPaymentProvider {
  const { secret, apiBase, deliver } = options;
  const mac = (purpose: string, orderNo: string) =>
    createHmac('sha256', secret).update(`${purpose}:${orderNo}`).digest('hex');
  const checkoutSign = (orderNo: string) => mac('checkout', orderNo).slice(0, 32);

  const notificationFor = (order: PaymentOrder, paidAt: number) => {
    const body = JSON.stringify({
      order_no: order.order_no,
      // One payment per order, as with a real provider's prepay id: paying twice is a replay.
      transaction_id: `SBX${mac('transaction', order.order_no).slice(0, 24).toUpperCase()}`,
      amount: formatUnits('money', order.amount),
      paid_at: paidAt,
    });
    return {
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(secret, body),
      },
      body,
    };
  };

  return {
    way: 'sandbox',
    async createPayment(order) {
      const query = new URLSearchParams({
        order_no: order.order_no,
        sign: checkoutSign(order.order_no),
      });
      return { pay_url: `${apiBase}/pay/sandbox/checkout?${query}` };
    },
    verifyNotification(headers, rawBody) {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const given = Array.isArray(header) ? header[0] : header;
      if (!given || !sameText(given, signSandboxBody(secret, rawBody))) {
        return { ok: false, reason: 'signature' };
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const result = notificationSchema.safeParse(parsed);
      if (!result.success) return { ok: false, reason: 'malformed' };
      const amount = parseAmount('money', result.data.amount);
      if (typeof amount === 'string') return { ok: false, reason: 'malformed' };
      return { ok: true, notification: { ...result.data, amount } };
    },
    checkCheckoutSign(orderNo, sign) {
      return sameText(sign, checkoutSign(orderNo));
    },
    notificationFor,
    async pay(order, paidAt) {
      const { headers, body } = notificationFor(order, paidAt);
      return deliver({ url: `${apiBase}/pay/notify/sandbox`, headers, body });
    },
  };
}
