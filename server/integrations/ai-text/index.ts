import type { Config } from '../../platform/config';
import { environmentLookup, type SecretFieldSpec, type SecretLookup } from '../secret-fields';
import type { SettingLookup } from '../settings';
import { createEmbeddedAiText } from './embedded';
import { createOpenAiText } from './openai';
import type { AiTextProvider } from './types';

export type { AiTextProvider, ImitateTitlesInput } from './types';

/** The AI-text providers' secrets: the OpenAI-compatible service's API key. */
export const AI_TEXT_SECRETS: readonly SecretFieldSpec[] = [
  { name: 'api_key', provider: 'openai', env: 'AI_TEXT_API_KEY', fromEnv: (c) => c.aiText.apiKey },
];

/**
 * The values an admin stored for the OpenAI-compatible service (init config, group `ai_text`):
 * its address, model and timeout, each winning over `AI_TEXT_*` (docs/domain.md §System init).
 */
export async function storedOpenAiSettings(settings: SettingLookup) {
  const [baseUrl, model, timeout] = await Promise.all([
    settings('ai-text', 'base_url'),
    settings('ai-text', 'model'),
    settings('ai-text', 'timeout_seconds'),
  ]);
  return {
    ...(baseUrl ? { baseUrl } : {}),
    ...(model ? { model } : {}),
    ...(timeout ? { timeoutMs: Number(timeout) * 1000 } : {}),
  };
}

/**
 * The AI-text provider (README "AI text"; docs/domain.md §System init). Without `settings`: the
 * one `AI_TEXT_PROVIDER` names. With them (the app): at each call, the OpenAI-compatible service
 * when an address is in use — stored by an admin (init config), else `AI_TEXT_BASE_URL` under
 * `AI_TEXT_PROVIDER=openai` — else the embedded one; so an address saved takes effect at the next
 * call, and clearing it goes back. The service's key is read through `secrets`, its address,
 * model and timeout through `settings`, each at the time of use.
 */
export function createAiTextProvider(
  config: Config,
  secrets: SecretLookup = environmentLookup(AI_TEXT_SECRETS, config),
  settings?: SettingLookup,
): AiTextProvider {
  const ai = config.aiText;
  const openai = createOpenAiText({
    baseUrl: ai.baseUrl ?? '',
    model: ai.model,
    apiKey: () => secrets('api_key'),
    overrides: settings ? () => storedOpenAiSettings(settings) : undefined,
  });
  const embedded = createEmbeddedAiText();
  const configured = ai.provider === 'openai' ? openai : embedded;
  if (!settings) return configured;
  const resolve = async () => ((await settings('ai-text', 'base_url')) ? openai : embedded);
  return {
    name: configured.name,
    demonstration: configured.demonstration,
    resolve,
    async imitateTitles(input, signal) {
      return (await resolve()).imitateTitles(input, signal);
    },
    async complete(input, signal) {
      return (await resolve()).complete(input, signal);
    },
  };
}

/** The provider a call uses now (one that switches by the settings says which). */
export async function currentAiText(provider: AiTextProvider): Promise<AiTextProvider> {
  return (await provider.resolve?.()) ?? provider;
}
