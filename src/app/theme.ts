import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** Primary colour #165DFF (spec §9); white on brand.solid ≈ 5.2:1 (AA). Light theme by default. */
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
  },
});

export const system = createSystem(defaultConfig, brand);
