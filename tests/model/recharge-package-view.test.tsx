/**
 * The package form of /account/recharge, rendered for real (intl, theme, the dialog machine with
 * a fake call): it refuses what the server's schemas refuse, with their localised messages and
 * without sending anything; it sends a new package as typed and an edit as only what changed; a
 * refusal from the server shows its sentence with Retry and Back to the form.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { createActor } from 'xstate';
import type { RechargePackage } from '../../src/api/contract/recharge';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import zhCN from '../../src/i18n/zh-CN';
import { createCustomerDialogMachine } from '../../src/machines/customers/customer-dialog';
import { PackageFormDialog } from '../../src/views/account/package-dialog';
import {
  packageFields,
  type PackagePayload,
  type PackageValues,
} from '../../src/app/actors/package-form';
import { fakeCalls } from './harness';
import { viewPathHooks } from './ui-paths';
import { appActors, flush, isOpen, renderAt } from './view-harness';

viewPathHooks();

const ROW: RechargePackage = {
  id: 7,
  name: 'Standard',
  price: '100.00',
  money: '100.00',
  gift_money: '10.00',
  sort: 2,
  status: 1,
  description: 'Recharge 100, get 10',
  created_at: 0,
  updated_at: 0,
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/** The dialog open for `target` (null: a new package), with its fake call. */
async function openDialog(target: RechargePackage | null) {
  const calls = fakeCalls();
  const machine = createCustomerDialogMachine<
    RechargePackage,
    PackagePayload,
    unknown,
    PackageValues
  >('packageForm', packageFields);
  const actor = createActor(machine.provide({ actors: { submit: calls.logic() } }));
  const actors = appActors({});
  renderAt(actors, <PackageFormDialog actor={actor} moneyName="Coins" />);
  actor.start();
  act(() => actor.send({ type: 'OPEN', target }));
  await flush();
  const dialogs = screen.queryAllByRole('dialog').filter(isOpen);
  expect(dialogs).toHaveLength(1);
  const dialog = within(dialogs[0]);
  const field = (name: string) => dialog.getByRole('textbox', { name }) as HTMLInputElement;
  const type = (name: string, value: string) =>
    fireEvent.change(field(name), { target: { value } });
  const done = () => {
    actor.stop();
    actors.dispose();
  };
  return { actor, calls, dialog, field, type, done };
}

const L = {
  name: enUS['packages.name'],
  price: enUS['packages.priceCny'],
  money: fill(enUS['packages.moneyOf'], { moneyName: 'Coins' }),
  gift: fill(enUS['packages.giftOf'], { moneyName: 'Coins' }),
  sort: enUS['packages.sort'],
  description: enUS['packages.description'],
};

test('a new package is checked like the server before anything is sent', async () => {
  const { calls, dialog, type, done } = await openDialog(null);
  expect(dialog.getByRole('heading', { name: enUS['packages.addTitle'] })).toBeTruthy();
  fireEvent.click(dialog.getByRole('button', { name: enUS['packages.create'] }));
  await flush();
  for (const id of ['validation.packageName', 'validation.price', 'validation.packageMoney']) {
    expect(dialog.getByText(enUS[id as keyof typeof enUS])).toBeTruthy();
  }

  type(L.name, 'Starter');
  type(L.price, '12.345');
  type(L.money, '0');
  type(L.gift, '-1');
  type(L.sort, '1.5');
  type(L.description, 'x'.repeat(201));
  fireEvent.click(dialog.getByRole('button', { name: enUS['packages.create'] }));
  await flush();
  expect(dialog.queryByText(enUS['validation.packageName'])).toBeNull();
  for (const id of [
    'validation.price',
    'validation.packageMoney',
    'validation.giftMoney',
    'validation.sort',
    'validation.tooLong',
  ]) {
    expect(dialog.getByText(enUS[id as keyof typeof enUS])).toBeTruthy();
  }
  // Still editing: the fields are open and nothing was sent.
  expect(dialog.getByRole('textbox', { name: L.name }).hasAttribute('disabled')).toBe(false);
  expect(calls.started).toEqual([]);

  // Fixed: sent as typed (the server parses the amounts); an empty description is left out.
  type(L.price, '12.5');
  type(L.money, '100');
  type(L.gift, '0');
  type(L.sort, '3');
  type(L.description, '');
  fireEvent.change(dialog.getByRole('combobox', { name: enUS['packages.status'] }), {
    target: { value: '0' },
  });
  fireEvent.click(dialog.getByRole('button', { name: enUS['packages.create'] }));
  await flush();
  expect(calls.started).toHaveLength(1);
  expect(calls.started[0].input).toEqual({
    target: null,
    payload: {
      kind: 'add',
      body: { name: 'Starter', price: '12.5', money: '100', gift_money: '0', sort: 3, status: 0 },
    },
  });
  // Sending: the form waits.
  expect(dialog.getByRole('textbox', { name: L.name }).hasAttribute('disabled')).toBe(true);
  done();
});

test('the messages follow the locale (zh-CN)', async () => {
  localeStore.set('zh-CN');
  const { dialog, done } = await openDialog(null);
  fireEvent.click(dialog.getByRole('button', { name: zhCN['packages.create'] }));
  await flush();
  expect(dialog.getByText(zhCN['validation.price'])).toBeTruthy();
  expect(
    dialog.getByRole('textbox', { name: fill(zhCN['packages.moneyOf'], { moneyName: 'Coins' }) }),
  ).toBeTruthy();
  done();
});

test('an edit sends only what changed; nothing changed is refused', async () => {
  const { calls, dialog, field, type, done } = await openDialog(ROW);
  expect(
    dialog.getByRole('heading', { name: fill(enUS['packages.editTitle'], { name: 'Standard' }) }),
  ).toBeTruthy();
  expect(field(L.price).value).toBe('100.00');
  // The same amounts written differently are no change.
  type(L.price, '100');
  type(L.gift, '10.0');
  fireEvent.click(dialog.getByRole('button', { name: enUS['form.save'] }));
  await flush();
  expect(dialog.getByRole('alert').textContent).toContain(enUS['validation.nothingToChange']);
  expect(calls.started).toEqual([]);

  type(L.price, '120');
  type(L.name, 'Standard plus');
  fireEvent.click(dialog.getByRole('button', { name: enUS['form.save'] }));
  await flush();
  expect(calls.started.at(-1)?.input).toEqual({
    target: ROW,
    payload: { kind: 'edit', body: { id: 7, name: 'Standard plus', price: '120' } },
  });
  done();
});

test("the server's refusal shows in the dialog with Retry and Back to the form", async () => {
  const { calls, dialog, field, type, done } = await openDialog(ROW);
  type(L.price, '99');
  fireEvent.click(dialog.getByRole('button', { name: enUS['form.save'] }));
  await flush();
  await act(async () => calls.settle('submit', 'error', { msg: 'Package not found' }));
  await flush();
  expect(dialog.getByRole('alert').textContent).toContain('Package not found');
  // The fields stay editable: a change goes back to the form (tested in customers-view).
  expect(field(L.price).disabled).toBe(false);
  fireEvent.click(dialog.getByRole('button', { name: enUS['customers.retry'] }));
  await flush();
  expect(calls.started).toHaveLength(2);
  expect(calls.started[1].input).toEqual(calls.started[0].input);
  await act(async () => calls.settle('submit', 'error', { msg: 'Package not found' }));
  await flush();
  fireEvent.click(dialog.getByRole('button', { name: enUS['customers.back'] }));
  await flush();
  expect(field(L.price).value).toBe('99');
  expect(dialog.queryByRole('alert')).toBeNull();
  done();
});
