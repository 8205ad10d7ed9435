import type { SystemContext } from '@chakra-ui/react';
import { createConsoleSystem } from './theme';

/**
 * The Chakra system the console's provider uses: the first page's (theme.ts) until a lazily
 * loaded view brings the rest of the recipes, then a system built with all of them
 * (theme-later.ts). A new system through Chakra's public `createSystem`, never a write into one.
 */
let current: SystemContext | undefined;
const listeners = new Set<() => void>();

export const systemStore = {
  get: (): SystemContext => (current ??= createConsoleSystem()),
  set(next: SystemContext): void {
    if (next === current) return;
    current = next;
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
