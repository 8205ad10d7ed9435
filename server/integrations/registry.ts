import type { FastifyBaseLogger } from 'fastify';
import type { IntegrationKind } from '../../src/api/contract/integrations';
import type { Config } from '../platform/config';
import type { SecretStore } from '../platform/secrets/store';
import { AI_TEXT_SECRETS, createAiTextProvider, type AiTextProvider } from './ai-text';
import {
  createDigitalHumanProvider,
  DIGITAL_HUMAN_SECRETS,
  type DigitalHumanProvider,
} from './digital-human';
import {
  createPaymentProviders,
  deliverOverHttp,
  type Deliver,
  type PaymentProviders,
} from './payment';
import type { SecretFieldSpec, SecretLookup } from './secret-fields';
import { settingLookup } from './settings';
import { createSmsProvider, type SmsProvider } from './sms';
import { createSocialPlatforms, SOCIAL_SECRETS, type SocialPlatforms } from './social';

/**
 * The outside services of the app (`ctx.integrations`, docs/architecture.md §Integrations): one
 * provider (or, for payment, one per pay way) per kind, chosen by configuration here and nowhere
 * else.
 */
export interface Integrations {
  payment: PaymentProviders;
  sms: SmsProvider;
  digitalHuman: DigitalHumanProvider;
  social: SocialPlatforms;
  aiText: AiTextProvider;
}

/**
 * Each kind's secret fields, of every provider of the kind (an admin may set a vendor's key
 * before switching to it). Stored sealed in `integration_settings` under (kind, name).
 */
export const INTEGRATION_SECRETS: Readonly<Record<IntegrationKind, readonly SecretFieldSpec[]>> = {
  payment: [],
  sms: [],
  'digital-human': DIGITAL_HUMAN_SECRETS,
  social: SOCIAL_SECRETS,
  'ai-text': AI_TEXT_SECRETS,
};

/** A kind's secrets as its providers read them: the sealed setting, else the environment's. */
function secretLookup(kind: IntegrationKind, config: Config, store: SecretStore): SecretLookup {
  return async (name) => {
    const field = INTEGRATION_SECRETS[kind].find((f) => f.name === name);
    if (!field) throw new Error(`the ${kind} integration has no secret field ${name}`);
    return (await store.read(kind, name)) ?? field.fromEnv?.(config);
  };
}

export interface IntegrationDeps {
  config: Config;
  log: FastifyBaseLogger;
  secrets: SecretStore;
  /** How the payment sandbox sends its notification (default: a POST to PUBLIC_URL). */
  deliverPayment?: Deliver;
  /** The app's clock (the social platforms' token expiry times; default Date.now). */
  now?: () => number;
}

/** Builds every integration as configured; `overrides` put fakes in (tests). */
export function createIntegrations(
  deps: IntegrationDeps,
  overrides: Partial<Integrations> = {},
): Integrations {
  const { config } = deps;
  const deliver = deps.deliverPayment ?? deliverOverHttp(config.publicUrl);
  return {
    payment: overrides.payment ?? createPaymentProviders(config, deliver),
    sms:
      overrides.sms ??
      createSmsProvider(config, deps.log, settingLookup(config, deps.secrets), deps.now),
    digitalHuman:
      overrides.digitalHuman ??
      createDigitalHumanProvider(config, secretLookup('digital-human', config, deps.secrets)),
    social:
      overrides.social ??
      createSocialPlatforms(
        config,
        secretLookup('social', config, deps.secrets),
        deps.now,
        settingLookup(config, deps.secrets),
      ),
    aiText:
      overrides.aiText ??
      createAiTextProvider(
        config,
        secretLookup('ai-text', config, deps.secrets),
        settingLookup(config, deps.secrets),
      ),
  };
}

/** Per kind, the names of the providers in use (now: Douyin's while a client_key is in use). */
export async function providersInUse(
  integrations: Integrations,
): Promise<Record<IntegrationKind, string[]>> {
  const douyin = await integrations.social.douyin();
  return {
    payment: [...integrations.payment.byWay.keys()],
    sms: [integrations.sms.name],
    'digital-human': [integrations.digitalHuman.name],
    social: [...(douyin ? ['douyin'] : []), ...(integrations.social.sandbox ? ['sandbox'] : [])],
    'ai-text': [integrations.aiText.name],
  };
}
