import type { ZodType } from 'zod';

/**
 * The typed draft a dialog's machine owns (docs/architecture.md "Forms"): the fields as the
 * person typed them (`form`) and each field's message id (`errors`). The machine resets both when
 * the dialog opens (and for "another one"); `SET` changes one field and answers its message; the
 * dialog's check turns the form into the call's draft with the contract's zod schema, or into
 * the fields' messages, and then nothing is sent.
 */
export type FieldErrors = Record<string, string>;

export interface DraftForm<F> {
  form: F;
  errors: FieldErrors;
}

export type SetFieldEvent<F> = { type: 'SET'; field: keyof F & string; value: unknown };

/** What a check answers: the call's draft, or each field's message id. */
export type Checked<D> = { draft: D } | { errors: FieldErrors };

/** A fresh draft form: `empty` with what the dialog opens with. */
export function freshForm<F>(empty: F, start?: Partial<F>): DraftForm<F> {
  return { form: { ...empty, ...start }, errors: {} };
}

/** One field changed: its message is answered (the person acts on it). */
export function setField<F>(current: DraftForm<F>, field: string, value: unknown): DraftForm<F> {
  const { [field]: _answered, ...errors } = current.errors;
  return { form: { ...current.form, [field]: value }, errors };
}

/** The first message per top-level field of a refused body. */
export function fieldErrors(schema: ZodType, body: unknown): FieldErrors {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
