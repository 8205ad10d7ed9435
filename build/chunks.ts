import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';

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

interface ModuleGraph {
  getModuleInfo(id: string): { code: string | null; importedIds: readonly string[] } | null;
}

const LOGIN_VIEW = fileURLToPath(new URL('../src/views/login/login-page.tsx', import.meta.url));
const ENTRY = fileURLToPath(new URL('../src/main.tsx', import.meta.url));

/** The modules `from` imports statically, directly or not (dynamic imports are not followed). */
function staticImports(from: string, graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    graph.getModuleInfo(id)?.importedIds.forEach(visit);
  };
  visit(from);
  return seen;
}

// Worked out once per chunking pass (rolldown reuses its module infos within a pass).
const loginModulesOf = new WeakMap<object, Set<string>>();

/** The console's own modules the login view imports beyond the entry's (form field, schema form…). */
function loginViewModules(graph: ModuleGraph): Set<string> {
  const key = graph.getModuleInfo(LOGIN_VIEW) ?? graph;
  let modules = loginModulesOf.get(key);
  if (!modules) {
    const entry = staticImports(ENTRY, graph);
    modules = new Set(
      [...staticImports(LOGIN_VIEW, graph)].filter(
        (id) => id !== LOGIN_VIEW && !entry.has(id) && !/[\\/]node_modules[\\/]/.test(id),
      ),
    );
    loginModulesOf.set(key, modules);
  }
  return modules;
}

const CHAKRA_INDEX = /[\\/]node_modules[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]index\.js$/;

const loginUiRootsOf = new WeakMap<object, Set<string>>();

/**
 * The Chakra components the login view and its form modules import by name (`Checkbox`, `Input`…),
 * as the modules Chakra's index re-exports them from (`components/checkbox/namespace.js`…): where
 * the login's own UI library code starts. The module infos cannot give all of it: through the
 * index (an `export … from` for every component) the login view reaches every Chakra, Ark and Zag
 * module, as the entry and every view do. rolldown adds the rest (`includeDependenciesRecursively`
 * follows the imports a module's used code needs, past such indexes).
 */
function loginUiRoots(graph: ModuleGraph): Set<string> {
  const key = graph.getModuleInfo(LOGIN_VIEW) ?? graph;
  let roots = loginUiRootsOf.get(key);
  if (roots) return roots;
  roots = new Set();
  loginUiRootsOf.set(key, roots);
  const names = new Set<string>();
  let index: string | undefined;
  for (const id of [LOGIN_VIEW, ...loginViewModules(graph)]) {
    const info = graph.getModuleInfo(id);
    index ??= info?.importedIds.find((imported) => CHAKRA_INDEX.test(imported));
    for (const node of info?.code ? parseAst(info.code).body : []) {
      if (node.type !== 'ImportDeclaration' || node.source.value !== '@chakra-ui/react') continue;
      for (const spec of node.specifiers) {
        if (spec.type === 'ImportSpecifier' && spec.imported.type === 'Identifier') {
          names.add(spec.imported.name);
        }
      }
    }
  }
  const indexCode = index && graph.getModuleInfo(index)?.code;
  if (!index || !indexCode) return roots;
  // `import * as namespace$8 from './components/checkbox/namespace.js'` with
  // `export { namespace$8 as Checkbox }`, and `export { Input } from './components/input/input.js'`.
  const importedFrom = new Map<string, string>();
  for (const node of parseAst(indexCode).body) {
    if (node.type === 'ImportDeclaration') {
      for (const spec of node.specifiers) importedFrom.set(spec.local.name, node.source.value);
    } else if (node.type === 'ExportNamedDeclaration') {
      for (const spec of node.specifiers) {
        if (spec.local.type !== 'Identifier' || spec.exported.type !== 'Identifier') continue;
        if (!names.has(spec.exported.name)) continue;
        const from = node.source?.value ?? importedFrom.get(spec.local.name);
        if (from?.startsWith('.')) roots.add(resolve(dirname(index), from));
      }
    }
  }
  // A namespace (`Checkbox`: `components/checkbox/namespace.js`) only re-exports another module's
  // parts (`export { CheckboxRoot as Root, … } from './checkbox.js'`): that module is a root too.
  for (const root of roots) {
    for (const node of parseAst(graph.getModuleInfo(root)?.code ?? '').body) {
      const from = node.type === 'ExportNamedDeclaration' ? node.source?.value : undefined;
      if (from?.startsWith('.')) roots.add(resolve(dirname(root), from));
    }
  }
  return roots;
}

/** rolldown's `output.codeSplitting.groups` of the console. */
export const chunkGroups = [
  ...VENDOR_CHUNKS.map((chunk, i) => ({
    ...chunk,
    tags: ['$initial' as const],
    priority: VENDOR_CHUNKS.length - i + 2,
  })),
  // The locale and catalogue loader with the storage keys, in one chunk as before the notifications
  // bell: once the shell's notifications actor and the bell's lazy drawer also reached
  // storage-keys.ts (through src/api/http.ts), rolldown no longer gave it the same chunk as the
  // loader and /login fetched it as a 0.15 KB file of its own (≈ 0.45 KB with headers). A group
  // with every module named, so there is one 'messages' chunk, not two.
  {
    name: 'messages',
    test: /src[\\/](i18n[\\/](messages|locale-store)|api[\\/]contract[\\/](messages|storage-keys))\.ts$|vite[\\/]preload-helper/,
    includeDependenciesRecursively: false,
    priority: 3,
  },
  // The areas' registry and the actor factories the area modules share (list, load, customer
  // dialog machines) in one chunk: the shell's bell reaches areas.ts and the bell's drawer reaches
  // the list machine without the factories, and rolldown cut that chunk in three (two more files
  // on every signed-in page, ≈ 1 KB on the admin home).
  {
    name: 'areas',
    test: /src[\\/](app[\\/]actors[\\/](areas|factories)|machines[\\/](list|load|customers[\\/]customer-dialog))\.ts$/,
    includeDependenciesRecursively: false,
    priority: 3,
  },
  // The console's small modules the login view shares with other forms (form field, password
  // input, schema form) in one chunk beside it rather than one file each (≈ 0.2 KB of headers a
  // file on /login). Only those modules: their dependencies stay where they are (the entry's in
  // the entry, the UI library's below).
  {
    name: (id: string, graph: ModuleGraph) =>
      loginViewModules(graph).has(id) ? 'login-forms' : null,
    debugName: 'login-forms',
    includeDependenciesRecursively: false,
    priority: 2,
  },
  // The UI library code the login view needs beyond the entry's (its inputs, checkbox, alert… with
  // their Ark and Zag parts), in one chunk beside it. Left to 'ui' below, it was cut by the set of
  // views using each module: 16 files on /login once the matrix pages shared parts of it (≈ 0.3 KB
  // of headers each), some with another page's code merged in (fieldset, badge, data list). The
  // group starts from the components the login imports (loginUiRoots) and rolldown adds what their
  // used code imports; what the entry loads stays in the groups above (higher priorities). Views
  // that use part of it load all of it (≈ 11 KB brotli; the shell uses most of it anyway).
  {
    name: (id: string, graph: ModuleGraph) => (loginUiRoots(graph).has(id) ? 'login-ui' : null),
    debugName: 'login-ui',
    includeDependenciesRecursively: true,
    priority: 2,
  },
  // The UI library code that lazily loaded views share, by the set of views that use it, so a
  // page loads only the code it shows. Only sets under 0.6 KB merge into a neighbour (saving a
  // request each): at 8 KB, rolldown merged the login page's small sets into the money pages'
  // menu, dialog and number-input code, 40 KB more on /login; at 1 KB, once the video task pages
  // came, into dialog and drawer code, 20 KB more (tests/e2e/bundle.spec.ts holds the login page
  // to its budget). Fragile: a page added may move a merge again (docs/performance.md).
  {
    name: 'ui',
    test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@floating-ui|@xstate)[\\/]/,
    entriesAware: true,
    entriesAwareMergeThreshold: 600,
    priority: 1,
  },
];

/**
 * Chunk file names: `[name]-[hash].js`, except the UI library's shared chunks, which rolldown names
 * after every view that uses them (`ui~user-info-page~partner-page~…~<hash>`, up to 130
 * characters): the entry lists every chunk a lazily loaded view needs and each chunk names what it
 * imports, so on /login those names cost ≈ 2 KB brotli. They are `ui-[hash].js`; the source maps
 * (`vite build --sourcemap`) say what is in them.
 */
export function chunkFileNames(chunk: { name: string }): string {
  return chunk.name.startsWith('ui~') ? 'assets/ui-[hash].js' : 'assets/[name]-[hash].js';
}
