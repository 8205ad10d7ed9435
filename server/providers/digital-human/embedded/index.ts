import type { RenderPreset } from '../../../config';
import type { DigitalHumanProvider } from '../types';

export interface EmbeddedOptions {
  /** x264 preset of the videos it renders (tests: `ultrafast`). */
  preset: RenderPreset;
}

/** The embedded provider (helper dh-prov-embedded builds it; this placeholder never lands). */
export function createEmbeddedProvider(options: EmbeddedOptions): DigitalHumanProvider {
  const fail = () =>
    Promise.reject(new Error(`embedded digital-human provider not built yet (${options.preset})`));
  return {
    name: 'embedded',
    demonstration: true,
    publicVoices: () => [],
    cloneImage: fail,
    cloneVoice: fail,
    synthesize: fail,
    renderVideo: fail,
    parseCallback: () => null,
  };
}
