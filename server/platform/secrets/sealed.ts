import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Sealed secrets (docs/architecture.md §Secrets): AES-256-GCM with a random 12-byte IV, bound to
 * the place it is stored (additional data `table:field:row`), written as
 * `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url). The key id names the key that sealed it, so
 * values sealed before a key rotation still open while the old key is kept for reading. Opening
 * never guesses: a malformed value, an unknown key id, a wrong key, an altered value or one moved
 * to another place throws a {@link SecretError} naming the place and the key id (never the value).
 */

/** One key of the keyring: its id (written in every value it seals) and its 32 bytes. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** Where a sealed value is stored; it opens only there. */
export interface SealedPlace {
  table: string;
  field: string;
  /** The row's key (an id, or a natural key such as `digital-human.api_key`). */
  row: string | number;
}

export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

export interface Sealer {
  /** The key id new values are sealed with (the first key). */
  readonly sealingKeyId: string;
  seal(plain: string, place: SealedPlace): string;
  open(sealed: string, place: SealedPlace): string;
}

const VERSION = 'v1';
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** Table and field names carry no `:`, so the additional data names one place only. */
const PLACE_NAME = /^[a-z][a-z0-9_]*$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function additionalData(place: SealedPlace): Buffer {
  if (!PLACE_NAME.test(place.table) || !PLACE_NAME.test(place.field)) {
    throw new SecretError(`not a place for a sealed value: ${place.table}.${place.field}`);
  }
  return Buffer.from(`${place.table}:${place.field}:${place.row}`, 'utf8');
}

const where = (place: SealedPlace) => `${place.table}:${place.field}:${place.row}`;

/** base64url without padding, strictly: what does not re-encode to itself is refused. */
function decode(part: string | undefined): Buffer | undefined {
  if (part === undefined || !/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

interface Parts {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parse(sealed: string): Parts | undefined {
  const [version, keyId, iv, tag, ciphertext, ...rest] = sealed.split(':');
  if (version !== VERSION || rest.length > 0 || !keyId || !KEY_ID.test(keyId)) return undefined;
  const parts = { keyId, iv: decode(iv), tag: decode(tag), ciphertext: decode(ciphertext) };
  if (parts.iv?.length !== IV_BYTES || parts.tag?.length !== TAG_BYTES || !parts.ciphertext) {
    return undefined;
  }
  return parts as Parts;
}

/**
 * A sealer over a keyring: the first key seals, every key opens what names its id. `source` says
 * where the keys come from (`SECRETS_KEYS`, `DATA_DIR/secrets.key`), for the error messages.
 */
export function createSealer(keys: readonly SecretKey[], source: string): Sealer {
  if (keys.length === 0) throw new SecretError(`no secret key in ${source}`);
  const byId = new Map<string, Buffer>();
  for (const { id, key } of keys) {
    if (!KEY_ID.test(id))
      throw new SecretError(`${source}: "${id}" is not a key id (A-Z a-z 0-9 _ -)`);
    if (key.length !== 32) throw new SecretError(`${source}: key "${id}" is not 32 bytes`);
    if (byId.has(id)) throw new SecretError(`${source}: key id "${id}" is given twice`);
    byId.set(id, key);
  }
  const sealing = keys[0];

  return {
    sealingKeyId: sealing.id,

    seal(plain, place) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv);
      cipher.setAAD(additionalData(place));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, sealing.id, iv, tag, ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },

    open(sealed, place) {
      const parts = parse(sealed);
      if (!parts) throw new SecretError(`the sealed value at ${where(place)} is not ${VERSION}`);
      const key = byId.get(parts.keyId);
      if (!key) {
        throw new SecretError(
          `the value at ${where(place)} was sealed with key id "${parts.keyId}", which ${source} ` +
            `does not hold (it has ${[...byId.keys()].join(', ')}): add that key to open it`,
        );
      }
      const decipher = createDecipheriv('aes-256-gcm', key, parts.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(place));
      decipher.setAuthTag(parts.tag);
      try {
        return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretError(
          `the value at ${where(place)} does not open with key id "${parts.keyId}": the key is ` +
            'not the one that sealed it, or the value was altered or sealed for another place',
        );
      }
    },
  };
}
