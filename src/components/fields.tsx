import {
  Checkbox,
  Fieldset,
  Input,
  InputGroup,
  NativeSelect,
  Stack,
  Switch,
} from '@chakra-ui/react';
import { FormField } from './form-field';

/**
 * Shared form fields over a string value (a machine's draft holds strings: what was typed is kept
 * as typed until the contract's rules check it). Each control is named by its visible label.
 */

/** A text field with its unit beside it (money, seconds, bytes…) and a helper (e.g. the range). */
export function UnitTextField(props: {
  label: string;
  unit?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helper?: string;
  placeholder?: string;
  disabled?: boolean;
  inputMode?: 'decimal' | 'numeric';
}) {
  const input = (
    <Input
      value={props.value}
      placeholder={props.placeholder}
      disabled={props.disabled}
      inputMode={props.inputMode}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
  return (
    <FormField label={props.label} error={props.error} helper={props.helper}>
      {props.unit ? <InputGroup endAddon={props.unit}>{input}</InputGroup> : input}
    </FormField>
  );
}

/** A "0" / "1" switch. */
export function SwitchField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <Switch.Root
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

/** A comma list of chosen options as a group of checkboxes, in the options' order. */
export function CheckboxListField(props: {
  legend: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const chosen = props.value === '' ? [] : props.value.split(',').map((s) => s.trim());
  const toggle = (option: string, on: boolean) =>
    props.onChange(
      props.options
        .map((o) => o.value)
        .filter((v) => (v === option ? on : chosen.includes(v)))
        .join(','),
    );
  return (
    <Fieldset.Root invalid={Boolean(props.error)}>
      <Fieldset.Legend>{props.legend}</Fieldset.Legend>
      <Stack gap="2">
        {props.options.map((o) => (
          <Checkbox.Root
            key={o.value}
            checked={chosen.includes(o.value)}
            disabled={props.disabled}
            onCheckedChange={(e) => toggle(o.value, e.checked === true)}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{o.label}</Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
      {props.error && <Fieldset.ErrorText>{props.error}</Fieldset.ErrorText>}
    </Fieldset.Root>
  );
}

/** A native select of fixed options. */
export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  return (
    <FormField label={props.label}>
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
