import { fileURLToPath } from 'node:url';

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
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
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
