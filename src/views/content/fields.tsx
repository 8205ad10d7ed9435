import { Input, NativeSelect } from '@chakra-ui/react';
import { FormField } from '../../components/form-field';

/** A labelled one-line text field of the content forms. */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  numeric?: boolean;
  required?: boolean;
}) {
  return (
    <FormField label={props.label} error={props.error ?? null} required={props.required}>
      <Input
        value={props.value}
        inputMode={props.numeric ? 'numeric' : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

/** A labelled choice of the content forms. */
export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <FormField label={props.label}>
      <NativeSelect.Root>
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
