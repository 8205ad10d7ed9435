import { createServer, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * `chakra-theme/recipes/button` → Chakra's own theme files, past its package exports: the slim
 * theme (src/app/theme/theme.ts) deep-imports only what it uses. (The same in vitest.config.ts.)
 */
const chakraThemeAlias = {
  find: /^chakra-theme\/(.*)$/,
  replacement: `${fileURLToPath(new URL('./node_modules/@chakra-ui/react/dist/esm/theme/', import.meta.url))}$1.js`,
};

/**
 * The first page's libraries in a few stable chunks (cached across releases, fetched and compiled
 * in parallel). Only modules the entry loads up front (`$initial`): code that views load lazily
 * stays with them.
 */
const VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'router', test: /node_modules[\\/](react-router|react-router-dom|cookie)[\\/]/ },
  {
    name: 'chakra',
    test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@floating-ui|@emotion|@pandacss|stylis)[\\/]/,
  },
  { name: 'intl', test: /node_modules[\\/](react-intl|@formatjs|intl-messageformat)[\\/]/ },
  { name: 'xstate', test: /node_modules[\\/](xstate|@xstate)[\\/]/ },
];

/**
 * Preloads the login view with the entry: the router would only ask for it once the entry has
 * run, a round trip later. (Small, and the page a signed-out visitor always lands on.)
 */
function preloadLoginView(): Plugin {
  const view = '/src/views/login/login-page.tsx';
  return {
    name: 'preload-login-view',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const login = chunks.find((c) => c.facadeModuleId?.endsWith(view));
        if (!login) throw new Error(`preload-login-view: no chunk for ${view}`);
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file) || html.includes(`/${file}"`)) return;
          files.add(file);
          chunks.find((c) => c.fileName === file)?.imports.forEach(visit);
        };
        visit(login.fileName);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** Runs `use` with Vite's SSR module loader on this same config (build-time rendering). */
async function withSsrLoader<T>(use: (load: (id: string) => Promise<unknown>) => Promise<T>) {
  const vite = await createServer({
    configFile: fileURLToPath(import.meta.url),
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

/** The two catalogues, loaded through Vite's SSR loader (they are TypeScript modules). */
async function loadCatalogues(): Promise<Record<string, Record<string, string>>> {
  return withSsrLoader(async (load) => {
    const out: Record<string, Record<string, string>> = {};
    for (const locale of ['en-US', 'zh-CN']) {
      out[locale] = (
        (await load(`/src/i18n/${locale}.ts`)) as { default: Record<string, string> }
      ).default;
    }
    return out;
  });
}

/**
 * The console's messages compiled to ICU syntax trees at build time, and the ICU parser (≈ 8 KB
 * compressed) left out of the bundle, as formatjs advises: every message the console formats is
 * a catalogue entry (src/i18n/intl.ts formatText shows other text as it is). Dev, tests and the
 * pre-render keep the strings and the parser.
 */
function precompileMessages(): Plugin {
  const catalogue = /[\\/]src[\\/]i18n[\\/](en-US|zh-CN)\.ts$/;
  let compiled: Record<string, string> = {};
  return {
    name: 'precompile-messages',
    apply: 'build',
    enforce: 'pre',
    config: () => ({
      resolve: {
        alias: [
          {
            find: /^@formatjs\/icu-messageformat-parser$/,
            replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
          },
        ],
      },
    }),
    async buildStart() {
      const { parse } = await import('@formatjs/icu-messageformat-parser');
      const catalogues = await loadCatalogues();
      compiled = Object.fromEntries(
        Object.entries(catalogues).map(([locale, messages]) => [
          locale,
          `export default ${JSON.stringify(
            Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, parse(text)])),
          )};`,
        ]),
      );
    },
    load(id) {
      const match = catalogue.exec(id);
      return match ? compiled[match[1]] : null;
    },
  };
}

/**
 * After the build: login.html, the login page pre-rendered in the console's own components (see
 * src/prerender/compose.ts), rendered through Vite's SSR loader with this same config.
 */
async function prerenderLogin(outDir: string): Promise<void> {
  const { buildLoginHtml } = (await withSsrLoader((load) => load('/src/prerender/login.tsx'))) as {
    buildLoginHtml: (indexHtml: string) => string;
  };
  const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
  await writeFile(path.join(outDir, 'login.html'), buildLoginHtml(indexHtml));
}

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every text file of the build, so the
 * server sends the smallest encoding without compressing on each request.
 */
async function precompress(outDir: string): Promise<void> {
  const files = await readdir(outDir, { recursive: true, withFileTypes: true });
  await Promise.all(
    files
      .filter((f) => f.isFile() && /\.(js|css|html|svg|json)$/.test(f.name))
      .map(async (f) => {
        const file = path.join(f.parentPath, f.name);
        const body = await readFile(file);
        if (body.length < 1024) return;
        await writeFile(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
      }),
  );
}

/** The steps after the bundle is written, in order: pre-render login.html, then compress. */
function afterBuild(): Plugin {
  let outDir = 'dist';
  return {
    name: 'after-build',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await prerenderLogin(outDir);
      await precompress(outDir);
    },
  };
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 8080}`;

export default defineConfig({
  plugins: [precompileMessages(), react(), preloadLoginView(), afterBuild()],
  resolve: {
    alias: [
      chakraThemeAlias,
      // superagent's browser client needs qs only for form bodies, which the console never sends.
      {
        find: /^fast-safe-stringify$/,
        replacement: fileURLToPath(new URL('./src/vendor/json-stringify.cjs', import.meta.url)),
      },
      {
        find: /^qs$/,
        replacement: fileURLToPath(new URL('./src/vendor/qs-stringify.ts', import.meta.url)),
      },
    ],
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...VENDOR_CHUNKS.map((chunk, i) => ({
              ...chunk,
              tags: ['$initial' as const],
              priority: VENDOR_CHUNKS.length - i + 1,
            })),
            // The UI library code that lazily loaded views share, by the set of views that use
            // it, with the tiny sets merged into a neighbour: a view loads a few chunks instead
            // of a dozen of < 1 KB (each paying its request and headers).
            {
              name: 'ui',
              test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@floating-ui|@xstate)[\\/]/,
              entriesAware: true,
              entriesAwareMergeThreshold: 8_000,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
