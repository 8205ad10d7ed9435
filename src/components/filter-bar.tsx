import { Button, Field, HStack, Input, NativeSelect } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { DateField } from './date-field';

/**
 * The filters above a list: a search landmark of labelled fields with Search and Reset. The view
 * keeps the draft values; Search applies them (the list machine's SET_FILTERS, back to page 1).
 */
export function FilterBar(props: {
  label: string;
  onApply: () => void;
  onReset: () => void;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <form
      role="search"
      aria-label={props.label}
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      <HStack gap="3" alignItems="flex-end" flexWrap="wrap">
        {props.children}
        <HStack gap="2">
          <Button type="submit" size="sm">
            {intl.formatMessage({ id: 'filter.search' })}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={props.onReset}>
            {intl.formatMessage({ id: 'filter.reset' })}
          </Button>
        </HStack>
      </HStack>
    </form>
  );
}

export interface Option {
  value: string;
  label: string;
}

/** A labelled choice; '' is "all" (no filter). */
export function FilterSelect(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly Option[];
  /** The label of '' (default: "All"). */
  allLabel?: string;
}) {
  const intl = useIntl();
  return (
    <Field.Root width="auto" minWidth="36">
      <Field.Label fontSize="sm">{props.label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        >
          <option value="">{props.allLabel ?? intl.formatMessage({ id: 'filter.all' })}</option>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** A labelled date (YYYY-MM-DD, the viewer's calendar) with a calendar in the console's language. */
export function FilterDate(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return <DateField {...props} />;
}

/** A labelled text filter. */
export function FilterText(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field.Root width="auto">
      <Field.Label fontSize="sm">{props.label}</Field.Label>
      <Input
        size="sm"
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </Field.Root>
  );
}
