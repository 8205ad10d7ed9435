import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A labelled field with its validation message; the label names the control for assistive tech. */
export function FormField(props: {
  label: string;
  error?: string | null;
  helper?: string;
  required?: boolean;
  /** The field's control is disabled (a control inside a field takes the field's state). */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Field.Root invalid={Boolean(props.error)} required={props.required} disabled={props.disabled}>
      <Field.Label>
        {props.label}
        {props.required && <Field.RequiredIndicator />}
      </Field.Label>
      {props.children}
      {props.helper && !props.error && <Field.HelperText>{props.helper}</Field.HelperText>}
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}
