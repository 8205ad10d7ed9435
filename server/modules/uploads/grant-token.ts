import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The tus endpoint's credential (`Upload-Grant` header): a short-lived token bound to one upload
 * (its key), its owner, its declared size and its expiry, signed with HMAC-SHA256 under a key
 * derived from the file URL secret (servers sharing a data set share `FILE_URL_SECRET`). It is
 * never the session token: it can do nothing but send the bytes of that one upload until it
 * expires. Form: `base64url(JSON).base64url(HMAC)`.
 */
export interface GrantClaims {
  /** upload_key */
  k: string;
  /** owner id */
  o: number;
  /** declared size in bytes */
  s: number;
  /** expiry, epoch ms */
  e: number;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('upload-grant:v1').digest();

const sign = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

export function signGrant(secret: string, claims: GrantClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The token's claims when it is well-formed, signed by `secret` and not expired at `now`. */
export function verifyGrant(
  secret: string,
  token: string | undefined,
  now: number,
): GrantClaims | undefined {
  if (!token || token.length > 1000) return undefined;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let claims: GrantClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as GrantClaims;
  } catch {
    return undefined;
  }
  const valid =
    typeof claims.k === 'string' &&
    Number.isSafeInteger(claims.o) &&
    Number.isSafeInteger(claims.s) &&
    Number.isSafeInteger(claims.e);
  if (!valid || now >= claims.e) return undefined;
  return claims;
}
