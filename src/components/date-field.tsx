import { DatePicker, Portal, parseDate, type DateValue } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { Icon } from './icons';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day as the console writes dates everywhere: `YYYY-MM-DD` (in either locale). */
const formatDay = (date: DateValue) => date.toString().slice(0, 10);
/**
 * What a person typed: the picker keeps only digits and its locale's separator (`/`), so
 * `2026-11-05` arrives as `20261105`; `2026/11/05` is taken too.
 */
const parseDay = (text: string) => {
  const m = /^(\d{4})\D?(\d{2})\D?(\d{2})$/.exec(text.trim());
  return m ? parseDate(`${m[1]}-${m[2]}-${m[3]}`) : undefined;
};

/**
 * A labelled day field (YYYY-MM-DD) with a calendar in the console's language (Chakra's
 * DatePicker, given the console's locale): the browser's own date input would follow the
 * browser's language instead (mm/dd/yyyy in a zh-CN console on an English browser).
 */
export function DateField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const intl = useIntl();
  return (
    <DatePicker.Root
      size="sm"
      width="40"
      locale={intl.locale}
      format={formatDay}
      parse={parseDay}
      placeholder={intl.formatMessage({ id: 'date.placeholder' })}
      value={DAY.test(props.value) ? [parseDate(props.value)] : []}
      onValueChange={({ value }) => props.onChange(value[0] ? formatDay(value[0]) : '')}
    >
      <DatePicker.Label fontSize="sm">{props.label}</DatePicker.Label>
      <DatePicker.Control>
        <DatePicker.Input />
        <DatePicker.IndicatorGroup>
          <DatePicker.Trigger
            aria-label={intl.formatMessage({ id: 'date.open' }, { field: props.label })}
          >
            <Icon name="calendar" size={16} />
          </DatePicker.Trigger>
        </DatePicker.IndicatorGroup>
      </DatePicker.Control>
      <Portal>
        <DatePicker.Positioner>
          <DatePicker.Content>
            <DatePicker.View view="day">
              <DatePicker.Header />
              <DatePicker.DayTable />
            </DatePicker.View>
            <DatePicker.View view="month">
              <DatePicker.Header />
              <DatePicker.MonthTable />
            </DatePicker.View>
            <DatePicker.View view="year">
              <DatePicker.Header />
              <DatePicker.YearTable />
            </DatePicker.View>
          </DatePicker.Content>
        </DatePicker.Positioner>
      </Portal>
    </DatePicker.Root>
  );
}
