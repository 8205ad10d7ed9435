import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAst, type Plugin, type Rollup } from 'vite';
import { STORAGE_KEYS } from '../src/api/contract/storage-keys.ts';
import { ROUTES } from '../src/app/routes/route-table.ts';

/**
 * A signed-in page loaded afresh in one wave (docs/architecture.md "Signed-in pages in one wave"):
 * index.html carries, as a small inline script, a map from each signed-in route's path to the
 * chunks its first render needs — the page's view and what it imports (its area's actors, the UI
 * code), the catalogue parts it names, the shell and its actors, the page table, the later theme
 * recipes and the signed-in catalogue, each in the stored locale. With a session stored, the
 * script adds a `<link rel=modulepreload>` for each before the entry runs, so they download beside
 * the entry instead of in waves behind the session check. No session (or another path): nothing.
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

/** The script itself: `manifest` is {f: files, c: per locale the common files, r: per path per locale}. */
function inlineScript(manifest: unknown): string {
  const keys = JSON.stringify({ token: STORAGE_KEYS.token, locale: STORAGE_KEYS.locale });
  return (
    `(function(m,k){try{` +
    `if(!localStorage.getItem(k.token)&&!sessionStorage.getItem(k.token))return;` +
    `var p=location.pathname.replace(/\\/+$/,''),r=m.r[p];if(!r)return;` +
    // No locale stored (or an unknown one): index.html's own, the default (as locale-store.ts).
    `var l=localStorage.getItem(k.locale);if(!m.c[l])l=document.documentElement.lang;` +
    `m.c[l].concat(r[l]).forEach(function(i){var e=document.createElement('link');` +
    `e.rel='modulepreload';e.crossOrigin='';e.dataset.route='';e.href='/'+m.f[i];document.head.appendChild(e)})` +
    `}catch(e){}})(${JSON.stringify(manifest)},${keys})`
  );
}

/** The inline script for `html` (the built index.html) and the bundle. */
function routePreloadScript(html: string, bundle: Rollup.OutputBundle): string {
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
  return inlineScript({ f: files, c: common, r: routes });
}

export function preloadRoutes(): Plugin {
  return {
    name: 'preload-routes',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => [
        {
          tag: 'script',
          attrs: { id: ROUTE_PRELOAD_ID },
          children: routePreloadScript(html, ctx.bundle ?? {}),
          injectTo: 'head' as const,
        },
      ],
    },
  };
}
