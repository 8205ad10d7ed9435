import { HStack, Input, NativeSelect, Switch } from '@chakra-ui/react';
import { useId } from 'react';
import { FormField } from './form-field';

/**
 * The shared fields of a form whose draft lives in a machine: each shows one value and reports
 * each change (`onChange`); the machine keeps the draft and its errors (message texts already
 * formatted). Labels name the controls.
 */
interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helper?: string;
  required?: boolean;
  disabled?: boolean;
  name?: string;
}

export function TextField(props: FieldProps & { inputMode?: 'text' | 'url' | 'numeric' }) {
  return (
    <FormField
      label={props.label}
      error={props.error}
      helper={props.helper}
      required={props.required}
    >
      <Input
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        inputMode={props.inputMode}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

export function SelectField(
  props: FieldProps & { options: readonly { value: string; label: string }[] },
) {
  return (
    <FormField label={props.label} error={props.error} helper={props.helper}>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          name={props.name}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
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

/**
 * A colour as `#rrggbb` text beside a picker; '' (no colour) is a value of its own, the picker
 * then shows `fallback`.
 */
export function ColorField(props: FieldProps & { fallback: string; pickerLabel: string }) {
  const picked = /^#[0-9a-f]{6}$/i.test(props.value) ? props.value : props.fallback;
  // Its own id: the field's id (and label) belong to the text box.
  const pickerId = useId();
  return (
    <FormField label={props.label} error={props.error} helper={props.helper}>
      <HStack gap="2">
        <Input
          name={props.name}
          value={props.value}
          disabled={props.disabled}
          autoComplete="off"
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
        <Input
          type="color"
          id={pickerId}
          width="14"
          padding="1"
          aria-label={props.pickerLabel}
          value={picked.toLowerCase()}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      </HStack>
    </FormField>
  );
}

/** A 0/1 flag as a switch ('1' on). */
export function SwitchField(props: Omit<FieldProps, 'error' | 'helper' | 'required'>) {
  return (
    <Switch.Root
      name={props.name}
      checked={props.value === '1'}
      disabled={props.disabled}
      onCheckedChange={(e) => props.onChange(e.checked ? '1' : '0')}
    >
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>{props.label}</Switch.Label>
    </Switch.Root>
  );
}
