import { build } from 'vite';
import { aliases } from './aliases.ts';

/**
 * A TypeScript module bundled with its imports into one minified classic script, for an inline
 * <script> (login.html's): Vite's own bundler, outside the console's build config (no chunking,
 * no plugins).
 */
export async function bundleInlineScript(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'error',
    resolve: { alias: aliases },
    build: {
      write: false,
      minify: true,
      modulePreload: false,
      copyPublicDir: false,
      rolldownOptions: { input: entry, output: { format: 'iife' } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) =>
    'output' in r ? r.output : [],
  );
  const chunk = outputs.find((o) => o.type === 'chunk' && o.isEntry);
  if (!chunk || chunk.type !== 'chunk') throw new Error(`bundleInlineScript: no code for ${entry}`);
  const code = chunk.code.trim();
  if (/<\/script/i.test(code)) throw new Error('bundleInlineScript: "</script" in the code');
  return code;
}
