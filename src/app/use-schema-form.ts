import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { z } from 'zod';
import { formatText } from '../i18n/intl';
import { fieldErrors } from './zod-errors';

type Values = Record<string, string>;

/**
 * A form's values and errors, validated with the contract's zod schema (the server's own), so the
 * form refuses exactly what the server would. `validate` returns the parsed payload or null.
 */
export function useSchemaForm<V extends Values, S extends z.ZodType>(schema: S, initial: V) {
  const intl = useIntl();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return {
    values,
    setValues,
    bind: (key: keyof V & string) => ({
      name: key,
      value: values[key],
      onChange: (e: { target: { value: string } }) =>
        setValues((v) => ({ ...v, [key]: e.target.value })),
    }),
    error: (key: string): string | null => (errors[key] ? formatText(intl, errors[key]) : null),
    setError: (key: string, messageId: string) => setErrors((e) => ({ ...e, [key]: messageId })),
    validate(extra: Values = {}): z.output<S> | null {
      const parsed = schema.safeParse({ ...values, ...extra });
      setErrors(parsed.success ? {} : fieldErrors(parsed.error));
      return parsed.success ? parsed.data : null;
    },
    reset: () => setValues(initial),
  };
}
