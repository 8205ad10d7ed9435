/**
 * What the XState inspector (development only, `?inspect`: see inspector.ts) may see of a context
 * or an event: the same value with every credential replaced by MASK — string values under a
 * token, password, card password, secret, ticket, signature or verification-code key, and such
 * values in URL query strings. Pure: copies plain objects and arrays, leaves the input untouched
 * and other objects (actor refs, errors, dates) as they are.
 */
export const MASK = '••••';

const SECRET_KEY = /(token|password|pwd|secret|ticket|sign|signature|captcha)$|^(sms_?)?code$/i;
const SECRET_QUERY = /([?&](?:token|ticket|sign|signature|secret)=)[^&#\s]*/gi;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function maskForInspector<T>(value: T): T {
  const seen = new WeakMap<object, unknown>();
  const mask = (item: unknown, key: string | null): unknown => {
    if (typeof item === 'string') {
      return key !== null && SECRET_KEY.test(key) ? MASK : item.replace(SECRET_QUERY, `$1${MASK}`);
    }
    if (Array.isArray(item) || isPlainObject(item)) {
      if (seen.has(item)) return seen.get(item);
      const copy: Record<string, unknown> | unknown[] = Array.isArray(item) ? [] : {};
      seen.set(item, copy);
      for (const [k, v] of Object.entries(item)) {
        (copy as Record<string, unknown>)[k] = mask(v, Array.isArray(item) ? key : k);
      }
      return copy;
    }
    return item;
  };
  return mask(value, null) as T;
}
