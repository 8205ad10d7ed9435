import type { PayWay } from '../../../src/api/contract/recharge';
import type { Config } from '../../platform/config';
import { API_PREFIX } from '../../platform/http/policy';
import {
  createSandboxPaymentProvider,
  sandboxSecret,
  type SandboxPaymentProvider,
} from './sandbox';
import type { Deliver, PaymentProvider } from './types';

export type { SandboxPaymentProvider } from './sandbox';
export type { Deliver, NotificationHeaders, PaymentProvider } from './types';

/** The configured payment providers: several pay ways may be offered at once. */
export interface PaymentProviders {
  /** Every provider by its pay way; each has its notification endpoint `POST /pay/notify/<way>`. */
  readonly byWay: ReadonlyMap<PayWay, PaymentProvider>;
  /**
   * The embedded sandbox unless `PAYMENT_SANDBOX=0` (its checkout pages use more than the
   * interface). Whether it takes payments now is the recharge module's rule (demo data).
   */
  readonly sandbox: SandboxPaymentProvider | undefined;
}

/** A notification sent over HTTP to our own PUBLIC_URL (a process without the API in it). */
export function deliverOverHttp(publicUrl: string): Deliver {
  return async ({ url, headers, body }) => {
    const response = await fetch(`${publicUrl}${url}`, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  };
}

export function createPaymentProviders(config: Config, deliver: Deliver): PaymentProviders {
  const sandbox =
    config.paymentSandbox === false
      ? undefined
      : createSandboxPaymentProvider({
          secret: sandboxSecret(config),
          apiBase: API_PREFIX,
          deliver,
        });
  const byWay = new Map<PayWay, PaymentProvider>();
  if (sandbox) byWay.set(sandbox.way, sandbox);
  return { byWay, sandbox };
}
