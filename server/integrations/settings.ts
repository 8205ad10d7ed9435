import type { Config } from '../platform/config';
import type { SecretStore } from '../platform/secrets/store';

/**
 * The one place the integrations read their settings (docs/architecture.md §Integration settings):
 * the value stored in the sealed settings store (`integration_settings`, written by
 * `/init_config/set_config` and `/integration/set_secret`) when there is one, else the
 * environment's default. Read at the time of use, so a value saved by an admin takes effect at
 * the next use, in every process, without a restart.
 */
export type SettingLookup = (kind: string, name: string) => Promise<string | undefined>;

type FromEnv = (config: Config) => string | undefined;

/** The environment's defaults, by `kind.name`. */
export const ENVIRONMENT_DEFAULTS: Readonly<Record<string, FromEnv>> = {
  'storage.endpoint': (c) => c.s3?.endpoint,
  'storage.region': (c) => c.s3?.region,
  'storage.bucket': (c) => c.s3?.bucket,
  'storage.access_key': (c) => c.s3?.accessKeyId,
  'storage.secret_key': (c) => c.s3?.secretAccessKey,
  'social.douyin_client_key': (c) => c.douyin.clientKey,
  'social.douyin_client_secret': (c) => c.douyin.clientSecret,
  // The address is in use only with AI_TEXT_PROVIDER=openai (as before the init config).
  'ai-text.base_url': (c) => (c.aiText.provider === 'openai' ? c.aiText.baseUrl : undefined),
  'ai-text.api_key': (c) => c.aiText.apiKey,
  'ai-text.model': (c) => c.aiText.model,
  'digital-human.api_key': (c) => c.digitalHuman.apiKey,
  'digital-human.callback_secret': (c) => c.digitalHuman.callbackSecret,
};

/** The environment's value of a setting, or undefined. */
export function environmentSetting(config: Config, kind: string, name: string) {
  return ENVIRONMENT_DEFAULTS[`${kind}.${name}`]?.(config) || undefined;
}

/** Stored value first, else the environment's. */
export function settingLookup(config: Config, store: SecretStore): SettingLookup {
  return async (kind, name) =>
    (await store.read(kind, name)) ?? environmentSetting(config, kind, name);
}
