import { randomBytes } from 'node:crypto';

/**
 * Storage keys are made here, never from a user's file name: `<area>/<yyyymm>/<32 hex>` (e.g.
 * `uploads/202611/9f…`). A key is 1–8 segments of letters, digits, `_`, `-` and inner dots, at
 * most 200 characters: no `..`, no empty segment, no leading dot, no control character, no
 * backslash — safe as a path under the files directory, as an S3 key and in a URL unescaped.
 */
const SEGMENT = /^[A-Za-z0-9_-](?:[A-Za-z0-9._-]*[A-Za-z0-9_-])?$/;

export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > 200 || key.includes('..')) return false;
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((segment) => SEGMENT.test(segment));
}

/** Throws for a key `isValidKey` refuses (adapters check every key they are given). */
export function checkKey(key: string): string {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A new, unguessable key under `area` (one segment, e.g. `uploads`, `posters`). */
export function newFileKey(area: string, now = Date.now()): string {
  const month = new Date(now).toISOString().slice(0, 7).replace('-', '');
  return checkKey(`${area}/${month}/${randomBytes(16).toString('hex')}`);
}
