import type { SmsPurpose } from '../../platform/db/schema';

export interface SmsMessage {
  mobile: string;
  purpose: SmsPurpose;
  code: string;
}

/**
 * Sends verification codes (docs/architecture.md §Integrations). Resolves once the provider
 * accepted the message; rejects when it did not, with an IntegrationError
 * (server/integrations/errors.ts): `transient` (the gateway is down or busy), `permanent` (it
 * refused this number or text) or `reauthorize` (it refused our credentials: an admin must set
 * them). Whatever the kind, the caller withdraws the code, so the person may ask again at once;
 * nothing else was changed.
 */
export interface SmsProvider {
  /** `log` (the embedded default) or the gateway's name. */
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}
