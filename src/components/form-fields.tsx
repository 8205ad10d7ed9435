import {
  Alert,
  Checkbox,
  Fieldset,
  HStack,
  Input,
  InputGroup,
  NativeSelect,
  Stack,
  Switch,
} from '@chakra-ui/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { formatText } from '../i18n/intl';
import { FormField } from './form-field';

/**
 * The shared fields of the console's forms (a text, a number with its unit, a choice, a colour, a
 * flag, a list of checkboxes, the server's refusal) and a field's message: every form uses these,
 * whatever owns its draft (docs/architecture.md "Forms"). Values are strings as typed (the
 * contract's rules check them on submit); each field shows one value and reports each change
 * (`onChange`); labels name the controls. The image upload field (image-upload-field.tsx) and
 * the rich-text editor (views/content/rich-text-editor.tsx, a lazy chunk) are the other two.
 */

/** A field's message (a message id of the contract's rules, or a sentence), if any. */
export function useFieldError(errors: Record<string, string>) {
  const intl = useIntl();
  return (path: string): string | null => (errors[path] ? formatText(intl, errors[path]) : null);
}

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

export function TextField(
  props: FieldProps & {
    /** A decimal keyboard on phones (`inputMode` decimal). */
    numeric?: boolean;
    inputMode?: 'text' | 'url' | 'numeric' | 'decimal';
    maxLength?: number;
  },
) {
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      required={props.required}
      {...(props.helper ? { helper: props.helper } : {})}
    >
      <Input
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        inputMode={props.inputMode ?? (props.numeric ? 'decimal' : undefined)}
        maxLength={props.maxLength}
        type={props.inputMode === 'url' ? 'url' : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

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

export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  error?: string | null;
  disabled?: boolean;
  helper?: string;
  name?: string;
}) {
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      // Inside a field the select takes the field's `disabled`, not its root's.
      disabled={props.disabled}
      {...(props.helper ? { helper: props.helper } : {})}
    >
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          name={props.name}
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

/**
 * A colour as `#rrggbb` text beside a picker; '' (no colour) is a value of its own, the picker
 * then shows `fallback`.
 */
export function ColorField(props: FieldProps & { fallback: string; pickerLabel: string }) {
  const picked = /^#[0-9a-f]{6}$/i.test(props.value) ? props.value : props.fallback;
  // Its own id: the field's id (and label) belong to the text box.
  const pickerId = useId();
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      {...(props.helper ? { helper: props.helper } : {})}
    >
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
