import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

const fromRoot = (file: string) => fileURLToPath(new URL(`../${file}`, import.meta.url));

/**
 * The module aliases of the console, one list for Vite (vite.config.ts) and Vitest
 * (vitest.config.ts), so tests resolve modules as the build does.
 */
export const aliases: Alias[] = [
  // `chakra-theme/recipes/button` → Chakra's own theme files, past its package exports: the slim
  // theme (src/app/theme/theme.ts) deep-imports only what it uses (also in tsconfig.json `paths`).
  {
    find: /^chakra-theme\/(.*)$/,
    replacement: `${fromRoot('node_modules/@chakra-ui/react/dist/esm/theme/')}$1.js`,
  },
  // superagent's browser client needs qs only for form bodies, which the console never sends.
  { find: /^fast-safe-stringify$/, replacement: fromRoot('src/vendor/json-stringify.cjs') },
  { find: /^qs$/, replacement: fromRoot('src/vendor/qs-stringify.ts') },
];
