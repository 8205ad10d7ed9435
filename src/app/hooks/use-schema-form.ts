import { useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { z } from 'zod';
import { formatText } from '../../i18n/intl';
import { fieldErrors } from './zod-errors';

type Values = Record<string, string>;

/**
 * The schema, or a loader of it: a form on the first page (login) loads its rules — and zod —
 * when first wanted instead of with the page (`preload` on the first focus or pointer).
 */
export type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

/**
 * A form's values and errors, validated with the contract's zod schema (the server's own), so the
 * form refuses exactly what the server would. `validate` resolves to the parsed payload or null.
 */
export function useSchemaForm<V extends Values, S extends z.ZodType>(
  source: SchemaSource<S>,
  initial: V,
) {
  const intl = useIntl();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const loading = useRef<Promise<S> | null>(null);
  const load = (): Promise<S> =>
    typeof source === 'function'
      ? (loading.current ??= source().catch((error: unknown) => {
          loading.current = null; // a failed load is tried again by the next validate
          throw error;
        }))
      : Promise.resolve(source);
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
    /** Starts loading a lazily loaded schema (a no-op for a schema given as it is). */
    preload: () => {
      load().catch(() => {});
    },
    async validate(extra: Values = {}): Promise<z.output<S> | null> {
      const schema = await load();
      const parsed = schema.safeParse({ ...values, ...extra });
      setErrors(parsed.success ? {} : fieldErrors(parsed.error));
      return parsed.success ? parsed.data : null;
    },
    reset: () => setValues(initial),
  };
}
