import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidKey } from './keys';

/**
 * Signed read URLs of the local disk: `<base>/files/<key>?exp=<epoch seconds>&sig=<MAC>`, where
 * MAC = base64url(HMAC-SHA256(secret, "file-read\n<key>\n<exp>")) — a download link adds
 * `&dl=<name>` and "\ndownload\n<name>" to the signed text. The signature binds the key
 * and the expiry: another key, a later expiry or a changed signature do not verify. No session
 * token is ever in the URL.
 */
export const FILE_URL_SECRET_FILE = 'file-url.secret';

const mac = (secret: string, key: string, exp: number, download: string | undefined) =>
  createHmac('sha256', secret)
    .update(`file-read\n${key}\n${exp}${download === undefined ? '' : `\ndownload\n${download}`}`)
    .digest('base64url');

/**
 * The path and query of a signed URL for `key` valid until `expiresAt` (epoch ms, rounded up to
 * s). `download`: served as an attachment under that name (`&dl=`, signed too).
 */
export function signFileUrl(
  secret: string,
  base: string,
  key: string,
  expiresAt: number,
  download?: string,
): string {
  const exp = Math.ceil(expiresAt / 1000);
  const dl = download === undefined ? '' : `&dl=${encodeURIComponent(download)}`;
  return `${base}/files/${key}?exp=${exp}${dl}&sig=${mac(secret, key, exp, download)}`;
}

/** True when `sig` is the signature of `key` until `exp` and `exp` has not passed at `now`. */
export function verifyFileSignature(
  secret: string,
  key: string,
  exp: unknown,
  sig: unknown,
  now: number,
  download?: unknown,
): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
  if (download !== undefined && typeof download !== 'string') return false;
  const expiry = Number(exp);
  if (expiry * 1000 <= now || !isValidKey(key)) return false;
  const given = Buffer.from(sig);
  const expected = Buffer.from(mac(secret, key, expiry, download));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
