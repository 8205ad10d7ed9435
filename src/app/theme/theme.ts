import {
  createSystem,
  defineConfig,
  type SystemConfig,
  type SystemContext,
} from '@chakra-ui/react';
import { defaultBaseConfig } from '@chakra-ui/react/preset-base';
import { breakpoints } from 'chakra-theme/breakpoints';
import { globalCss } from 'chakra-theme/global-css';
import { layerStyles } from 'chakra-theme/layer-styles';
import { animationStyles } from 'chakra-theme/motion-styles';
import { semanticColors } from 'chakra-theme/semantic-tokens/colors';
import { semanticRadii } from 'chakra-theme/semantic-tokens/radii';
import { semanticShadows } from 'chakra-theme/semantic-tokens/shadows';
import { textStyles } from 'chakra-theme/text-styles';
import { animations } from 'chakra-theme/tokens/animations';
import { aspectRatios } from 'chakra-theme/tokens/aspect-ratios';
import { blurs } from 'chakra-theme/tokens/blurs';
import { borders } from 'chakra-theme/tokens/borders';
import { colors } from 'chakra-theme/tokens/colors';
import { cursor } from 'chakra-theme/tokens/cursor';
import { durations } from 'chakra-theme/tokens/durations';
import { easings } from 'chakra-theme/tokens/easings';
import { fontSizes } from 'chakra-theme/tokens/font-sizes';
import { fontWeights } from 'chakra-theme/tokens/font-weights';
import { fonts } from 'chakra-theme/tokens/fonts';
import { keyframes } from 'chakra-theme/tokens/keyframes';
import { letterSpacings } from 'chakra-theme/tokens/letter-spacing';
import { lineHeights } from 'chakra-theme/tokens/line-heights';
import { radii } from 'chakra-theme/tokens/radius';
import { sizes } from 'chakra-theme/tokens/sizes';
import { spacing } from 'chakra-theme/tokens/spacing';
import { zIndices } from 'chakra-theme/tokens/z-indices';
import { recipes, slotRecipes } from './theme-recipes';

/**
 * Chakra's default theme (tokens, semantic tokens, global CSS, text/layer/animation styles) on
 * `defaultBaseConfig`, with only the recipes the console uses (theme-recipes.ts): the same look
 * as `defaultConfig` without building and shipping ~80 unused recipes.
 */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: {
      aspectRatios,
      animations,
      blurs,
      borders,
      colors,
      durations,
      easings,
      fonts,
      fontSizes,
      fontWeights,
      letterSpacings,
      lineHeights,
      radii,
      spacing,
      sizes,
      zIndex: zIndices,
      cursor,
    },
    semanticTokens: { colors: semanticColors, shadows: semanticShadows, radii: semanticRadii },
    recipes,
    slotRecipes,
    textStyles,
    layerStyles,
    animationStyles,
  },
});

const SOLID_DARKER = 'color-mix(in srgb, var(--chakra-colors-color-palette-solid) 88%, black)';

/** Primary colour #165DFF (docs/domain.md §17); white on brand.solid ≈ 5.2:1 (AA). Light theme by default. */
const brand = defineConfig({
  globalCss: { 'html, body': { colorPalette: 'brand' } },
  theme: {
    tokens: {
      colors: {
        brand: {
          50: { value: '#e8f3ff' },
          100: { value: '#bedaff' },
          200: { value: '#94bfff' },
          300: { value: '#6aa1ff' },
          400: { value: '#4080ff' },
          500: { value: '#165dff' },
          600: { value: '#0e42d2' },
          700: { value: '#072ca6' },
          800: { value: '#031a79' },
          900: { value: '#000d4d' },
          950: { value: '#000833' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: '{colors.brand.500}' },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: '{colors.brand.500}' },
        },
        // Chakra's red.500 on white is 3.8:1, below AA for the 12px field error texts; red.600 is 4.8:1.
        fg: { error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } } },
      },
    },
    recipes: {
      // Chakra lightens a solid button on hover (its colour at 90 % over the page): white on
      // brand at 90 % over white is 4.42:1, below AA. Darken it instead, in both themes.
      button: {
        variants: {
          variant: {
            solid: {
              _hover: { bg: SOLID_DARKER },
              _expanded: { bg: SOLID_DARKER },
            },
          },
        },
      },
    },
  },
});

/** The console's Chakra system with `more` (e.g. more recipes) merged in after its own config. */
export function createConsoleSystem(...more: SystemConfig[]): SystemContext {
  return createSystem(defaultBaseConfig, chakraTheme, brand, ...more);
}
