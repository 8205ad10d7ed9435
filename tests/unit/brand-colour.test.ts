import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { brandPaletteStyle } from '../../src/api/contract/brand-palette';
import { applyBrandColour, brandPaletteVars, contrast } from '../../src/app/theme/brand-colour';

/** A domain's theme colour as the primary palette (src/app/theme/brand-colour.ts). */
const rgb = (css: string): [number, number, number] => {
  if (css === 'white') return [255, 255, 255];
  return [1, 3, 5].map((i) => parseInt(css.slice(i, i + 2), 16)) as [number, number, number];
};
const WHITE: [number, number, number] = [255, 255, 255];
const DARK_PANEL: [number, number, number] = [24, 24, 27];

describe('the brand palette of a theme colour', () => {
  test('the solid shade is the colour itself; the default keeps white text', () => {
    const vars = brandPaletteVars('#165DFF')!;
    expect(vars['--chakra-colors-brand-500']).toBe('#165dff');
    expect(vars['--chakra-colors-brand-contrast']).toBe('white');
    expect(Object.keys(vars)).toHaveLength(12);
  });

  test('a light colour gets dark text on its buttons', () => {
    const vars = brandPaletteVars('#ffd000')!;
    expect(vars['--chakra-colors-brand-contrast']).toBe('#111111');
  });

  test('whatever the colour, every shade read as text passes AA where it is read', () => {
    const hex = fc
      .tuple(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
      )
      .map((c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`);
    fc.assert(
      fc.property(hex, (h) => {
        const vars = brandPaletteVars(h)!;
        const solid = rgb(vars['--chakra-colors-brand-500']);
        // The text on a solid button; fg on the page and on the palette's own backgrounds
        // (subtle, muted): the light theme's 600, the dark theme's 300.
        const shade = (n: number) => rgb(vars[`--chakra-colors-brand-${n}`]);
        expect(contrast(rgb(vars['--chakra-colors-brand-contrast']), solid)).toBeGreaterThanOrEqual(
          4.5,
        );
        for (const bg of [WHITE, shade(50), shade(100)]) {
          expect(contrast(shade(600), bg)).toBeGreaterThanOrEqual(4.5);
        }
        for (const bg of [DARK_PANEL, shade(950), shade(900)]) {
          expect(contrast(shade(300), bg)).toBeGreaterThanOrEqual(4.5);
        }
      }),
    );
  });

  test('anything but #rrggbb is no palette', () => {
    for (const value of ['', '#fff', 'red', '#1234567', 'url(x)', '#12345g']) {
      expect(brandPaletteVars(value)).toBeNull();
    }
  });

  test('applied to the page, and removed again for the default', () => {
    const root = document.createElement('div');
    applyBrandColour('#aa3300', root);
    expect(root.style.getPropertyValue('--chakra-colors-brand-500')).toBe('#aa3300');
    applyBrandColour('', root);
    expect(root.style.getPropertyValue('--chakra-colors-brand-500')).toBe('');
    expect(root.getAttribute('style') ?? '').toBe('');
  });

  test('the palette the server wrote into the page is replaced or removed like its own', () => {
    const root = document.createElement('div');
    root.setAttribute('style', `${brandPaletteStyle('#aa3300')};color:red`);
    expect(root.style.getPropertyValue('--chakra-colors-brand-500')).toBe('#aa3300');
    applyBrandColour('#0055aa', root);
    expect(root.style.getPropertyValue('--chakra-colors-brand-500')).toBe('#0055aa');
    applyBrandColour('', root);
    expect(root.getAttribute('style')).toBe('color: red;');
  });
});
