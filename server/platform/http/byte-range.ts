import type { ByteRange } from '../storage/storage';

/**
 * The `Range` header of a GET for a file of `size` bytes (RFC 9110 §14):
 * - undefined: no range, or one the server ignores (malformed, several ranges, another unit) —
 *   the whole file is sent with 200;
 * - a range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), its end clipped to the file: 206;
 * - 'unsatisfiable': it starts past the last byte (or the file is empty): 416.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [, first, last] = match;
  if (first === '') {
    // The last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  // `a-b` with b < a is not a valid range (ignored); one starting past the end is unsatisfiable.
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
