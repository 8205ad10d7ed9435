import { z } from 'zod';
import type { ValidationMessageId } from './messages';

/**
 * The one rule for every string a caller sends (body, query): no C0 control characters
 * (U+0000–U+001F). NUL is refused by PostgreSQL's text type (a 500 before this rule); the others
 * are invisible, break CSV exports and logs, and never belong in a form's value. Multi-line
 * fields keep tab, line feed and carriage return.
 */
export const CONTROL_CHARS_MESSAGE: ValidationMessageId = 'validation.controlChars';
/** A display name's refusal of a character that is invisible or changes how the text shows. */
export const NAME_CHARS_MESSAGE: ValidationMessageId = 'validation.nameChars';

// Matching control characters is this rule's whole point (and a pattern shows in JSON Schema).
// eslint-disable-next-line no-control-regex
const singleLine = z.regex(/^[^\u0000-\u001f]*$/, { message: CONTROL_CHARS_MESSAGE });
// eslint-disable-next-line no-control-regex
const multiLine = z.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f]*$/, {
  message: CONTROL_CHARS_MESSAGE,
});

/** A single-line string input; `message` is shown when the value is not a string at all. */
export const text = (message: ValidationMessageId = 'validation.invalid') =>
  z.string({ message }).check(singleLine);

/** A string input that may span lines (a textarea). */
export const multilineText = (message: ValidationMessageId = 'validation.invalid') =>
  z.string({ message }).check(multiLine);

/** An email address input (the format already excludes controls; the rule names them). */
export const emailText = (message: ValidationMessageId = 'validation.email') =>
  z.email({ message }).check(singleLine);

/**
 * What a display name must not contain: control (Cc) and format (Cf) characters — bidi overrides
 * such as U+202E show `exe.mp4` for `mp4.exe`, zero-width ones make two names look alike — and
 * line or paragraph separators (a name is one line).
 */
export const HIDDEN_NAME_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const visibleName = z.regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u, { message: NAME_CHARS_MESSAGE });

export interface NameRule {
  /** Characters at most, after trimming. */
  max: number;
  /** Shown when the value is no string, empty or too long (e.g. 'validation.resourceName'). */
  message?: ValidationMessageId;
  /** Shown when too long, where it differs from `message`. */
  tooLong?: ValidationMessageId;
  /** '' is a value of its own (it clears an optional field, such as a customer's nickname). */
  allowEmpty?: boolean;
}

/**
 * The one rule for every display name a caller sends (resources, groups, tasks, clones, videos,
 * packages, people's names and nicknames, the name an upload is granted for): one line of
 * visible characters, trimmed, within the field's length.
 */
export const displayName = ({
  max,
  message = 'validation.invalid',
  tooLong = message,
  allowEmpty = false,
}: NameRule) =>
  text(message)
    .check(visibleName)
    .trim()
    .min(allowEmpty ? 0 : 1, { message })
    .max(max, { message: tooLong });
