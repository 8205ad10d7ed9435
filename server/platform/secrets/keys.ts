import { randomBytes } from 'node:crypto';
import { keptSecret } from '../lib/secrets';
import { KEY_ID, SecretError, type SecretKey } from './sealed';

/** The generated key of an installation without SECRETS_KEY(S), kept in DATA_DIR. */
export const SECRETS_KEY_FILE = 'secrets.key';
/** The key id of `SECRETS_KEY` (one key; for a rotation use SECRETS_KEYS). */
export const SINGLE_KEY_ID = 'k1';
const GENERATED_KEY_ID = 'local';

/** 32 bytes as standard base64 (44 characters, one `=`) or base64url (43 characters). */
function keyBytes(text: string, where: string): Buffer {
  const standard = /^[A-Za-z0-9+/]{43}=$/.test(text);
  if (!standard && !/^[A-Za-z0-9_-]{43}$/.test(text)) {
    throw new SecretError(`${where} is not 32 bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  return Buffer.from(text, standard ? 'base64' : 'base64url');
}

/** `kid:base64,kid:base64` (the first key seals; the others only open). */
export function parseSecretKeys(text: string, source: string): SecretKey[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new SecretError(`${source} holds no key`);
  return entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    if (!KEY_ID.test(id)) {
      throw new SecretError(
        `${source}: key ${index + 1} must be <key id>:<base64 key>, the id of A-Z a-z 0-9 _ -`,
      );
    }
    return { id, key: keyBytes(entry.slice(colon + 1), `${source}: key "${id}"`) };
  });
}

export interface SecretKeySettings {
  dataDir: string;
  /** `SECRETS_KEY`: one key (id `k1`). */
  secretsKey?: string;
  /** `SECRETS_KEYS`: `kid:key,kid:key`, the first sealing. */
  secretsKeys?: string;
}

/**
 * The keyring and where it comes from: `SECRETS_KEYS` or `SECRETS_KEY` when set (never both),
 * else a key generated on first start into `DATA_DIR/secrets.key` (mode 0600) as one
 * `local:<base64>` entry, which can be copied into SECRETS_KEYS as it is.
 */
export function loadSecretKeys(settings: SecretKeySettings): { keys: SecretKey[]; source: string } {
  if (settings.secretsKeys && settings.secretsKey) {
    throw new SecretError('set SECRETS_KEYS or SECRETS_KEY, not both');
  }
  if (settings.secretsKeys) {
    return { keys: parseSecretKeys(settings.secretsKeys, 'SECRETS_KEYS'), source: 'SECRETS_KEYS' };
  }
  if (settings.secretsKey) {
    const key = keyBytes(settings.secretsKey.trim(), 'SECRETS_KEY');
    return { keys: [{ id: SINGLE_KEY_ID, key }], source: 'SECRETS_KEY' };
  }
  const source = `DATA_DIR/${SECRETS_KEY_FILE}`;
  const line = keptSecret(
    settings.dataDir,
    SECRETS_KEY_FILE,
    undefined,
    () => `${GENERATED_KEY_ID}:${randomBytes(32).toString('base64')}`,
  );
  return { keys: parseSecretKeys(line, source), source };
}
