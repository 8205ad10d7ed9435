import type { Config } from '../../platform/config';
import { environmentLookup, type SecretFieldSpec, type SecretLookup } from '../secret-fields';
import { createEmbeddedAiText } from './embedded';
import { createOpenAiText } from './openai';
import type { AiTextProvider } from './types';

export type { AiTextProvider, ImitateTitlesInput } from './types';

/** The AI-text providers' secrets: the OpenAI-compatible service's API key. */
export const AI_TEXT_SECRETS: readonly SecretFieldSpec[] = [
  { name: 'api_key', provider: 'openai', env: 'AI_TEXT_API_KEY', fromEnv: (c) => c.aiText.apiKey },
];

/**
 * The configured AI-text provider (`AI_TEXT_PROVIDER`; README "AI text"). The OpenAI-compatible
 * one reads its key through `secrets` at each use (default: the environment only).
 */
export function createAiTextProvider(
  config: Config,
  secrets: SecretLookup = environmentLookup(AI_TEXT_SECRETS, config),
): AiTextProvider {
  const ai = config.aiText;
  if (ai.provider === 'openai') {
    return createOpenAiText({
      baseUrl: ai.baseUrl ?? '',
      model: ai.model,
      apiKey: () => secrets('api_key'),
    });
  }
  return createEmbeddedAiText();
}
