import type { ComponentType } from 'react';

/**
 * Every view, dialog or panel the console loads lazily loads through this: with it come the
 * Chakra recipes that the first page does not carry (theme-later.ts), in before the view renders.
 */
export function withLaterTheme<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([import('../theme/theme-later'), load()]).then(([, loaded]) => loaded);
}

export type Lazy = () => Promise<{ Component: ComponentType }>;

/** A lazily loaded view, with the recipes of the views that are not on the first page. */
export const view = (load: () => Promise<{ default: ComponentType }>): Lazy =>
  withLaterTheme(() => load().then((m) => ({ Component: m.default })));
