/**
 * The Chakra recipes of the views that load lazily (the shell, the pages, the dialogs and the
 * toaster): not on the first page. See theme-recipes.ts.
 */
import { avatarSlotRecipe } from 'chakra-theme/recipes/avatar';
import { badgeRecipe } from 'chakra-theme/recipes/badge';
import { cardSlotRecipe } from 'chakra-theme/recipes/card';
import { dataListSlotRecipe } from 'chakra-theme/recipes/data-list';
import { datePickerSlotRecipe } from 'chakra-theme/recipes/date-picker';
import { dialogSlotRecipe } from 'chakra-theme/recipes/dialog';
import { drawerSlotRecipe } from 'chakra-theme/recipes/drawer';
import { emptyStateSlotRecipe } from 'chakra-theme/recipes/empty-state';
import { fieldsetSlotRecipe } from 'chakra-theme/recipes/fieldset';
import { kbdRecipe } from 'chakra-theme/recipes/kbd';
import { linkRecipe } from 'chakra-theme/recipes/link';
import { menuSlotRecipe } from 'chakra-theme/recipes/menu';
import { numberInputSlotRecipe } from 'chakra-theme/recipes/number-input';
import { skeletonRecipe } from 'chakra-theme/recipes/skeleton';
import { statSlotRecipe } from 'chakra-theme/recipes/stat';
import { switchSlotRecipe } from 'chakra-theme/recipes/switch';
import { tableSlotRecipe } from 'chakra-theme/recipes/table';
import { tabsSlotRecipe } from 'chakra-theme/recipes/tabs';
import { textareaRecipe } from 'chakra-theme/recipes/textarea';
import { toastSlotRecipe } from 'chakra-theme/recipes/toast';

export const laterRecipes = {
  badge: badgeRecipe,
  kbd: kbdRecipe,
  link: linkRecipe,
  skeleton: skeletonRecipe,
  textarea: textareaRecipe,
};

export const laterSlotRecipes = {
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  dataList: dataListSlotRecipe,
  datePicker: datePickerSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  fieldset: fieldsetSlotRecipe,
  menu: menuSlotRecipe,
  numberInput: numberInputSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};
