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
  // The system-init settings: the key names the field (src/api/contract/init-config.ts).
  'validation.initConfigKey',
  'validation.initConfigUrl',
  'validation.initConfigFormat',
  'validation.initConfigRange',
  'validation.initConfigFile',
  'validation.initConfigClear',
]);

/** The issue a refusal reports: a control or hidden character first wherever it is (never a slip). */
const reported = (error: z.ZodError) =>
  error.issues.find((i) => i.message === CONTROL_CHARS_MESSAGE) ??
  error.issues.find((i) => i.message === NAME_CHARS_MESSAGE) ??
  error.issues[0];

/** The message id of a zod failure (its audit row's error code, server/platform/http/audit-trail.ts). */
function issueId(issue: z.ZodError['issues'][number] | undefined): MessageId {
  if (!issue) return 'validation.invalid';
  if (issue.code === 'unrecognized_keys') return 'validation.unknownField';
  return isValidationMessageId(issue.message) ? issue.message : 'validation.invalid';
}

/** A zod failure as the `msg` of the reply: the first issue's message in the caller's locale. */
export function validationMessage(error: z.ZodError, locale: Locale): string {
  const issue = reported(error);
  if (!issue) return t(locale, 'validation.invalid');
  const separator = locale === 'zh-CN' ? '：' : ': ';
  if (issue.code === 'unrecognized_keys') {
    return `${t(locale, 'validation.unknownField')}${separator}${issue.keys.join(', ')}`;
  }
  const id = issueId(issue);
  // The top-level field the user filled in (not `group.1` for the second item of a list).
  const field = issue.path.length > 0 ? String(issue.path[0]) : '';
  const text = t(locale, id);
  return GENERIC.has(id) && field ? `${field}${separator}${text}` : text;
}

/** Zod failures become AppErrors whose message is already rendered (see the error handler). */
export class ValidationError extends AppError {
  constructor(
    readonly rendered: string,
    id: MessageId = 'validation.invalid',
  ) {
    super(id);
    this.name = 'ValidationError';
  }
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  locale: Locale,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ValidationError(
      validationMessage(result.error, locale),
      issueId(reported(result.error)),
    );
  }
  return result.data;
}
