import type { Plugin } from 'vite';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { bundleInlineScript } from './inline-script.ts';
import { withSsrLoader } from './ssr-loader.ts';
import { ROUTE_PRELOAD_ID } from './preload-routes.ts';

/**
 * login.html, the login page pre-rendered in the console's own components (see
 * src/prerender/compose.ts), rendered through Vite's SSR loader with the console's config, with
 * its inline script bundled from src/app/boot/prerender-inline.ts.
 */
async function prerenderLogin(root: string, outDir: string): Promise<void> {
  const inlineScript = await bundleInlineScript(
    path.join(root, 'src/app/boot/prerender-inline.ts'),
  );
  // Without index.html's route preloads (build/preload-routes.ts): /login never needs them.
  const indexHtml = (await readFile(path.join(outDir, 'index.html'), 'utf8')).replace(
    new RegExp(`\\s*<script id="${ROUTE_PRELOAD_ID}">[\\s\\S]*?</script>`),
    '',
  );
  // Rendered while the loader is open: the page loads its catalogues through it.
  const loginHtml = await withSsrLoader(async (load) => {
    const { buildLoginHtml } = (await load('/src/prerender/login.tsx')) as {
      buildLoginHtml: (indexHtml: string, inlineScript: string) => Promise<string>;
    };
    return buildLoginHtml(indexHtml, inlineScript);
  });
  await writeFile(path.join(outDir, 'login.html'), loginHtml);
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
export function afterBuild(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'after-build',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await prerenderLogin(root, outDir);
      await precompress(outDir);
    },
  };
}
