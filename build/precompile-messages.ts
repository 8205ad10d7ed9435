import { readdirSync } from 'node:fs';
import type { Plugin } from 'vite';
import { withSsrLoader } from './ssr-loader.ts';

/** A part of a locale's catalogue: signed-out-<locale>, signed-in-<locale>, signed-in-<area>-<locale>. */
const PART_FILE = /^(signed-(?:out|in)(?:-[a-z]+)*-(?:en-US|zh-CN))\.ts$/;

/**
 * The catalogues' parts the console loads (src/i18n/messages.ts), every file of src/i18n named
 * as one, loaded through Vite's SSR loader (they are TypeScript modules).
 */
async function loadCatalogues(): Promise<Record<string, Record<string, string>>> {
  const names = readdirSync(new URL('../src/i18n/', import.meta.url))
    .map((file) => PART_FILE.exec(file)?.[1])
    .filter((name) => name !== undefined);
  return withSsrLoader(async (load) => {
    const out: Record<string, Record<string, string>> = {};
    for (const name of names) {
      out[name] = (
        (await load(`/src/i18n/${name}.ts`)) as { default: Record<string, string> }
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
export function precompileMessages(): Plugin {
  const catalogue = /[\\/]src[\\/]i18n[\\/](signed-(?:out|in)(?:-[a-z]+)*-(?:en-US|zh-CN))\.ts$/;
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
        Object.entries(catalogues).map(([name, messages]) => [
          name,
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
