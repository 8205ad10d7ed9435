/**
 * Forms one way (docs/architecture.md "Forms"): a dialog's typed form is its machine's, so
 * closing and opening the dialog again shows a fresh form whatever was typed, and a form the
 * contract's rules refuse shows the field's localised message and sends nothing. Through the real
 * pages: the transfer dialog on the property page, the generate-cards, redeem and transfer-cards
 * dialogs on the card page.
 */
import type { within } from '@testing-library/react';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { cardsWorld, field, MONEY as CARD_MONEY, text as cardText } from './cards-world';
import { MONEY, moneyWorld, text, USERS } from './money-paths';
import { person, settle, viewPathHooks } from './ui-paths';

viewPathHooks();

/** Closes a dialog with its Cancel button (not the corner's close button). */
async function cancel(d: ReturnType<typeof within>, name: string) {
  const buttons = d.getAllByRole('button', { name });
  await person().click(
    buttons.find((b: HTMLElement) => b.getAttribute('data-part') !== 'close-trigger')!,
  );
  await settle();
}

test('transfer: reopened after typing, the form is fresh; a bad amount is refused in the form', async () => {
  const world = await moneyWorld({ submit: 'transfer', reply: () => ({}) });
  const open = async () => {
    await world.user.click(screen.getByRole('button', { name: text('property.transfer') }));
    await settle();
    if (world.endpoints.waiting('getPlatformUsers').length) {
      await world.endpoints.settle('getPlatformUsers', 'done', USERS);
    }
    return world.dialog('property.transfer');
  };
  const amountName = { name: text('property.amountIn', { unit: MONEY }) };
  let d = await open();
  await world.user.selectOptions(
    d.getByRole('combobox', { name: text('property.recipient') }),
    '5',
  );
  await world.user.type(d.getByRole('textbox', amountName), '12.345');
  await world.user.type(d.getByRole('textbox', { name: text('property.remark') }), 'for May');
  await world.user.click(d.getByRole('button', { name: text('property.next') }));
  // Three decimals: the contract's message under the amount, nothing confirmed or sent.
  d.getByText(text('validation.amount'));
  expect(d.queryByText(text('property.confirmTransferText'))).toBeNull();
  expect(world.endpoints.calls.filter((c) => c.name === 'transfer')).toEqual([]);

  await cancel(d, text('form.cancel'));
  d = await open();
  expect((d.getByRole('textbox', amountName) as HTMLInputElement).value).toBe('');
  expect(
    (d.getByRole('textbox', { name: text('property.remark') }) as HTMLInputElement).value,
  ).toBe('');
  expect(
    (d.getByRole('combobox', { name: text('property.recipient') }) as HTMLSelectElement).value,
  ).toBe('');
  expect(d.queryByText(text('validation.amount'))).toBeNull();
  world.actors.dispose();
}, 60_000);

test('generate cards: reopened after typing, the form is fresh; a bad face value is refused in the form', async () => {
  const world = cardsWorld('partner');
  await settle();
  const open = async () => {
    await world.user.click(world.pageButton(cardText('cards.generate')));
    await settle();
    return world.dialog(cardText('cards.generate'))!;
  };
  const faceValue = cardText('cards.faceValueMoney', { moneyName: CARD_MONEY });
  let d = await open();
  await world.user.type(field(d, faceValue), '12.345');
  await world.user.clear(field(d, cardText('cards.quantity')));
  await world.user.type(field(d, cardText('cards.quantity')), '3');
  await world.user.type(field(d, cardText('cards.remark')), 'spring');
  await world.user.click(d.getByRole('button', { name: cardText('property.next') }));
  d.getByText(cardText('validation.amount'));
  expect(world.endpoints.calls.filter((c) => c.name === 'addCards')).toEqual([]);
  expect(world.area().generate.getSnapshot().value).toBe('editing');

  await cancel(d, cardText('form.cancel'));
  d = await open();
  expect(field(d, faceValue).value).toBe('');
  expect(field(d, cardText('cards.quantity')).value).toBe('1');
  expect(field(d, cardText('cards.remark')).value).toBe('');
  expect(d.queryByText(cardText('validation.amount'))).toBeNull();
  world.dispose();
}, 60_000);

test('redeem a card: reopened after a refused entry, the form is fresh', async () => {
  const world = cardsWorld('partner');
  await settle();
  const open = async () => {
    await world.user.click(world.pageButton(cardText('cards.redeem')));
    await settle();
    return world.dialog(cardText('cards.redeemTitle'))!;
  };
  let d = await open();
  await world.user.type(field(d, cardText('cards.cardNo')), '   ');
  await world.user.type(field(d, cardText('cards.cardPwd')), 'abcd-2345');
  await world.user.click(d.getByRole('button', { name: cardText('cards.redeemSubmit') }));
  // Only spaces: the contract's message under the card number, nothing sent.
  d.getByText(cardText('validation.cardNo'));
  expect(world.endpoints.calls.filter((c) => c.name === 'useCard')).toEqual([]);

  await cancel(d, cardText('form.cancel'));
  d = await open();
  expect(field(d, cardText('cards.cardNo')).value).toBe('');
  expect(field(d, cardText('cards.cardPwd')).value).toBe('');
  expect(d.queryByText(cardText('validation.cardNo'))).toBeNull();
  world.dispose();
}, 60_000);

test('transfer cards: reopened after choosing a user and searching, the picker is fresh', async () => {
  const world = cardsWorld('partner');
  await settle();
  for (const row of ['P261122000011', 'P261122000012']) {
    await world.user.click(
      screen.getByRole('checkbox', { name: cardText('cards.selectCard', { card: row }) }),
    );
    await settle();
  }
  const open = async () => {
    await world.user.click(world.pageButton('Transfer selected (2)'));
    await settle();
    return world.dialog(cardText('cards.transfer'))!;
  };
  let d = await open();
  // Next with no user: the contract's message, nothing confirmed.
  await world.user.click(d.getByRole('button', { name: cardText('property.next') }));
  const to = () => field(d, cardText('cards.transferTo'), 'combobox');
  expect(to().getAttribute('aria-invalid')).toBe('true');
  await world.user.type(field(d, cardText('cards.searchUser'), 'searchbox'), 'shop');
  await world.user.selectOptions(to(), '5');
  expect(to().getAttribute('aria-invalid')).toBeNull();

  await cancel(d, cardText('form.cancel'));
  d = await open();
  expect(field(d, cardText('cards.searchUser'), 'searchbox').value).toBe('');
  expect(to().value).toBe('');
  expect(to().getAttribute('aria-invalid')).toBeNull();
  expect(world.endpoints.calls.filter((c) => c.name === 'transferCards')).toEqual([]);
  world.dispose();
}, 60_000);
