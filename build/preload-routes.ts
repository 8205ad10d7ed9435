import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAst, type Plugin, type Rollup } from 'vite';
import { recordFirstCalls, type RecordedCall } from './first-calls.ts';
import { inlineScript } from './preload-script.ts';
import { ROUTES } from '../src/app/routes/route-table.ts';

/**
 * A signed-in page loaded afresh in one wave (docs/architecture.md "Signed-in pages in one wave"):
 * index.html carries, as a small inline script, a map from each signed-in route's path to the
 * chunks its first render needs — the page's view and what it imports (its area's actors, the UI
 * code), the catalogue parts it names, the shell and its actors, the page table, the later theme
 * recipes and the signed-in catalogue, each in the stored locale. With a session stored, the
 * script adds a `<link rel=modulepreload>` for each before the entry runs, so they download beside
 * the entry instead of in waves behind the session check, and before them sends the page's first
 * data calls (recorded by build/first-calls.ts from src/app/routes/first-calls.ts) with the stored
 * token and locale, for the page's actors to read (src/api/http-early.ts) instead of sending them
 * after the session check, the guard and the render. No session (or another path): nothing.
 * login.html has no such script (build/after-build.ts takes it out): /login's bytes are unchanged.
 * The server allows the script by its hash (server/platform/http/static.ts).
 */

const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));
const PAGE_VIEWS = src('app/routes/page-views.ts');

/** Modules every signed-in page loads as it starts (router.tsx's guard and shell route, main.tsx). */
const SHELL_MODULES = [
  'app/shell/shell.tsx',
  'app/actors/shell-actors.ts',
  'app/routes/page-views.ts',
  'app/theme/theme-later.ts',
  // The toaster: a signed-in console mounts it at start (main.tsx, prepareNotices).
  'components/toaster-store.ts',
  'components/app-toaster.tsx',
].map(src);
const catalogue = (part: string, locale: string) =>
  src(
    `i18n/${part === 'signed-out' || part === 'signed-in' ? part : `signed-in-${part}`}-${locale}.ts`,
  );

/** The `id` of the inline script, by which login.html leaves it out. */
export const ROUTE_PRELOAD_ID = 'route-preload';

interface PageModule {
  module: string;
  parts: string[];
}

/**
 * page-views.ts's VIEWS, read from its source: route name → the view's module (the `import()` in
 * its entry) and the catalogue parts it names (the string arguments of `page(…)`).
 */
function pageModules(code: string, from = PAGE_VIEWS): Map<string, PageModule> {
  const pages = new Map<string, PageModule>();
  const visit = (node: unknown, found: { module?: string; parts: string[] }) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; source?: { value?: unknown }; value?: unknown };
    if (n.type === 'ImportExpression' && typeof n.source?.value === 'string') {
      found.module ??= fileURLToPath(new URL(n.source.value, `file://${from}`));
    }
    if (n.type === 'CallExpression') {
      for (const arg of (node as { arguments: { type: string; value?: unknown }[] }).arguments) {
        if (arg.type === 'Literal' && typeof arg.value === 'string') found.parts.push(arg.value);
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v, found));
      else if (value && typeof value === 'object') visit(value, found);
    }
  };
  for (const statement of parseAst(code, { lang: 'ts' }).body) {
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declaration of statement.declarations) {
      if (declaration.id.type !== 'Identifier' || declaration.id.name !== 'VIEWS') continue;
      if (declaration.init?.type !== 'ObjectExpression') continue;
      for (const property of declaration.init.properties) {
        if (property.type !== 'Property' || property.key.type !== 'Identifier') continue;
        const found: { module?: string; parts: string[] } = { parts: [] };
        visit(property.value, found);
        if (found.module) {
          pages.set(property.key.name, {
            module: ['.tsx', '.ts', ''].map((ext) => found.module + ext).find(existsSync)!,
            parts: found.parts,
          });
        }
      }
    }
  }
  return pages;
}

/** The inline script for `html` (the built index.html), the bundle and the first data calls. */
function routePreloadScript(
  html: string,
  bundle: Rollup.OutputBundle,
  firstCalls: Map<string, RecordedCall[]>,
): string {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const byModule = new Map(chunks.map((c) => [c.facadeModuleId, c]));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const files: string[] = [];
  const index = new Map<string, number>();
  /** The chunk of `module` and the chunks it imports statically, less what the HTML loads. */
  const closure = (module: string): number[] => {
    const start = byModule.get(module);
    if (!start) throw new Error(`preload-routes: no chunk for ${module}`);
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      byFile.get(file)?.imports.forEach(visit);
    };
    visit(start.fileName);
    return [...seen]
      .filter((file) => !html.includes(`/${file}"`))
      .map((file) => {
        if (!index.has(file)) index.set(file, files.push(file) - 1);
        return index.get(file)!;
      });
  };
  const union = (lists: number[][]) => [...new Set(lists.flat())].sort((a, b) => a - b);

  const pages = pageModules(readFileSync(PAGE_VIEWS, 'utf8'));
  // The locales: those with a signed-in catalogue (src/i18n/messages.ts).
  const locales = chunks
    .map(
      (c) => /[\\/]i18n[\\/]signed-in-([a-z]{2}-[A-Z]{2})\.ts$/.exec(c.facadeModuleId ?? '')?.[1],
    )
    .filter((locale) => locale !== undefined);
  const common: Record<string, number[]> = {};
  for (const locale of locales) {
    common[locale] = union([
      ...SHELL_MODULES.map(closure),
      closure(catalogue('signed-out', locale)),
      closure(catalogue('signed-in', locale)),
    ]);
  }
  const routes: Record<string, Record<string, number[]>> = {};
  const calls: Record<string, RecordedCall[]> = {};
  for (const name of firstCalls.keys()) {
    const route = ROUTES.find((r) => r.name === name);
    if (!route || !pages.has(name))
      throw new Error(`preload-routes: no page for first calls ${name}`);
    calls[route.path] = firstCalls.get(name)!;
  }
  for (const route of ROUTES) {
    const page = pages.get(route.name);
    if (!route.requiresAuth || !route.group || !page) continue;
    routes[route.path] = {};
    for (const locale of locales) {
      routes[route.path][locale] = union([
        closure(page.module),
        ...page.parts.map((part) => closure(catalogue(part, locale))),
      ]).filter((i) => !common[locale].includes(i));
    }
  }
  return inlineScript({ f: files, c: common, r: routes, q: calls });
}

export function preloadRoutes(): Plugin {
  // The API's base as the build has it (src/api/http.ts): only a root-relative one is called early.
  let apiBase = '/api/v1';
  return {
    name: 'preload-routes',
    apply: 'build',
    configResolved(config) {
      apiBase = (config.env.VITE_API_BASE as string | undefined) ?? apiBase;
    },
    transformIndexHtml: {
      order: 'post',
      // First in the head after the charset: the script runs (and its calls go) before the parser
      // meets the entry and its preloads, which would otherwise take the connections first.
      handler: async (html, ctx) => {
        const script = routePreloadScript(
          html,
          ctx.bundle ?? {},
          /^\/(?!\/)/.test(apiBase)
            ? await recordFirstCalls(apiBase.replace(/\/+$/, ''))
            : new Map(),
        );
        const charset = /<meta charset="[^"]*"\s*\/?>/i;
        if (!charset.test(html))
          throw new Error('preload-routes: index.html has no <meta charset>');
        return html.replace(
          charset,
          (meta) => `${meta}\n    <script id="${ROUTE_PRELOAD_ID}">${script}</script>`,
        );
      },
    },
  };
}
