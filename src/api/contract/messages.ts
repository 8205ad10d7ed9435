/**
 * Validation messages shared by the console (form errors) and the server (`msg` of a refused call).
 * Schemas carry these ids as their error messages; each side renders them in the user's locale.
 */
import { validationMessagesEnUS } from './messages-en-US';
import { validationMessagesZhCN } from './messages-zh-CN';

export const validationMessages = {
  'en-US': validationMessagesEnUS,
  'zh-CN': validationMessagesZhCN,
} as const;

export type ValidationMessageId = keyof (typeof validationMessages)['en-US'];
export type Locale = keyof typeof validationMessages;
export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US'];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export function isValidationMessageId(id: string): id is ValidationMessageId {
  return Object.prototype.hasOwnProperty.call(validationMessages['en-US'], id);
}
