import type { DigitalHumanProvider } from '../types';

export interface HttpProviderOptions {
  baseUrl: string;
  apiKey: string;
  callbackSecret: string;
  /** Where the vendor sends its callbacks (our `POST /digital_human/vendor_callback`). */
  callbackUrl: string;
}

/** The HTTP vendor adapter (helper dh-prov-http builds it; this placeholder never lands). */
export function createHttpProvider(options: HttpProviderOptions): DigitalHumanProvider {
  const fail = () =>
    Promise.reject(new Error(`http digital-human provider not built yet (${options.baseUrl})`));
  return {
    name: 'http',
    demonstration: false,
    publicVoices: () => [],
    cloneImage: fail,
    cloneVoice: fail,
    synthesize: fail,
    renderVideo: fail,
    parseCallback: () => null,
  };
}
