import { contentValidationEnUS } from '../api/contract/messages-en-US';

/**
 * The en-US messages of the articles and agreements pages (/protocol/article, /protocol/agreement):
 * loaded with those pages' views (src/app/routes/page-views.ts).
 */
const signedInContentEnUS = {
  ...contentValidationEnUS,
} as const;

export default signedInContentEnUS;
