/**
 * The exchange dialog (exchange machine = the generic money-call machine) through the real
 * property page, against the hand-written oracle of money-paths.tsx. money-call's generic
 * behaviour (Back, Retry, Another one) is walked once, in transfer-view.test.tsx; here the
 * exchange's own steps: the page's Exchange button, the form (target, quantity, the price and the
 * cost seen before confirming), the confirmation, the call (its body, a new idempotency key),
 * each ending as the dialog shows it, the × and Close, and the reloads after an ending that may
 * have moved something (the money area's events).
 */
import { screen } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { ExchangeReply, ExchangeTarget } from '../../src/api/contract/money';
import { areasOf } from '../../src/app/actors/areas';
import { moneyArea } from '../../src/app/actors/money';
import { exchangeMachine, type ExchangeDraft } from '../../src/machines/exchange';
import {
  assertStep,
  clickStep,
  MONEY,
  moneyCallEffects,
  moneyCallTable,
  moneyEvents,
  moneyLabel,
  moneySerialize,
  moneyState,
  moneyWorld,
  statesOf,
  summary,
  text,
  type DialogTexts,
  type MoneyWorld,
} from './money-paths';
import { uiPaths, viewPathHooks } from './ui-paths';

// ---------------------------------------------------------------------------------------------
// The two forms: 5 digital-human minutes at the partner's price of 1.00, one voice clone at
// 10.00 (the partner holds 10.50).

interface Form {
  asset: ExchangeTarget;
  quantity: number;
  /** The cost seen in the form and on the confirmation. */
  cost: string;
  /** The quantity field's name. */
  field: 'property.quantityMinutes' | 'property.quantityCount';
  label: string;
  /** The new balance of the asset as the result shows it. */
  balance: string;
  /** The quantity as the confirmation shows it (digital-human time in its own words). */
  quantityShown: string;
}

const FORMS: Record<string, Form> = {
  minutes: {
    asset: 'digital_man',
    quantity: 5,
    cost: '5.00',
    field: 'property.quantityMinutes',
    label: text('stats.digitalManTime'),
    balance: '5 min',
    quantityShown: '5 min',
  },
  voice: {
    asset: 'digital_voice',
    quantity: 1,
    cost: '10.00',
    field: 'property.quantityCount',
    label: text('stats.voiceClones'),
    balance: '1',
    quantityShown: '1',
  },
};
const DRAFTS = Object.keys(FORMS);
const nameOf = (draft: ExchangeDraft) => DRAFTS.find((d) => FORMS[d].asset === draft.asset) ?? '?';
const label = moneyLabel(nameOf);

/** The exchange's own steps: no Back, Retry or Another one (money-call's, walked elsewhere). */
const TABLE = Object.fromEntries(
  Object.entries(moneyCallTable('minutes', 'voice')).filter(
    ([row]) => !/ (BACK|RETRY|AGAIN)$/.test(row) && !row.startsWith('form, '),
  ),
);
const EFFECTS = moneyCallEffects(
  ['minutes', 'voice'],
  (d, key) =>
    `exchange ${JSON.stringify({ asset: FORMS[d].asset, quantity: FORMS[d].quantity })} ${key}`,
);
const TEXTS: DialogTexts = {
  title: 'property.exchange',
  confirm: 'property.confirmExchange',
  confirmText: 'property.confirmExchangeText',
  done: 'property.exchangeDone',
};

function reply(body: Record<string, unknown>): ExchangeReply {
  const form = Object.values(FORMS).find((f) => f.asset === body.asset)!;
  return {
    asset: form.asset,
    quantity: form.quantity,
    cost: form.cost,
    money: form.asset === 'digital_man' ? '5.50' : '0.50',
    balance: form.asset === 'digital_man' ? '300' : '1',
  };
}

const draftOf = (d: string): ExchangeDraft => ({
  asset: FORMS[d].asset,
  quantity: FORMS[d].quantity,
  cost: FORMS[d].cost,
});

// ---------------------------------------------------------------------------------------------

const money = (amount: string) => `${amount} ${MONEY}`;

async function fill(world: MoneyWorld, d: string) {
  const form = FORMS[d];
  const dialog = world.dialog(TEXTS.title);
  const { user } = world;
  await user.selectOptions(
    dialog.getByRole('combobox', { name: text('property.exchangeTarget') }),
    form.asset,
  );
  const quantity = dialog.getByRole('textbox', { name: text(form.field) });
  await user.clear(quantity);
  await user.type(quantity, String(form.quantity));
  // The cost is seen before confirming.
  expect(dialog.getByTestId('exchange-cost').textContent).toBe(money(form.cost));
  await user.click(dialog.getByRole('button', { name: text('property.next') }));
}

async function exec(world: MoneyWorld, state: string, event: { type: string }) {
  switch (event.type) {
    case 'OPEN':
      return world.user.click(screen.getByRole('button', { name: text('property.exchange') }));
    case 'REVIEW':
      return fill(world, label(event).replace('REVIEW ', ''));
    case 'xstate.done.actor.submit':
    case 'xstate.error.actor.submit':
      return world.settleSubmit(event);
    default:
      return clickStep(world, TEXTS, state, event.type);
  }
}

function sees(world: MoneyWorld, state: string) {
  return () => {
    const dialog = assertStep(world, TEXTS, state);
    if (!dialog) return;
    if (state === 'form') {
      // An empty form: the first target, its price, no cost yet, the money one holds.
      expect(summary(dialog, text('property.price'))).toEqual({
        [text('property.unitPrice')]: text('property.perMinute', { price: money('1.00') }),
        [text('property.cost')]: '—',
        [text('property.yourMoney', { moneyName: MONEY })]: money('10.50'),
      });
      const quantity = dialog.getByRole('textbox', { name: text('property.quantityMinutes') });
      expect((quantity as HTMLInputElement).value).toBe('');
      return;
    }
    const form = FORMS[state.replace(/^.* /, '')];
    if (state.startsWith('done')) {
      expect(summary(dialog, text('property.exchangeDone'))).toEqual({
        [text('property.cost')]: money(form.cost),
        [text('property.yourMoney', { moneyName: MONEY })]: money(
          form.asset === 'digital_man' ? '5.50' : '0.50',
        ),
        [form.label]: form.balance,
      });
      return;
    }
    expect(summary(dialog, text('property.confirmExchange'))).toEqual({
      [text('property.exchangeTarget')]: form.label,
      [text('property.quantity')]: form.quantityShown,
      [text('property.cost')]: money(form.cost),
    });
  };
}

describe('the exchange dialog on the property page', () => {
  // One page for every path (reset between them): rendering it is most of a path's time.
  let world: MoneyWorld;
  viewPathHooks({
    perFile: true,
    before: async () => {
      world = await moneyWorld({ submit: 'exchange', reply });
    },
    after: () => world.actors.dispose(),
    timeout: 300_000,
  });
  uiPaths({
    oracle: { initial: 'closed', transitions: TABLE, label },
    proposed: getShortestPaths(exchangeMachine, {
      input: { newKey: () => 'key' },
      events: moneyEvents(
        DRAFTS.map(draftOf),
        reply({ asset: 'digital_man' }),
        TABLE,
        nameOf,
      ) as never,
      serializeState: moneySerialize(nameOf) as never,
    }),
    run: async (_, walk) => {
      await world.reset();
      let state = 'closed';
      await walk({
        exec: async (event) => {
          await exec(world, state, event);
          state = TABLE[`${state} ${label(event)}`];
        },
        sees: Object.fromEntries(statesOf(TABLE, 'closed').map((s) => [s, sees(world, s)])),
        actual: () =>
          moneyState(areasOf(world.actors).get(moneyArea).exchange.getSnapshot(), nameOf),
        effects: { take: world.take, expected: EFFECTS },
      });
    },
    timeout: 300_000,
  });
});
