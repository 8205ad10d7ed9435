import { defineConfig } from '@chakra-ui/react';
import { systemStore } from './system-store';
import { createConsoleSystem } from './theme';
import { laterRecipes, laterSlotRecipes } from './theme-recipes-later';

/**
 * The console's system with the recipes of the lazily loaded views too (see theme-recipes.ts).
 * Chakra looks recipes up in the provider's system when a component renders, so the provider
 * switches to it before any such view renders: lazy.ts loads this module with every lazily
 * loaded view, and the switch (a synchronous external-store update) commits before the view's
 * lazy component resolves.
 */
export const fullSystem = createConsoleSystem(
  defineConfig({ theme: { recipes: laterRecipes, slotRecipes: laterSlotRecipes } }),
);

systemStore.set(fullSystem);
