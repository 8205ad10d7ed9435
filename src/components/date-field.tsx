import { DatePicker, Portal, parseDate, useFieldContext, type DateValue } from '@chakra-ui/react';
import { useCallback, useState } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../i18n/messages';
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

type Translations = NonNullable<DatePicker.RootProps['translations']>;

/**
 * A day field (YYYY-MM-DD) with a calendar in the console's language (Chakra's DatePicker, given
 * the console's locale and its texts): the browser's own date input would follow the browser's
 * language instead (mm/dd/yyyy in a zh-CN console on an English browser). Alone (a filter) it
 * shows `label` itself; inside a FormField it is that field's control, like Chakra's Input (the
 * field's label, helper, error and required mark), and `label` names its calendar.
 */
export function DateField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const intl = useIntl();
  const field = useFieldContext();
  // In a dialog the calendar opens inside it (its focus trap and its outside-click dismissal
  // take the calendar as the dialog's own), placed `fixed` so the dialog's scrolling body does
  // not clip it; elsewhere it opens at the document's end.
  const [dialog, setDialog] = useState<HTMLElement | null>(null);
  const findDialog = useCallback(
    (el: HTMLDivElement | null) => setDialog(el?.closest<HTMLElement>('[role="dialog"]') ?? null),
    [],
  );
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  // zag's own texts are English: every one the picker shows or announces, in the console's words.
  const translations: Translations = {
    dayCell: (cell) =>
      t(
        cell.unavailable ? 'date.dayUnavailable' : cell.selected ? 'date.daySelected' : 'date.day',
        {
          date: cell.valueText,
        },
      ),
    trigger: (open) => t(open ? 'date.close' : 'date.open', { field: props.label }),
    content: t('date.calendar', { field: props.label }),
    prevTrigger: (view) => t('date.previous', { view }),
    nextTrigger: (view) => t('date.next', { view }),
    viewTrigger: (_view, next) => t('date.chooseView', { view: next ?? 'none' }),
  };
  // Chakra's DayTable and its siblings pass these to the table: zag's are English.
  const table = (view: 'day' | 'month' | 'year') => ({
    'aria-roledescription': t('date.table', { view }),
  });
  return (
    <DatePicker.Root
      ref={findDialog}
      // The calendar (six weeks of days, the months, the years) is built only while it is open.
      lazyMount
      unmountOnExit
      positioning={dialog ? { strategy: 'fixed' } : undefined}
      size={field ? 'md' : 'sm'}
      width={field ? 'full' : '40'}
      locale={intl.locale}
      translations={translations}
      format={formatDay}
      parse={parseDay}
      placeholder={t('date.placeholder')}
      value={DAY.test(props.value) ? [parseDate(props.value)] : []}
      onValueChange={({ value }) => props.onChange(value[0] ? formatDay(value[0]) : '')}
      // In a FormField: the input is the control its label points at.
      ids={field ? { input: () => field.ids.control } : undefined}
      disabled={props.disabled ?? field?.disabled}
      invalid={field?.invalid}
      required={field?.required}
    >
      {!field && <DatePicker.Label fontSize="sm">{props.label}</DatePicker.Label>}
      <DatePicker.Control>
        <DatePicker.Input
          aria-describedby={field?.ariaDescribedby}
          aria-errormessage={field?.invalid ? field.ids.errorText : undefined}
        />
        <DatePicker.IndicatorGroup>
          <DatePicker.Trigger>
            <Icon name="calendar" size={16} />
          </DatePicker.Trigger>
        </DatePicker.IndicatorGroup>
      </DatePicker.Control>
      <Portal container={dialog ? { current: dialog } : undefined}>
        <DatePicker.Positioner>
          <DatePicker.Content aria-roledescription={t('date.picker')}>
            <DatePicker.View view="day">
              <DatePicker.Header />
              <DatePicker.DayTable {...table('day')} />
            </DatePicker.View>
            <DatePicker.View view="month">
              <DatePicker.Header />
              <DatePicker.MonthTable {...table('month')} />
            </DatePicker.View>
            <DatePicker.View view="year">
              <DatePicker.Header />
              <DatePicker.YearTable {...table('year')} />
            </DatePicker.View>
          </DatePicker.Content>
        </DatePicker.Positioner>
      </Portal>
    </DatePicker.Root>
  );
}
