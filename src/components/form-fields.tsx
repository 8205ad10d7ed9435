import { Alert, Input, NativeSelect } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { formatText } from '../i18n/intl';
import { FormField } from './form-field';

/**
 * The shared fields of the console's forms (a text, a choice, the server's refusal) and a
 * field's message: every form uses these, whatever owns its draft (a machine or a schema-form
 * hook over the zod contract).
 */

/** A field's message (a message id of the contract's rules, or a sentence), if any. */
export function useFieldError(errors: Record<string, string>) {
  const intl = useIntl();
  return (path: string): string | null => (errors[path] ? formatText(intl, errors[path]) : null);
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helper?: string;
  numeric?: boolean;
  required?: boolean;
  disabled?: boolean;
}) {
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      required={props.required}
      {...(props.helper ? { helper: props.helper } : {})}
    >
      <Input
        value={props.value}
        disabled={props.disabled}
        inputMode={props.numeric ? 'decimal' : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  helper?: string;
}) {
  return (
    <FormField label={props.label} helper={props.helper}>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value as V)}
        >
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

/** The form's refusal by the server. */
export function FormRefusal(props: { error: string | null }) {
  const intl = useIntl();
  if (!props.error) return null;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Title>{formatText(intl, props.error)}</Alert.Title>
    </Alert.Root>
  );
}
