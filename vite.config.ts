import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { afterBuild } from './build/after-build.ts';
import { aliases } from './build/aliases.ts';
import { chunkFileNames, chunkGroups } from './build/chunks.ts';
import { precompileMessages } from './build/precompile-messages.ts';
import { preloadLoginView } from './build/preload-login-view.ts';
import { preloadRoutes } from './build/preload-routes.ts';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 8080}`;

export default defineConfig({
  plugins: [precompileMessages(), react(), preloadLoginView(), preloadRoutes(), afterBuild()],
  resolve: { alias: aliases },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: { output: { codeSplitting: { groups: chunkGroups }, chunkFileNames } },
  },
});
