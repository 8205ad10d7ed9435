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

/**
 * A day range of the viewer's calendar as epoch milliseconds: from the start of `from` to the
 * last millisecond of `to` (the API's range is inclusive); '' leaves that end open.
 */
export function dayRange(from: string, to: string): { start?: number; end?: number } {
  const day = (text: string, offset: number) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + offset).getTime() : null;
  };
  const start = day(from, 0);
  const next = day(to, 1);
  return {
    ...(start !== null ? { start } : {}),
    ...(next !== null ? { end: next - 1 } : {}),
  };
}

/** Epoch milliseconds as `YYYY-MM-DD HH:mm` in the viewer's zone (docs/domain.md §2). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
