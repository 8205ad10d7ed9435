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

/** rolldown's `output.codeSplitting.groups` of the console. */
export const chunkGroups = [
  ...VENDOR_CHUNKS.map((chunk, i) => ({
    ...chunk,
    tags: ['$initial' as const],
    priority: VENDOR_CHUNKS.length - i + 1,
  })),
  // The UI library code that lazily loaded views share, by the set of views that use it, so a
  // page loads only the code it shows. Only sets under 1 KB merge into a neighbour (saving a
  // request each): at 8 KB, rolldown merged the login page's small sets into the money pages'
  // menu, dialog and number-input code, 40 KB more on /login (tests/e2e/bundle.spec.ts holds the
  // login page to its budget).
  {
    name: 'ui',
    test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@floating-ui|@xstate)[\\/]/,
    entriesAware: true,
    entriesAwareMergeThreshold: 1_000,
    priority: 1,
  },
];
