import type { z } from 'zod';
import { isValidationMessageId, type Locale } from '../../../src/api/contract/messages';
import { CONTROL_CHARS_MESSAGE, NAME_CHARS_MESSAGE } from '../../../src/api/contract/text';
import { t, type MessageId } from '../i18n';
import { AppError } from './errors';

/** Messages that say nothing about which field is wrong get the field's name in front. */
const GENERIC: ReadonlySet<MessageId> = new Set([
  'validation.invalid',
  'validation.required',
  'validation.tooLong',
  'validation.unknownField',
  'validation.controlChars',
  'validation.nameChars',
]);

/**
 * A zod failure as the `msg` of the reply: the first issue's message id in the caller's locale.
 * A control or hidden character comes first wherever it is: it is never a slip the other rules
 * explain.
 */
export function validationMessage(error: z.ZodError, locale: Locale): string {
  const issue =
    error.issues.find((i) => i.message === CONTROL_CHARS_MESSAGE) ??
    error.issues.find((i) => i.message === NAME_CHARS_MESSAGE) ??
    error.issues[0];
  if (!issue) return t(locale, 'validation.invalid');
  const separator = locale === 'zh-CN' ? '：' : ': ';
  if (issue.code === 'unrecognized_keys') {
    return `${t(locale, 'validation.unknownField')}${separator}${issue.keys.join(', ')}`;
  }
  const id: MessageId = isValidationMessageId(issue.message) ? issue.message : 'validation.invalid';
  // The top-level field the user filled in (not `group.1` for the second item of a list).
  const field = issue.path.length > 0 ? String(issue.path[0]) : '';
  const text = t(locale, id);
  return GENERIC.has(id) && field ? `${field}${separator}${text}` : text;
}

/** Zod failures become AppErrors whose message is already rendered (see the error handler). */
export class ValidationError extends AppError {
  constructor(readonly rendered: string) {
    super('validation.invalid');
    this.name = 'ValidationError';
  }
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  locale: Locale,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(validationMessage(result.error, locale));
  return result.data;
}
