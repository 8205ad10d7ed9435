import type { Config } from '../../platform/config';
import { createEmbeddedProvider } from './embedded';
import { createHttpProvider } from './http';
import type { DigitalHumanProvider } from './types';

export type { DigitalHumanProvider } from './types';

/** The configured digital-human provider (`DH_PROVIDER`; README "Digital-human providers"). */
export function createDigitalHumanProvider(config: Config): DigitalHumanProvider {
  const dh = config.digitalHuman;
  if (dh.provider === 'http') {
    return createHttpProvider({
      baseUrl: dh.baseUrl ?? '',
      apiKey: dh.apiKey ?? '',
      callbackSecret: dh.callbackSecret ?? '',
      callbackUrl: `${config.publicUrl}/api/v1/digital_human/vendor_callback`,
    });
  }
  return createEmbeddedProvider({ preset: config.videoRenderPreset });
}
