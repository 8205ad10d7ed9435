/**
 * The drafts of the small one-field dialogs on dialog actors (docs/architecture.md "Forms"): a
 * name (rename a resource or a group, a new group, a card's remark, a post's share link) and a
 * group to move rows to. Each starts from the row the dialog opens with and is checked with the
 * contract's schema of the call's body, so the dialog refuses what the server would (the field's
 * message id) and sends nothing then.
 */
import type { ZodType } from 'zod';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import { fieldErrors, type Checked } from '../../machines/draft-dialog';

/** A body checked with its schema: the body, or its first message as the field's. */
export function checkBody<P, F>(schema: ZodType, body: P, field: keyof F & string): Checked<P> {
  const errors = fieldErrors(schema, body);
  const first = errors[field] ?? Object.values(errors)[0];
  return first ? { errors: { [field]: first } } : { draft: body };
}

/** One text field (`text`), typed from the row's value; the body takes it trimmed. */
export interface TextValues {
  text: string;
}

export function textFields<T, P, G = undefined>(
  initial: (target: T | null, given: G | undefined) => string,
  body: (target: T | null, text: string) => P,
  schema: ZodType,
): CustomerDialogForm<T, P, TextValues, G> {
  return {
    start: (target, given) => ({ text: initial(target, given) }),
    check: (form, target) => checkBody(schema, body(target, form.text.trim()), 'text'),
  };
}

/** The group rows move to ('0': ungrouped), as the select holds it. */
export interface GroupValues {
  group: string;
}

export function groupFields<T, P>(
  initial: (target: T | null) => number | null,
  body: (target: T | null, groupId: number) => P,
  schema: ZodType,
): CustomerDialogForm<T, P, GroupValues> {
  return {
    start: (target) => ({ group: String(initial(target) ?? 0) }),
    check: (form, target) => checkBody(schema, body(target, Number(form.group)), 'group'),
  };
}
