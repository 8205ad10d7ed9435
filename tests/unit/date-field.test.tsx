/**
 * The console's day field (src/components/date-field.tsx): every text of its calendar — names,
 * descriptions, role descriptions, day, month and year cells, the header — follows the console's
 * locale, not zag's English defaults; inside a FormField it is that field's labelled control.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DateField } from '../../src/components/date-field';
import { FormDialog } from '../../src/components/form-dialog';
import { FormField } from '../../src/components/form-field';
import enUS from '../../src/i18n/en-US';
import zhCN from '../../src/i18n/zh-CN';
import { localeStore } from '../../src/i18n/locale-store';
import { appActors, renderAt } from '../model/view-harness';

// Each test opens a real calendar (three views in one): slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key]);

function Field(props: { label: string; start: string; inForm?: boolean }) {
  const [value, setValue] = useState(props.start);
  const field = <DateField label={props.label} value={value} onChange={setValue} />;
  return (
    <>
      {props.inForm ? (
        <FormField label={props.label} helper="helper text">
          {field}
        </FormField>
      ) : (
        field
      )}
      <output data-testid="value">{value}</output>
    </>
  );
}

function show(locale: 'zh-CN' | 'en-US', inForm = false) {
  localeStore.set(locale);
  const actors = appActors({});
  renderAt(actors, <Field label="起始日期" start="2026-11-05" inForm={inForm} />, '/');
  return actors;
}

/** Every text a person sees or hears in the open calendar and its field. */
function textsOf(...roots: Element[]): string[] {
  const texts: string[] = [];
  for (const root of roots) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      for (const attr of ['aria-label', 'aria-roledescription', 'title', 'placeholder']) {
        const value = el.getAttribute(attr);
        if (value) texts.push(value);
      }
      for (const node of el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
          texts.push(node.textContent.trim());
        }
      }
    }
  }
  return texts;
}

afterEach(() => {
  cleanup();
  localeStore.set('zh-CN');
});

describe('the calendar speaks the console’s language', () => {
  test('zh-CN: no English in the day, month and year views', async () => {
    const actors = show('zh-CN');
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: fill(zhCN['date.open'], { field: '起始日期' }) }),
    );
    const calendar = await screen.findByRole('application', {
      name: fill(zhCN['date.calendar'], { field: '起始日期' }),
    });
    const field = screen.getByRole('textbox', { name: '起始日期' }).closest('[data-part="root"]')!;
    const seen: string[] = [];
    const check = () => {
      const texts = textsOf(field, calendar);
      seen.push(...texts);
      expect(texts.filter((text) => /[A-Za-z]/.test(text))).toEqual([]);
    };
    // Day view: the picked day and the others, the header's buttons.
    expect(
      within(calendar).getByRole('button', { name: '已选日期:2026年11月5日星期四' }),
    ).toBeTruthy();
    expect(within(calendar).getByRole('button', { name: '选择2026年11月12日星期四' })).toBeTruthy();
    expect(within(calendar).getByRole('button', { name: '上个月' })).toBeTruthy();
    check();
    await user.click(within(calendar).getByRole('button', { name: '选择月份' }));
    await waitFor(() =>
      expect(within(calendar).getByRole('button', { name: '选择年份' })).toBeTruthy(),
    );
    expect(within(calendar).getByRole('button', { name: '上一年' })).toBeTruthy();
    check();
    await user.click(within(calendar).getByRole('button', { name: '选择年份' }));
    await waitFor(() =>
      expect(within(calendar).getByRole('button', { name: '前十年' })).toBeTruthy(),
    );
    check();
    expect(seen).toEqual(
      expect.arrayContaining(['日期选择器', '月历', '年历', '十年', '关闭起始日期的日历']),
    );
    actors.dispose();
  });

  test('en-US: the same texts in English', async () => {
    const actors = show('en-US');
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: fill(enUS['date.open'], { field: '起始日期' }) }),
    );
    const calendar = await screen.findByRole('application', {
      name: fill(enUS['date.calendar'], { field: '起始日期' }),
    });
    expect(calendar.getAttribute('aria-roledescription')).toBe('date picker');
    expect(
      within(calendar).getByRole('button', { name: 'Selected date: Thursday, November 5, 2026' }),
    ).toBeTruthy();
    await user.click(
      within(calendar).getByRole('button', { name: 'Choose Thursday, November 12, 2026' }),
    );
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('2026-11-12'));
    actors.dispose();
  });
});

test('inside a FormField: the field’s label and helper name and describe its input', async () => {
  const actors = show('en-US', true);
  const input = screen.getByRole('textbox', { name: '起始日期' });
  expect(input.getAttribute('aria-describedby')).toBeTruthy();
  expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
    'helper text',
  );
  // The field's own label, not a second one.
  expect(screen.getAllByText('起始日期')).toHaveLength(1);
  const user = userEvent.setup();
  await user.clear(input);
  await user.type(input, '2027-01-02');
  await user.tab();
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('2027-01-02'));
  await user.clear(input);
  await user.tab();
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe(''));
  actors.dispose();
});

test('in a dialog the calendar opens inside it; a picked day neither closes nor submits it', async () => {
  localeStore.set('en-US');
  const actors = appActors({});
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  renderAt(
    actors,
    <FormDialog
      open
      title="Expiry"
      submitLabel="Save"
      submitting={false}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <Field label="Day" start="2026-11-05" inForm />
    </FormDialog>,
    '/',
  );
  const dialog = await screen.findByRole('dialog', { name: 'Expiry' });
  const user = userEvent.setup();
  await user.click(
    within(dialog).getByRole('button', { name: fill(enUS['date.open'], { field: 'Day' }) }),
  );
  const calendar = await screen.findByRole('application', {
    name: fill(enUS['date.calendar'], { field: 'Day' }),
  });
  expect(dialog.contains(calendar)).toBe(true);
  await user.click(
    within(calendar).getByRole('button', { name: 'Choose Thursday, November 12, 2026' }),
  );
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('2026-11-12'));
  expect(onClose).not.toHaveBeenCalled();
  expect(onSubmit).not.toHaveBeenCalled();
  actors.dispose();
});
