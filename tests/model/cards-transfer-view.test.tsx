/**
 * The transfer machine (src/machines/cards/transfer.ts) through the card page: the selection is
 * made in the list (row check boxes, or a batch filter), "Transfer selected" / "Transfer batch"
 * opens the real dialog, whose user picker searches the fake user list. Against a hand-written
 * oracle: the machine's shortest paths only propose event sequences; each step is a click, a
 * choice, Escape or the fake `transferCards` endpoint settling, and the state after it comes from
 * the table below, asserted on screen, with what is sent. A transfer that moved cards reloads the
 * list and empties the selection (the cards area's change count).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { assign } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  cardTransferMachine,
  type CardSelection,
  type CardTransferEvent,
} from '../../src/machines/cards/transfer';
import { cardsWorld, field, footerButtons, settleLabel, text } from './cards-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const BATCH = 'BP261122000001';
const SELECTED: CardSelection = { ids: [11, 12] };
const TARGET = { id: 5, label: 'Morning shop (merchant)' };
const REFUSED = 'Only unused, unexpired cards you hold can be transferred';

// ---------------------------------------------------------------------------------------------
// The oracle, written from the spec: the cards are chosen before the dialog opens; the person
// picks a user, confirms, and learns how many moved; a refusal goes back to the picker or is
// sent again. A person can leave at any step but while the call is under way.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN selected': 'picking',
  'closed OPEN batch': 'picking',
  'picking PICK': 'confirming',
  'picking CLOSE (cancel)': 'closed',
  // Back from the confirmation: the user picked is still chosen.
  'confirming BACK': 'picking, kept',
  'picking, kept PICK': 'confirming',
  'picking, kept CLOSE (cancel)': 'closed',
  'confirming SUBMIT': 'submitting',
  'confirming CLOSE (escape)': 'closed',
  'submitting done submit': 'done',
  'submitting error submit': 'failed',
  'failed RETRY': 'submitting',
  'failed BACK': 'picking, kept',
  'failed CLOSE (x)': 'closed',
  'done CLOSE (close)': 'closed',
};

/** Cards that moved: the list is loaded again (and the selection made on it is gone). */
const EFFECTS: Record<string, string[]> = { 'submitting done submit': ['reload'] };

type PathEvent = CardTransferEvent | { type: string; by?: string };

const label = (event: PathEvent) => {
  if (event.type === 'OPEN') {
    return 'ids' in (event as { selection: CardSelection }).selection
      ? 'OPEN selected'
      : 'OPEN batch';
  }
  const by = (event as { by?: string }).by;
  return by ? `${event.type} (${by})` : settleLabel(event);
};

/** The control a person closes the dialog with, in each state (each of the view's ways once). */
const CLOSE_BY: Record<string, string> = {
  picking: 'cancel',
  confirming: 'escape',
  failed: 'x',
  done: 'close',
};

// ---------------------------------------------------------------------------------------------

function setup() {
  const world = cardsWorld('partner');
  /** What the person chose to give (the test's own record, from its clicks). */
  let chosen: CardSelection = SELECTED;
  const d = () => world.dialog(text('cards.transfer'))!;
  const what = () =>
    'ids' in chosen ? '2 selected cards' : text('cards.wholeBatch', { batch: BATCH });
  const sent = () =>
    'ids' in chosen
      ? { ids: chosen.ids, to_user_id: TARGET.id }
      : { batch_no: BATCH, to_user_id: TARGET.id };

  const exec = async (event: PathEvent) => {
    const { user } = world;
    switch (event.type) {
      case 'OPEN': {
        const selection = (event as { selection: CardSelection }).selection;
        chosen = selection;
        if ('ids' in selection) {
          for (const row of ['P261122000011', 'P261122000012']) {
            const box = screen.getByRole('checkbox', {
              name: text('cards.selectCard', { card: row }),
            }) as HTMLInputElement;
            if (!box.checked) await user.click(box);
            await settle();
          }
          world.effects.take();
          return user.click(world.pageButton('Transfer selected (2)'));
        }
        // The batch's cards: the list filtered by the batch number offers them whole.
        if (!screen.queryByRole('button', { name: `Transfer batch ${BATCH}` })) {
          const filters = within(screen.getByRole('search', { name: text('cards.filters') }));
          await user.type(field(filters, text('cards.batchNo')), BATCH);
          await user.click(filters.getByRole('button', { name: text('filter.search') }));
          world.effects.take();
        }
        return user.click(world.pageButton(`Transfer batch ${BATCH}`));
      }
      case 'PICK':
        await user.selectOptions(
          field(d(), text('cards.transferTo'), 'combobox'),
          String(TARGET.id),
        );
        return user.click(d().getByRole('button', { name: text('property.next') }));
      case 'BACK':
        return user.click(d().getByRole('button', { name: text('property.back') }));
      case 'SUBMIT':
      case 'RETRY': {
        const name =
          event.type === 'SUBMIT' ? text('cards.transferConfirm') : text('property.retry');
        const before = world.endpoints.calls.length;
        await user.click(d().getByRole('button', { name }));
        // The cards chosen before opening, to the user picked: exactly that is sent, once.
        expect(world.endpoints.calls.slice(before)).toEqual([
          { name: 'transferCards', input: [sent()] },
        ]);
        return;
      }
      case 'CLOSE': {
        const by = (event as { by: string }).by;
        if (by === 'escape') {
          // The dialog's layer listens for Escape once it has opened (a frame later).
          await vi.advanceTimersByTimeAsync(100);
          await user.keyboard('{Escape}');
          await vi.advanceTimersByTimeAsync(100);
          return;
        }
        const buttons = d().getAllByRole('button', {
          name: by === 'cancel' ? text('form.cancel') : text('form.close'),
        });
        const x = (b: HTMLElement) => b.getAttribute('data-part') === 'close-trigger';
        return user.click(buttons.find((b) => (by === 'x' ? x(b) : !x(b)))!);
      }
      case 'xstate.done.actor.submit':
        return world.endpoints.settle('transferCards', 'done', { count: 2 });
      case 'xstate.error.actor.submit':
        return world.endpoints.settle('transferCards', 'error', replyError(REFUSED));
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  const sees = (state: string) => () => {
    const dialog = world.dialog(text('cards.transfer'));
    if (state === 'closed') {
      expect(dialog, 'the dialog').toBeNull();
      return;
    }
    expect(dialog, 'the dialog').not.toBeNull();
    const dd = dialog!;
    if (state !== 'done') dd.getByText(text('cards.transferWhat', { what: what() }));
    switch (state) {
      case 'picking':
      case 'picking, kept': {
        field(dd, text('cards.searchUser'), 'searchbox');
        const to = field(dd, text('cards.transferTo'), 'combobox');
        // A new transfer starts with no user chosen; back from the confirmation keeps the choice.
        expect(to.value).toBe(state === 'picking' ? '' : String(TARGET.id));
        expect(footerButtons(dd)).toEqual([text('form.cancel'), text('property.next')]);
        return;
      }
      case 'confirming':
      case 'submitting':
      case 'failed': {
        const summary = dd.getByRole('group', { name: text('cards.transferConfirm') });
        expect(summary.textContent).toContain(TARGET.label);
        expect(summary.textContent).toContain(what());
        if (state === 'failed') {
          expect(dd.getByRole('alert').textContent).toContain(REFUSED);
          expect(footerButtons(dd)).toEqual([text('property.back'), text('property.retry')]);
          return;
        }
        expect(footerButtons(dd)).toEqual([text('property.back'), text('cards.transferConfirm')]);
        const confirm = dd.getByRole('button', { name: text('cards.transferConfirm') });
        expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
        const back = dd.getByRole('button', { name: text('property.back') });
        expect(back.hasAttribute('disabled')).toBe(state === 'submitting');
        return;
      }
      case 'done':
        expect(dd.getByRole('status').textContent).toBe(`2 cards transferred to ${TARGET.label}`);
        expect(footerButtons(dd)).toEqual([text('form.close')]);
        // The selection belonged to the cards before the change: it is gone.
        expect(world.pageButton('Transfer selected (0)').hasAttribute('disabled')).toBe(true);
        return;
      default:
        throw new Error(`no view of '${state}'`);
    }
  };

  /** The actor's state under the table's names (checked against the table, never expected). */
  const actual = () => {
    const s = world.area().transfer.getSnapshot();
    return s.matches('picking') && s.context.target ? 'picking, kept' : String(s.value);
  };

  return { world, exec, sees, actual };
}

viewPathHooks();

describe('the transfer-cards dialog (a partner)', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    // The paths are proposed as if the person picked TARGET (`exec` picks it before Next).
    proposed: getShortestPaths(
      cardTransferMachine.provide({
        guards: { valid: () => true },
        actions: { pick: assign({ target: TARGET, error: null }) },
      }),
      {
        events: (s) =>
          (
            [
              { type: 'OPEN', selection: SELECTED },
              { type: 'OPEN', selection: { batchNo: BATCH } },
              { type: 'PICK' },
              { type: 'BACK' },
              { type: 'SUBMIT' },
              { type: 'RETRY' },
              { type: 'CLOSE', by: CLOSE_BY[String(s.value)] },
              { type: 'xstate.done.actor.submit', output: { count: 2 } },
              { type: 'xstate.error.actor.submit', error: replyError(REFUSED) },
            ] as never[]
          ).filter((e) => s.can(e)),
        // Each way into a state once.
        serializeState: (s, e) =>
          JSON.stringify([s.value, s.context.target !== null, e ? label(e as PathEvent) : null]),
      },
    ),
    more: [
      // A batch given whole: what is sent names the batch (the rows' cover only opens it).
      {
        steps: [
          { type: 'xstate.init' },
          { type: 'OPEN', selection: { batchNo: BATCH } },
          { type: 'PICK' },
          { type: 'SUBMIT' },
          { type: 'xstate.done.actor.submit' },
        ].map((event) => ({ event: event as never })),
      },
    ],
    run: async (_, walk) => {
      const { world, exec, sees, actual } = setup();
      await walk({
        exec,
        sees: Object.fromEntries(
          ['closed', ...Object.values(TRANSITIONS)].map((s) => [s, sees(s)]),
        ),
        actual,
        effects: {
          // A reload of the list as it is filtered (the batch's, after a batch transfer).
          take: () => world.effects.take().map((e) => e.replace(/^reload batch .*/, 'reload')),
          expected: EFFECTS,
        },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('nothing selected: no transfer is offered', async () => {
  const world = cardsWorld('partner');
  await settle();
  expect(world.pageButton('Transfer selected (0)').hasAttribute('disabled')).toBe(true);
  expect(screen.queryByRole('button', { name: /^Transfer batch/ })).toBeNull();
  world.dispose();
}, 120_000);

test('the picker: Next without a user is refused; the user chosen is the one confirmed', async () => {
  const { world, exec } = setup();
  await settle();
  await exec({ type: 'OPEN', selection: SELECTED });
  await settle();
  const d = world.dialog(text('cards.transfer'))!;
  await world.user.click(d.getByRole('button', { name: text('property.next') }));
  const to = field(d, text('cards.transferTo'), 'combobox');
  expect(to.getAttribute('aria-invalid')).toBe('true');
  expect(d.getAllByText(text('validation.user')).length).toBeGreaterThan(0);
  expect(world.area().transfer.getSnapshot().value).toBe('picking');
  await exec({ type: 'PICK' });
  await settle();
  expect(world.area().transfer.getSnapshot().context.target).toEqual(TARGET);
  world.dispose();
}, 120_000);
