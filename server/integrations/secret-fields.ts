import type { Config } from '../platform/config';

/**
 * A secret an integration's provider needs (an API key, a callback's HMAC key). Its value is read
 * at the time of use: the sealed setting (`integration_settings`, set by an admin) when there is
 * one, else the environment variable — so a value set by an admin wins, and takes effect without
 * a restart.
 */
export interface SecretFieldSpec {
  /** The field's name in the settings, e.g. `api_key`. */
  name: string;
  /** The provider of its kind that reads it, e.g. `http`. */
  provider: string;
  /** The environment variable that gives it when no setting does. */
  env?: string;
  fromEnv?: (config: Config) => string | undefined;
}

/** Reads one of a kind's secrets by field name, at the time of use (undefined: none set). */
export type SecretLookup = (name: string) => Promise<string | undefined>;

/** A lookup from the environment alone (no settings store: scripts and tests). */
export function environmentLookup(
  fields: readonly SecretFieldSpec[],
  config: Config,
): SecretLookup {
  return async (name) => fields.find((f) => f.name === name)?.fromEnv?.(config);
}
