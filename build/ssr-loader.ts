import { createServer } from 'vite';
import { fileURLToPath } from 'node:url';

const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

/** Runs `use` with Vite's SSR module loader on the console's own config (build-time rendering). */
export async function withSsrLoader<T>(
  use: (load: (id: string) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const vite = await createServer({
    configFile,
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    logLevel: 'error',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    return await use((id) => vite.ssrLoadModule(id));
  } finally {
    await vite.close();
  }
}
