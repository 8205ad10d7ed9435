/**
 * The Chakra recipes the console uses — and only these reach the bundle. Deep-imported through
 * the `chakra-theme/*` alias (build/aliases.ts, tsconfig.json): importing `@chakra-ui/react/theme`
 * would build Chakra's whole default config. A component whose recipe is missing renders
 * unstyled: tests/unit/theme-recipes.test.ts scans src/ and names any that lack theirs here.
 *
 * These are the first page's (the login page, and what the console shows before any view has
 * loaded); the others are in theme-recipes-later.ts, added by theme-later.ts before any lazily
 * loaded view renders (lazy.ts). The test checks both halves.
 */
import { alertSlotRecipe } from 'chakra-theme/recipes/alert';
import { buttonRecipe } from 'chakra-theme/recipes/button';
import { checkboxSlotRecipe } from 'chakra-theme/recipes/checkbox';
import { checkmarkRecipe } from 'chakra-theme/recipes/checkmark';
import { fieldSlotRecipe } from 'chakra-theme/recipes/field';
import { headingRecipe } from 'chakra-theme/recipes/heading';
import { iconRecipe } from 'chakra-theme/recipes/icon';
import { inputRecipe } from 'chakra-theme/recipes/input';
import { inputAddonRecipe } from 'chakra-theme/recipes/input-addon';
import { nativeSelectSlotRecipe } from 'chakra-theme/recipes/native-select';
import { spinnerRecipe } from 'chakra-theme/recipes/spinner';

export const recipes = {
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  spinner: spinnerRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  checkbox: checkboxSlotRecipe,
  field: fieldSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
};
