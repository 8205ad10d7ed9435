/**
 * The transfer dialog (transfer machine = the generic money-call machine) through the real
 * property page, against the hand-written oracle of money-paths.tsx: the machine's shortest paths
 * (plus one for each row they miss) only propose event sequences; each step is a click, a form
 * filled in (with the balance check before confirming: giving more than one holds is refused in
 * the form) or the fake transfer endpoint settling, and every row of the table is walked. This
 * is where money-call's generic behaviour is tested (once): a retry only after a lost reply and
 * under the same key, Back only after a refusal, the reloads after an ending that may have moved
 * something. Each step checks the calls made (the amount sent) and what the dialog shows: the
 * sender and the recipient by name, alike on the confirmation and in the result.
 */
import { screen } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { TransferBody, TransferRecord } from '../../src/api/contract/money';
import { areasOf } from '../../src/app/actors/areas';
import { moneyArea } from '../../src/app/actors/money';
import { transferMachine, type TransferDraft } from '../../src/machines/transfer';
import {
  assertStep,
  clickStep,
  ME,
  ME_LABEL,
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
  USERS,
  type DialogTexts,
  type MoneyWorld,
} from './money-paths';
import { uiPaths, viewPathHooks } from './ui-paths';

// ---------------------------------------------------------------------------------------------
// The two forms a person fills in: give money (10.50, all the partner holds: 10.51 is refused in
// the form first), take back 2 minutes 13 seconds of digital-human time (typed as minutes and
// seconds, as it is shown; sent as 133 seconds; taking back is not limited by what the caller holds).

const MERCHANT = { id: 5, label: 'Morning shop (merchant)' };

interface Form {
  asset: 'money' | 'digital_man';
  direction: 'give' | 'take';
  typed: string;
  /** Digital-human time: the seconds typed beside the minutes. */
  seconds?: string;
  remark: string;
  /** What the API is sent. */
  body: TransferBody;
  /** The amount as the confirmation and the result show it. */
  shown: string;
}

const FORMS: Record<string, Form> = {
  give: {
    asset: 'money',
    direction: 'give',
    typed: '10.50',
    remark: 'top-up',
    body: { to_user_id: 5, asset: 'money', amount: '10.50', direction: 'give', remark: 'top-up' },
    shown: `10.50 ${MONEY}`,
  },
  take: {
    asset: 'digital_man',
    direction: 'take',
    typed: '2',
    seconds: '13',
    remark: '',
    body: { to_user_id: 5, asset: 'digital_man', amount: '133', direction: 'take' },
    shown: '2 min 13 s',
  },
};
const DRAFTS = Object.keys(FORMS);

const TABLE = moneyCallTable('give', 'take');
const EFFECTS = moneyCallEffects(
  ['give', 'take'],
  (d, key) => `transfer ${JSON.stringify(FORMS[d].body)} ${key}`,
);
const TEXTS: DialogTexts = {
  title: 'property.transfer',
  confirm: 'property.confirmTransfer',
  confirmText: 'property.confirmTransferText',
  done: 'property.transferDone',
};

/** The server's record of a transfer: giving moves from the partner, taking back to it. */
function record(body: Record<string, unknown>): TransferRecord {
  const partner = { id: 2, username: ME.username, name: ME.name };
  const merchant = { id: 5, username: 'merchant', name: 'Morning shop' };
  const [from, to] = body.direction === 'take' ? [merchant, partner] : [partner, merchant];
  const money = body.asset === 'money';
  return {
    id: 8,
    transfer_no: 'TR26112300000008',
    from_user_id: from.id,
    from_username: from.username,
    from_name: from.name,
    to_user_id: to.id,
    to_username: to.username,
    to_name: to.name,
    asset: body.asset as TransferRecord['asset'],
    amount: String(body.amount),
    from_before: money ? '10.50' : '600',
    from_after: money ? '0.00' : '480',
    to_before: money ? '0.00' : '0',
    to_after: money ? '10.50' : '120',
    remark: String(body.remark ?? ''),
    operator_id: 2,
    operator_username: ME.username,
    created_at: Date.UTC(2026, 10, 22, 12, 0),
  };
}

// The draft each form makes, for the machine's paths only (the steps fill in the form).
const draftOf = (d: string): TransferDraft => ({
  toUserId: MERCHANT.id,
  toLabel: MERCHANT.label,
  asset: FORMS[d].asset,
  direction: FORMS[d].direction,
  amount: String(FORMS[d].body.amount),
  remark: FORMS[d].remark,
});
const nameOf = (draft: TransferDraft) => draft.direction;
const label = moneyLabel(nameOf);

// ---------------------------------------------------------------------------------------------

const field = {
  recipient: () => ({ name: text('property.recipient') }),
  asset: () => ({ name: text('property.asset') }),
  direction: () => ({ name: text('property.direction') }),
  remark: () => ({ name: text('property.remark') }),
  amount: (asset: Form['asset']) => ({
    name:
      asset === 'money'
        ? text('property.amountIn', { unit: MONEY })
        : text('property.amountMinutes'),
  }),
  seconds: () => ({ name: text('property.amountSeconds') }),
};

async function fill(world: MoneyWorld, d: string) {
  const form = FORMS[d];
  const dialog = world.dialog(TEXTS.title);
  const { user } = world;
  // The recipients are searched when the form first shows.
  if (world.endpoints.waiting('getPlatformUsers').length) {
    await world.endpoints.settle('getPlatformUsers', 'done', USERS);
  }
  await user.selectOptions(dialog.getByRole('combobox', field.recipient()), String(MERCHANT.id));
  await user.selectOptions(dialog.getByRole('combobox', field.asset()), form.asset);
  await user.selectOptions(dialog.getByRole('combobox', field.direction()), form.direction);
  const amount = dialog.getByRole('textbox', field.amount(form.asset));
  const remark = dialog.getByRole('textbox', field.remark());
  await user.clear(remark);
  if (form.remark) await user.type(remark, form.remark);
  const next = () => user.click(dialog.getByRole('button', { name: text('property.next') }));
  if (form.direction === 'give') {
    // One cent more than the partner holds: refused in the form, nothing to confirm.
    await user.clear(amount);
    await user.type(amount, '10.51');
    await next();
    dialog.getByText(text('property.overBalance'));
    // The refused submit takes the person to the field it refuses.
    expect(document.activeElement).toBe(amount);
    expect(dialog.queryByText(text(TEXTS.confirmText))).toBeNull();
  }
  await user.clear(amount);
  await user.type(amount, form.typed);
  if (form.seconds !== undefined) {
    const seconds = dialog.getByRole('textbox', field.seconds());
    await user.clear(seconds);
    await user.type(seconds, form.seconds);
  }
  await next();
}

async function exec(world: MoneyWorld, state: string, event: { type: string }) {
  switch (event.type) {
    case 'OPEN':
      return world.user.click(screen.getByRole('button', { name: text('property.transfer') }));
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
    const d = state.replace(/^.* /, '');
    const form = FORMS[d];
    if (state === 'form' || state.startsWith('form,')) {
      // A new form is empty; Back keeps what was typed.
      const amount = dialog.getByRole('textbox', field.amount(form?.asset ?? 'money'));
      expect((amount as HTMLInputElement).value).toBe(form?.typed ?? '');
      if (form?.seconds !== undefined) {
        expect(dialog.getByRole('textbox', field.seconds())).toHaveProperty('value', form.seconds);
      }
      const recipient = dialog.getByRole('combobox', field.recipient()) as HTMLSelectElement;
      expect(recipient.value).toBe(form ? String(MERCHANT.id) : '');
      return;
    }
    // Giving: from the partner to the user; taking back: from the user to the partner.
    const [from, to] =
      form.direction === 'give' ? [ME_LABEL, MERCHANT.label] : [MERCHANT.label, ME_LABEL];
    if (state.startsWith('done')) {
      const rows = summary(dialog, text('property.transferDone'));
      expect(rows[text('property.from')]).toBe(from);
      expect(rows[text('property.to')]).toBe(to);
      expect(rows[text('property.amount')]).toBe(form.shown);
      return;
    }
    expect(summary(dialog, text('property.confirmTransfer'))).toEqual({
      [text('property.from')]: from,
      [text('property.to')]: to,
      [text('property.asset')]: form.asset === 'money' ? MONEY : text('stats.digitalManTime'),
      [text('property.amount')]: form.shown,
      ...(form.remark ? { [text('property.remark')]: form.remark } : {}),
    });
  };
}

describe('the transfer dialog on the property page', () => {
  // One page for every path (reset between them): rendering it is most of a path's time.
  let world: MoneyWorld;
  viewPathHooks({
    perFile: true,
    before: async () => {
      world = await moneyWorld({ submit: 'transfer', reply: record });
    },
    after: () => world.actors.dispose(),
    timeout: 300_000,
  });
  uiPaths({
    oracle: { initial: 'closed', transitions: TABLE, label },
    proposed: getShortestPaths(transferMachine, {
      input: { newKey: () => 'key' },
      events: moneyEvents(DRAFTS.map(draftOf), record(FORMS.give.body), TABLE, nameOf) as never,
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
          moneyState(areasOf(world.actors).get(moneyArea).transfer.getSnapshot(), nameOf),
        effects: { take: world.take, expected: EFFECTS },
      });
    },
    timeout: 300_000,
  });
});
