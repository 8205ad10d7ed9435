import { brandPaletteVars } from '../../api/contract/brand-palette';

export { brandPaletteVars, contrast } from '../../api/contract/brand-palette';

/**
 * A domain's theme colour on the page (docs/domain.md §12): the `brand` palette's CSS variables
 * (src/api/contract/brand-palette.ts) set inline on `<html>`, where they win over the theme's own
 * and follow a change at once, no new Chakra system; '' or a malformed value restores the default.
 */

/** The palette's variables, the ones the server wrote into the page included. */
const BRAND_VAR = '--chakra-colors-brand-';

/** Sets (or, for '' and anything else but `#rrggbb`, removes) the theme colour of the page. */
export function applyBrandColour(hex: string, root: HTMLElement = document.documentElement): void {
  const vars = brandPaletteVars(hex) ?? {};
  const present = Array.from({ length: root.style.length }, (_, i) => root.style.item(i));
  for (const name of present) {
    if (name.startsWith(BRAND_VAR) && !(name in vars)) root.style.removeProperty(name);
  }
  for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
}
