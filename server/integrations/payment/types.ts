import type { PayWay } from '../../../src/api/contract/recharge';

/** What a provider needs to know of an order to take its payment. */
export interface PaymentOrder {
  order_no: string;
  /** Cents to pay, CNY. */
  amount: number;
  /** Shown on the provider's page (the package's name). */
  subject: string;
  expires_at: number;
}

/** A payment the provider reports as done. */
export interface PaymentNotification {
  order_no: string;
  /** The provider's id of the payment (unique across orders). */
  transaction_id: string;
  /** Cents paid. */
  amount: number;
  /** When the customer paid, epoch ms (the provider's clock). */
  paid_at: number;
}

export type VerifiedNotification =
  | { ok: true; notification: PaymentNotification }
  | { ok: false; reason: 'signature' | 'malformed' };

export type NotificationHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A payment provider, one per pay way (docs/architecture.md §Integrations). `createPayment` starts
 * a payment and gives the URL the customer opens to pay; it rejects with an IntegrationError
 * (server/integrations/errors.ts): `transient` (the provider is unreachable: the order stays
 * pending and closes by itself, the customer may try again), `permanent` (it refused the order),
 * `reauthorize` (it refused our merchant credentials: an admin must set them). No money has moved
 * in any of these cases. `verifyNotification` checks a notification the provider sent to
 * `POST /api/v1/pay/notify/<way>` — its signature over the raw body, then its shape — and
 * answers what was paid, or why it is refused. It never throws for a bad request and never
 * touches the database: crediting is the caller's job, done only for a verified notification.
 */
export interface PaymentProvider {
  readonly way: PayWay;
  createPayment(order: PaymentOrder): Promise<{ pay_url: string }>;
  verifyNotification(headers: NotificationHeaders, rawBody: Buffer): VerifiedNotification;
}

/**
 * How the sandbox reaches the notification endpoint: in the API process through `app.inject` (the
 * whole HTTP stack, no socket); elsewhere a POST to PUBLIC_URL.
 */
export type Deliver = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
}) => Promise<{ status: number; body: string }>;
