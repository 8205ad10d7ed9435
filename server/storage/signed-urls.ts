import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidKey } from './keys';

/**
 * Signed read URLs of the local disk: `<base>/files/<key>?exp=<epoch seconds>&sig=<MAC>`, where
 * MAC = base64url(HMAC-SHA256(secret, "file-read\n<key>\n<exp>")). The signature binds the key
 * and the expiry: another key, a later expiry or a changed signature do not verify. No session
 * token is ever in the URL.
 */
export const FILE_URL_SECRET_FILE = 'file-url.secret';

const mac = (secret: string, key: string, exp: number) =>
  createHmac('sha256', secret).update(`file-read\n${key}\n${exp}`).digest('base64url');

/** The path and query of a signed URL for `key` valid until `expiresAt` (epoch ms, rounded up to s). */
export function signFileUrl(secret: string, base: string, key: string, expiresAt: number): string {
  const exp = Math.ceil(expiresAt / 1000);
  return `${base}/files/${key}?exp=${exp}&sig=${mac(secret, key, exp)}`;
}

/** True when `sig` is the signature of `key` until `exp` and `exp` has not passed at `now`. */
export function verifyFileSignature(
  secret: string,
  key: string,
  exp: unknown,
  sig: unknown,
  now: number,
): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
  const expiry = Number(exp);
  if (expiry * 1000 <= now || !isValidKey(key)) return false;
  const given = Buffer.from(sig);
  const expected = Buffer.from(mac(secret, key, expiry));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
