import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { storedLook } from '../../src/app/theme/document-theme';
import { restoreSettings } from '../../src/machines/settings';

describe("login.html's stored look", () => {
  test('is the theme and colour weak the settings machine restores from the same storage', () => {
    const value = fc.oneof(
      fc.constantFrom('dark', 'light', 'DARK', true, false, null, 0, 1),
      fc.string(),
    );
    const stored = fc.oneof(
      fc
        .record({ theme: value, colorWeak: value, tabBar: fc.boolean() }, { requiredKeys: [] })
        .map((o) => JSON.stringify(o)),
      fc.constantFrom('', 'null', '[]', '"dark"', '{', '{"__proto__":{"theme":"dark"}}'),
    );
    fc.assert(
      fc.property(stored, (json) => {
        const restored = restoreSettings(json);
        expect(storedLook(json)).toEqual({
          theme: restored.theme,
          colorWeak: restored.colorWeak,
        });
      }),
    );
    expect(storedLook(null)).toEqual({ theme: 'light', colorWeak: false });
    expect(storedLook('{"theme":"dark","colorWeak":true}')).toEqual({
      theme: 'dark',
      colorWeak: true,
    });
  });
});
