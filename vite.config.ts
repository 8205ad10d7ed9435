import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * `chakra-theme/recipes/button` → Chakra's own theme files, past its package exports: the slim
 * theme (src/app/theme.ts) deep-imports only what it uses. (The same in vitest.config.ts.)
 */
const chakraThemeAlias = {
  find: /^chakra-theme\/(.*)$/,
  replacement: `${fileURLToPath(new URL('./node_modules/@chakra-ui/react/dist/esm/theme/', import.meta.url))}$1.js`,
};

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 8080}`;

export default defineConfig({
  plugins: [react()],
  resolve: { alias: [chakraThemeAlias] },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
});
