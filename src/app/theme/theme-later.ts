import { system } from './theme';
import { laterRecipes, laterSlotRecipes } from './theme-recipes-later';

/**
 * Adds the recipes of the lazily loaded views to the console's Chakra system (see
 * theme-recipes.ts). Chakra looks recipes up in the system's theme when a component first
 * renders, so they must be in before any such view renders: lazy.ts loads this module with
 * every lazily loaded view.
 */
const theme = system._config.theme ?? {};
Object.assign((theme.recipes ??= {}), laterRecipes);
Object.assign((theme.slotRecipes ??= {}), laterSlotRecipes);
