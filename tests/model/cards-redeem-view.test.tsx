/**
 * The redeem machine (src/machines/cards/redeem.ts) through the card page's real "Redeem a card"
 * button and dialog (a partner), against a hand-written oracle: the machine's shortest paths only
 * propose event sequences; each step is a click, typing, Escape or the fake `useCard` endpoint
 * settling, and the state after it comes from the table below, asserted on screen. A credited
 * card reloads the card list (the cards area's wiring): an effect of that row only.
 */
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { UseCardReply } from '../../src/api/contract/cards';
import { redeemMachine, type RedeemEvent } from '../../src/machines/cards/redeem';
import {
  cardsWorld,
  field,
  footerButtons,
  MONEY,
  settleLabel,
  text,
  type CardsWorld,
} from './cards-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const CARD_NO = 'P261122000001';
/** As a person may type it: case, spaces and dashes do not matter. */
const TYPED_PWD = 'abcd-2345 efgh-6789';
const ALREADY_USED = 'This card has already been used';
const REDEEMED: UseCardReply = { id: 1, card_no: CARD_NO, asset: 'money', face_value: '50.00' };

// ---------------------------------------------------------------------------------------------
// The oracle, written from the spec: a card is entered, redeemed once, or refused with the
// server's sentence; a refused entry can be corrected (what was typed stays) or left.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'editing',
  'editing SUBMIT': 'submitting',
  'editing CLOSE (cancel)': 'closed',
  'submitting done redeem': 'done',
  'submitting error redeem': 'failed',
  'failed EDIT': 'editing, kept',
  'failed CLOSE (close)': 'closed',
  'editing, kept SUBMIT': 'submitting',
  'editing, kept CLOSE (escape)': 'closed',
  // Another card: an empty form.
  'done AGAIN': 'editing',
  'done CLOSE (close)': 'closed',
};

/** Each credited card reloads the list (balances and lists follow a redeemed card). */
const EFFECTS: Record<string, string[]> = { 'submitting done redeem': ['reload'] };

type PathEvent = RedeemEvent | { type: string; by?: string };

const label = (event: PathEvent) => {
  const by = (event as { by?: string }).by;
  return by ? `${event.type} (${by})` : settleLabel(event);
};

/** The control a person closes the dialog with, in each state (each of the view's ways once). */
const CLOSE_BY: Record<string, string> = {
  editing: 'cancel',
  failed: 'close',
  done: 'close',
};

// ---------------------------------------------------------------------------------------------

function exec(world: CardsWorld) {
  const d = () => world.dialog(text('cards.redeemTitle'))!;
  return async (event: PathEvent) => {
    const { user } = world;
    switch (event.type) {
      case 'OPEN':
        return user.click(world.pageButton(text('cards.redeem')));
      case 'SUBMIT': {
        await user.clear(field(d(), text('cards.cardNo')));
        await user.type(field(d(), text('cards.cardNo')), CARD_NO);
        await user.clear(field(d(), text('cards.cardPwd')));
        await user.type(field(d(), text('cards.cardPwd')), TYPED_PWD);
        await user.click(d().getByRole('button', { name: text('cards.redeemSubmit') }));
        // The card as the API reads it: the password without case, spaces or dashes.
        const call = world.endpoints.calls.at(-1);
        expect(call?.name).toBe('useCard');
        expect((call?.input as unknown[])[0]).toEqual({
          card_no: CARD_NO,
          card_pwd: 'ABCD2345EFGH6789',
        });
        return;
      }
      case 'EDIT':
        return user.click(d().getByRole('button', { name: text('cards.tryAgain') }));
      case 'AGAIN':
        return user.click(d().getByRole('button', { name: text('cards.redeemAnother') }));
      case 'CLOSE': {
        const by = (event as { by: string }).by;
        if (by === 'escape') {
          // The dialog's layer listens for Escape once it has opened (a frame later).
          await vi.advanceTimersByTimeAsync(100);
          await user.keyboard('{Escape}');
          await vi.advanceTimersByTimeAsync(100);
          return;
        }
        const name = by === 'cancel' ? text('form.cancel') : text('form.close');
        const buttons = d().getAllByRole('button', { name });
        // The footer's button, not the dialog's close button (the Escape step covers that one).
        return user.click(buttons.find((b) => b.getAttribute('data-part') !== 'close-trigger')!);
      }
      case 'xstate.done.actor.redeem':
        return world.endpoints.settle('useCard', 'done', REDEEMED);
      case 'xstate.error.actor.redeem':
        return world.endpoints.settle('useCard', 'error', replyError(ALREADY_USED));
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };
}

function sees(world: CardsWorld, state: string) {
  return () => {
    const d = world.dialog(text('cards.redeemTitle'));
    if (state === 'closed') {
      expect(d, 'the dialog').toBeNull();
      world.pageButton(text('cards.redeem'));
      return;
    }
    expect(d, 'the dialog').not.toBeNull();
    const dialog = d!;
    switch (state) {
      case 'editing':
      case 'editing, kept':
      case 'submitting': {
        const cardNo = field(dialog, text('cards.cardNo'));
        const pwd = field(dialog, text('cards.cardPwd'));
        // A new entry starts empty; a corrected one (and the one being sent) shows what was typed.
        const typed = state === 'editing' ? ['', ''] : [CARD_NO, TYPED_PWD];
        expect([cardNo.value, pwd.value]).toEqual(typed);
        expect(cardNo.readOnly).toBe(state === 'submitting');
        expect(footerButtons(dialog)).toEqual([text('form.cancel'), text('cards.redeemSubmit')]);
        const submit = dialog.getByRole('button', { name: text('cards.redeemSubmit') });
        expect(submit.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
        const cancel = dialog.getByRole('button', { name: text('form.cancel') });
        expect(cancel.hasAttribute('disabled')).toBe(state === 'submitting');
        return;
      }
      case 'failed':
        dialog.getByText(text('cards.redeemFailedFor', { card: CARD_NO }));
        // The server's own sentence.
        expect(dialog.getByRole('alert').textContent).toContain(ALREADY_USED);
        expect(footerButtons(dialog)).toEqual([text('form.close'), text('cards.tryAgain')]);
        return;
      case 'done': {
        expect(dialog.getByRole('status').textContent).toBe(text('cards.redeemed'));
        const summary = dialog.getByRole('group', { name: text('cards.redeemed') });
        expect(summary.textContent).toContain(CARD_NO);
        expect(summary.textContent).toContain(`${REDEEMED.face_value} ${MONEY}`);
        expect(footerButtons(dialog)).toEqual([text('cards.redeemAnother'), text('form.close')]);
        return;
      }
      default:
        throw new Error(`no view of '${state}'`);
    }
  };
}

/** The actor's state under the table's names (checked against the table, never the expectation). */
function actual(world: CardsWorld): string {
  const s = world.area().redeem.getSnapshot();
  return s.matches('editing') && s.context.entry !== null ? 'editing, kept' : String(s.value);
}

viewPathHooks();

describe('the redeem dialog (a partner)', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    // The paths are proposed as if the form checks (`exec` types a valid entry before SUBMIT).
    proposed: getShortestPaths(redeemMachine.provide({ guards: { valid: () => true } }), {
      events: (s) =>
        (
          [
            { type: 'OPEN' },
            { type: 'SUBMIT' },
            { type: 'EDIT' },
            { type: 'AGAIN' },
            {
              type: 'CLOSE',
              by: s.matches('editing') && s.context.entry ? 'escape' : CLOSE_BY[String(s.value)],
            },
            { type: 'xstate.done.actor.redeem', output: REDEEMED },
            { type: 'xstate.error.actor.redeem', error: replyError(ALREADY_USED) },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) =>
        JSON.stringify([s.value, s.context.entry !== null, e ? label(e as PathEvent) : null]),
    }),
    run: async (_, walk) => {
      const world = cardsWorld('partner');
      await walk({
        exec: exec(world),
        sees: Object.fromEntries(
          ['closed', ...Object.values(TRANSITIONS)].map((s) => [s, sees(world, s)]),
        ),
        actual: () => actual(world),
        effects: { take: world.effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('an empty entry is refused in the form: nothing is sent', async () => {
  const world = cardsWorld('partner');
  await settle();
  await world.user.click(world.pageButton(text('cards.redeem')));
  const d = world.dialog(text('cards.redeemTitle'))!;
  await world.user.click(d.getByRole('button', { name: text('cards.redeemSubmit') }));
  d.getByText(text('validation.cardNo'));
  expect(world.endpoints.waiting()).toEqual([]);
  expect(world.area().redeem.getSnapshot().value).toBe('editing');
  world.dispose();
}, 120_000);

test('an admin is offered no redeem button', async () => {
  const world = cardsWorld('admin');
  await settle();
  world.pageButton(text('cards.generate'));
  expect(() => world.pageButton(text('cards.redeem'))).toThrow();
  world.dispose();
}, 120_000);
