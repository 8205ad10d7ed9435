import type { Plugin } from 'vite';

/**
 * Preloads the login view with the entry: the router would only ask for it once the entry has
 * run, a round trip later. (Small, and the page a signed-out visitor always lands on.)
 */
export function preloadLoginView(): Plugin {
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
