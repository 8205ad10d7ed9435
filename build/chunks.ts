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
  // The UI library code that lazily loaded views share, by the set of views that use it, with
  // the tiny sets merged into a neighbour: a view loads a few chunks instead of a dozen of < 1 KB
  // (each paying its request and headers).
  {
    name: 'ui',
    test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@floating-ui|@xstate)[\\/]/,
    entriesAware: true,
    entriesAwareMergeThreshold: 8_000,
    priority: 1,
  },
];
