/**
 * A domain's theme colour as the console's primary palette (docs/domain.md §12): the `brand`
 * tokens' CSS variables (theme.ts defines them for the default #165DFF; every solid button, the
 * navbar's edge, the active menu item, links and focus rings read them through
 * `colorPalette: brand`). Shared: the console sets them on `<html>` from each system-info answer
 * (src/app/theme/brand-colour.ts) and the server writes them into the page it serves for a
 * branded host, so its first frame already has the domain's colour (server/platform/http/static.ts).
 *
 * The shades are the colour mixed with white (50–400) or black (600–950); then the ones read as
 * text are pushed until they pass WCAG AA (4.5:1): `fg` (600 on the light page, 300 on the dark
 * one), and the text on a solid button (`contrast`: white, or near-black on a light colour).
 */
type Rgb = readonly [number, number, number];

const SHADES_LIGHTER = { 50: 0.92, 100: 0.8, 200: 0.64, 300: 0.45, 400: 0.22 } as const;
const SHADES_DARKER = { 600: 0.18, 700: 0.36, 800: 0.52, 900: 0.68, 950: 0.8 } as const;
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
/** The text on a light theme colour's buttons. */
const NEAR_BLACK: Rgb = [17, 17, 17];
/** The dark theme's panels (Chakra's gray.900): the darkest a `fg` text is read on. */
const DARK_PANEL: Rgb = [24, 24, 27];
const AA = 4.5;

const parse = (hex: string): Rgb | null =>
  /^#[0-9a-f]{6}$/i.test(hex)
    ? ([1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb)
    : null;

const css = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const mix = (c: Rgb, with_: Rgb, amount: number): Rgb =>
  c.map((v, i) => v + (with_[i] - v) * amount) as unknown as Rgb;

/** WCAG's relative luminance. */
function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = Math.round(v) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `c` moved towards `to` in small steps until it reads at AA on every one of `backgrounds`. */
function readableOn(c: Rgb, backgrounds: readonly Rgb[], to: Rgb): Rgb {
  let out = c;
  const reads = (x: Rgb) => backgrounds.every((b) => contrast(x, b) >= AA);
  for (let step = 0; step < 30 && !reads(out); step += 1) out = mix(out, to, 0.12);
  return out;
}

/** The `brand` tokens' CSS variables for `hex` (`#rrggbb`), or null when it is not one. */
export function brandPaletteVars(hex: string): Record<string, string> | null {
  const c = parse(hex);
  if (!c) return null;
  const vars: Record<string, string> = { '--chakra-colors-brand-500': css(c) };
  for (const [shade, amount] of Object.entries(SHADES_LIGHTER)) {
    vars[`--chakra-colors-brand-${shade}`] = css(mix(c, WHITE, amount));
  }
  for (const [shade, amount] of Object.entries(SHADES_DARKER)) {
    vars[`--chakra-colors-brand-${shade}`] = css(mix(c, BLACK, amount));
  }
  // Read as text: `fg` is 600 on the light theme, 300 on the dark one, on the page and on the
  // palette's own subtle and muted backgrounds (a selected menu item, a key cap).
  const shade = (name: number) => parse(vars[`--chakra-colors-brand-${name}`])!;
  vars['--chakra-colors-brand-600'] = css(
    readableOn(mix(c, BLACK, SHADES_DARKER[600]), [WHITE, shade(50), shade(100)], BLACK),
  );
  vars['--chakra-colors-brand-300'] = css(
    readableOn(mix(c, WHITE, SHADES_LIGHTER[300]), [DARK_PANEL, shade(950), shade(900)], WHITE),
  );
  vars['--chakra-colors-brand-contrast'] =
    contrast(c, WHITE) >= AA ? 'white' : css(contrast(c, NEAR_BLACK) >= AA ? NEAR_BLACK : BLACK);
  return vars;
}

/** The variables as an inline `style` attribute's value (`--a:#fff;--b:#000`), '' for none. */
export function brandPaletteStyle(hex: string): string {
  const vars = brandPaletteVars(hex);
  return vars
    ? Object.entries(vars)
        .map(([name, value]) => `${name}:${value}`)
        .join(';')
    : '';
}
