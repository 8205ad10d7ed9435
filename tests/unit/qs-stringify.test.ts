// @vitest-environment node
import { describe, expect, test } from 'vitest';
import { stringify } from '../../src/vendor/qs-stringify';

describe('the qs stand-in of the console build', () => {
  test('encodes flat values, repeats array keys, leaves out null and undefined', () => {
    expect(stringify({ a: 1, b: 'x y', c: [1, 2], d: null, e: undefined, f: true })).toBe(
      'a=1&b=x+y&c=1&c=2&f=true',
    );
    expect(stringify({})).toBe('');
  });
});
