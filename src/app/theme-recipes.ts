/**
 * The Chakra recipes the console uses — and only these reach the bundle. Deep-imported through
 * the `chakra-theme/*` alias (vite.config.ts, tsconfig.json): importing `@chakra-ui/react/theme`
 * would build Chakra's whole default config. A component whose recipe is missing renders
 * unstyled: tests/unit/theme-recipes.test.ts scans src/ and names any that lack theirs here.
 */
import { alertSlotRecipe } from 'chakra-theme/recipes/alert';
import { avatarSlotRecipe } from 'chakra-theme/recipes/avatar';
import { badgeRecipe } from 'chakra-theme/recipes/badge';
import { buttonRecipe } from 'chakra-theme/recipes/button';
import { cardSlotRecipe } from 'chakra-theme/recipes/card';
import { checkboxSlotRecipe } from 'chakra-theme/recipes/checkbox';
import { checkmarkRecipe } from 'chakra-theme/recipes/checkmark';
import { dataListSlotRecipe } from 'chakra-theme/recipes/data-list';
import { dialogSlotRecipe } from 'chakra-theme/recipes/dialog';
import { drawerSlotRecipe } from 'chakra-theme/recipes/drawer';
import { emptyStateSlotRecipe } from 'chakra-theme/recipes/empty-state';
import { fieldSlotRecipe } from 'chakra-theme/recipes/field';
import { headingRecipe } from 'chakra-theme/recipes/heading';
import { iconRecipe } from 'chakra-theme/recipes/icon';
import { inputAddonRecipe } from 'chakra-theme/recipes/input-addon';
import { inputRecipe } from 'chakra-theme/recipes/input';
import { kbdRecipe } from 'chakra-theme/recipes/kbd';
import { linkRecipe } from 'chakra-theme/recipes/link';
import { menuSlotRecipe } from 'chakra-theme/recipes/menu';
import { nativeSelectSlotRecipe } from 'chakra-theme/recipes/native-select';
import { numberInputSlotRecipe } from 'chakra-theme/recipes/number-input';
import { skeletonRecipe } from 'chakra-theme/recipes/skeleton';
import { spinnerRecipe } from 'chakra-theme/recipes/spinner';
import { statSlotRecipe } from 'chakra-theme/recipes/stat';
import { switchSlotRecipe } from 'chakra-theme/recipes/switch';
import { textareaRecipe } from 'chakra-theme/recipes/textarea';
import { toastSlotRecipe } from 'chakra-theme/recipes/toast';

export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  kbd: kbdRecipe,
  link: linkRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  numberInput: numberInputSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  toast: toastSlotRecipe,
};
