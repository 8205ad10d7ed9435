import type { Config } from '../../platform/config';
import { environmentLookup, type SecretFieldSpec, type SecretLookup } from '../secret-fields';
import { createEmbeddedProvider } from './embedded';
import { createHttpProvider } from './http';
import type { DigitalHumanProvider } from './types';

export type { DigitalHumanProvider } from './types';

/** The digital-human providers' secrets: the HTTP vendor's API key and callback HMAC key. */
export const DIGITAL_HUMAN_SECRETS: readonly SecretFieldSpec[] = [
  { name: 'api_key', provider: 'http', env: 'DH_API_KEY', fromEnv: (c) => c.digitalHuman.apiKey },
  {
    name: 'callback_secret',
    provider: 'http',
    env: 'DH_CALLBACK_SECRET',
    fromEnv: (c) => c.digitalHuman.callbackSecret,
  },
];

/**
 * The configured digital-human provider (`DH_PROVIDER`; README "Digital-human providers"). The
 * HTTP vendor reads its key and callback secret through `secrets` at each use (default: the
 * environment only).
 */
export function createDigitalHumanProvider(
  config: Config,
  secrets: SecretLookup = environmentLookup(DIGITAL_HUMAN_SECRETS, config),
): DigitalHumanProvider {
  const dh = config.digitalHuman;
  if (dh.provider === 'http') {
    return createHttpProvider({
      baseUrl: dh.baseUrl ?? '',
      apiKey: () => secrets('api_key'),
      callbackSecret: () => secrets('callback_secret'),
      callbackUrl: `${config.publicUrl}/api/v1/digital_human/vendor_callback`,
    });
  }
  return createEmbeddedProvider({ preset: config.videoRenderPreset });
}
