import { z } from 'zod';
import type { ValidationMessageId } from './messages';

/**
 * The one rule for every string a caller sends (body, query): no C0 control characters
 * (U+0000–U+001F). NUL is refused by PostgreSQL's text type (a 500 before this rule); the others
 * are invisible, break CSV exports and logs, and never belong in a form's value. Multi-line
 * fields keep tab, line feed and carriage return.
 */
export const CONTROL_CHARS_MESSAGE: ValidationMessageId = 'validation.controlChars';

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
