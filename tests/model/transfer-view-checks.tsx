/**
 * What a person sees in each state of a money dialog (transfer or exchange), asserted on the
 * rendered dialog from DIALOG_STATES (transfer-model.ts): open or not, the step's content, the
 * buttons in order, and the busy confirm button.
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import type { MoneyCallSnapshot } from '../../src/machines/money-call';
import { DIALOG_STATES, REFUSED, type DialogState } from './transfer-model';
import { flush, isOpen } from './view-harness';

const BUTTON: Record<string, MessageId> = {
  cancel: 'form.cancel',
  review: 'property.next',
  back: 'property.back',
  retry: 'property.retry',
  again: 'property.again',
  close: 'form.close',
};

export async function assertDialogSees<D, R>(
  snapshot: MoneyCallSnapshot<D, R>,
  texts: { title: MessageId; confirm: MessageId; confirmText: MessageId; done: MessageId },
) {
  await flush();
  const sees = DIALOG_STATES[snapshot.value as DialogState].sees(snapshot.context.uncertain);
  const open = screen.queryAllByRole('dialog').filter(isOpen);
  if (!sees.open) {
    expect(open).toHaveLength(0);
    return;
  }
  expect(open).toHaveLength(1);
  const dialog = within(open[0]);
  dialog.getByRole('heading', { name: enUS[texts.title] });

  const names = dialog
    .getAllByRole('button')
    .map((b) => b.textContent || b.getAttribute('aria-label'));
  const expected = sees.buttons!.map((b) =>
    b === 'confirm' ? enUS[texts.confirm] : enUS[BUTTON[b]],
  );
  // The dialog's own close button (×) comes last.
  expect(names).toEqual([...expected, enUS['form.close']]);
  const confirm = dialog.queryByRole('button', { name: enUS[texts.confirm] });
  if (sees.busy) {
    expect(confirm?.getAttribute('aria-busy')).toBe('true');
    // Nothing else can be pressed while the call is under way.
    expect(
      dialog.getByRole('button', { name: enUS['property.back'] }).hasAttribute('disabled'),
    ).toBe(true);
  } else if (confirm) {
    expect(confirm.getAttribute('aria-busy')).toBe('false');
  }

  switch (sees.step) {
    case 'form':
      expect(dialog.queryByText(enUS[texts.confirmText])).toBeNull();
      break;
    case 'confirm':
      dialog.getByText(enUS[texts.confirmText]);
      break;
    case 'error': {
      const alert = dialog.getByRole('alert');
      const message = snapshot.context.uncertain ? enUS['http.networkError'] : REFUSED;
      expect(alert.textContent).toContain(message);
      expect(alert.textContent?.includes(enUS['property.uncertain'])).toBe(
        snapshot.context.uncertain,
      );
      break;
    }
    case 'result':
      expect(dialog.getByRole('status').textContent).toBe(enUS[texts.done]);
      break;
  }
}
