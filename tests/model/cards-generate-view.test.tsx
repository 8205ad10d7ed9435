/**
 * The generate-cards machine (src/machines/cards/generate.ts, a money call: money-call.ts) through
 * the card page's real "Generate cards" button and dialog (a partner: it pays), against a
 * hand-written oracle: the machine's shortest paths only propose event sequences; each step is a
 * click, typing, Escape or the fake `addCards` endpoint settling (a batch, a refusal, a lost
 * reply), and the state after it comes from the table below, asserted on screen, with what is
 * sent: a confirmed draft gets a new idempotency key, a retry after a lost reply sends the same
 * one, so a batch is made (and paid for) once. After an answer the list is loaded again.
 */
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { AddCardsReply } from '../../src/api/contract/cards';
import { generateCardsMachine } from '../../src/machines/cards/generate';
import { cardsWorld, field, footerButtons, MONEY, text } from './cards-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const REPLY: AddCardsReply = { batch_no: 'BP261122000009', count: 3 };
const REFUSED = 'Insufficient balance';
/** What the person types, and the batch the API is asked for. */
const TYPED = { faceValue: '50', quantity: '3', price: '45', remark: 'spring sale' };
const BODY = {
  asset: 'money',
  face_value: '50.00',
  quantity: 3,
  expire_at: null,
  price: '45.00',
  remark: 'spring sale',
};

// ---------------------------------------------------------------------------------------------
// The oracle, written from the spec (a money call): form → confirmation with the total paid →
// the batch. A refusal moved nothing: back to the form or close. A lost reply may have made the
// batch: only the same request again (the same key) or close.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'editing',
  'editing REVIEW': 'confirming',
  'editing CLOSE (cancel)': 'closed',
  'editing, kept REVIEW': 'confirming',
  'editing, kept CLOSE (cancel)': 'closed',
  // Back to the form: what was typed stays.
  'confirming BACK': 'editing, kept',
  'confirming SUBMIT': 'submitting',
  'confirming CLOSE (escape)': 'closed',
  'submitting done submit': 'done',
  'submitting error submit (refused)': 'failed, refused',
  'submitting error submit (lost)': 'failed, lost',
  'failed, refused BACK': 'editing, kept',
  'failed, refused CLOSE (close)': 'closed',
  'failed, lost RETRY': 'submitting',
  'failed, lost CLOSE (close)': 'closed',
  // Another batch: an empty form.
  'done AGAIN': 'editing',
  'done CLOSE (close)': 'closed',
  // The list shows the new batch.
  'done CLOSE (show batch)': 'closed',
};

/** An answer (even a refusal, even none: a lost reply may have made the batch) reloads the list. */
const EFFECTS: Record<string, string[]> = {
  'submitting done submit': ['reload'],
  'submitting error submit (refused)': ['reload'],
  'submitting error submit (lost)': ['reload'],
  'done CLOSE (show batch)': [`reload batch ${REPLY.batch_no}`],
};

type PathEvent = { type: string; by?: string; error?: { kind?: string } };

const label = (event: PathEvent) => {
  if (event.by) return `${event.type} (${event.by})`;
  if (event.type === 'xstate.done.actor.submit') return 'done submit';
  if (event.type === 'xstate.error.actor.submit') {
    return `error submit (${event.error?.kind === 'reply' ? 'refused' : 'lost'})`;
  }
  return event.type;
};

/** The control a person closes the dialog with, in each state (each of the view's ways once). */
const CLOSE_BY: Record<string, string[]> = {
  editing: ['cancel'],
  confirming: ['escape'],
  failed: ['close'],
  done: ['close', 'show batch'],
};

/**
 * The fields typed key by key so far in this file. A keystroke re-renders the dialog (≈ 0.25 s of
 * CPU in jsdom: typing was most of the file's time): each field is typed key by key once, by the
 * first path that fills the form; later paths paste the value into the field (focused by `clear`),
 * one input event through the same change handler, and check the same states and request body.
 */
const TYPED_ONCE = new Set<string>();

// ---------------------------------------------------------------------------------------------

function setup() {
  const world = cardsWorld('partner');
  /** How many drafts the person confirmed: each gets the next key of the fake key maker. */
  let reviews = 0;
  const d = () => world.dialog(text('cards.generate'))!;
  const faceValue = text('cards.faceValueMoney', { moneyName: MONEY });
  const price = text('cards.priceIn', { moneyName: MONEY });

  const typeInto = async (label: string, value: string) => {
    await world.user.clear(field(d(), label));
    if (!value) return;
    if (TYPED_ONCE.has(label)) return world.user.paste(value);
    TYPED_ONCE.add(label);
    await world.user.type(field(d(), label), value);
  };

  const exec = async (event: PathEvent) => {
    const { user } = world;
    switch (event.type) {
      case 'OPEN':
        return user.click(world.pageButton(text('cards.generate')));
      case 'REVIEW':
        await typeInto(faceValue, TYPED.faceValue);
        await typeInto(text('cards.quantity'), TYPED.quantity);
        await typeInto(price, TYPED.price);
        await typeInto(text('cards.remark'), TYPED.remark);
        await user.click(d().getByRole('button', { name: text('property.next') }));
        reviews += 1;
        return;
      case 'BACK':
        return user.click(d().getByRole('button', { name: text('property.back') }));
      case 'SUBMIT':
      case 'RETRY': {
        const name =
          event.type === 'SUBMIT' ? text('cards.generateConfirm') : text('property.retry');
        const before = world.endpoints.calls.length;
        await user.click(d().getByRole('button', { name }));
        // The confirmed draft, under the key of its confirmation (a retry: the same key).
        expect(world.endpoints.calls.slice(before)).toEqual([
          { name: 'addCards', input: [BODY, `key-${reviews}`] },
        ]);
        return;
      }
      case 'AGAIN':
        return user.click(d().getByRole('button', { name: text('cards.generateMore') }));
      case 'CLOSE': {
        if (event.by === 'escape') {
          // The dialog's layer listens for Escape once it has opened (a frame later).
          await vi.advanceTimersByTimeAsync(100);
          await user.keyboard('{Escape}');
          await vi.advanceTimersByTimeAsync(100);
          return;
        }
        const name =
          event.by === 'cancel'
            ? text('form.cancel')
            : event.by === 'show batch'
              ? text('cards.showBatch')
              : text('form.close');
        const buttons = d().getAllByRole('button', { name });
        return user.click(buttons.find((b) => b.getAttribute('data-part') !== 'close-trigger')!);
      }
      case 'xstate.done.actor.submit':
        return world.endpoints.settle('addCards', 'done', REPLY);
      case 'xstate.error.actor.submit':
        return world.endpoints.settle(
          'addCards',
          'error',
          event.error?.kind === 'reply'
            ? replyError(REFUSED)
            : replyError('http.networkError', 'transport'),
        );
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  const sees = (state: string) => () => {
    const dialog = world.dialog(text('cards.generate'));
    if (state === 'closed') {
      expect(dialog, 'the dialog').toBeNull();
      return;
    }
    expect(dialog, 'the dialog').not.toBeNull();
    const dd = dialog!;
    switch (state) {
      case 'editing':
      case 'editing, kept': {
        field(dd, text('cards.asset'), 'combobox');
        // The expiry is the console's day field (its calendar in the console's language), not
        // the browser's date input.
        expect(field(dd, text('cards.expiry')).getAttribute('placeholder')).toBe(
          text('date.placeholder'),
        );
        dd.getByRole('button', { name: text('date.open', { field: text('cards.expiry') }) });
        // A new batch starts from the empty form; back from the confirmation keeps the values.
        const kept = state === 'editing, kept';
        expect(field(dd, faceValue).value).toBe(kept ? TYPED.faceValue : '');
        expect(field(dd, text('cards.quantity')).value).toBe(kept ? TYPED.quantity : '1');
        expect(footerButtons(dd)).toEqual([text('form.cancel'), text('property.next')]);
        return;
      }
      case 'confirming':
      case 'submitting': {
        // The partner pays face value × quantity.
        const summary = dd.getByRole('group', { name: text('cards.generateConfirm') });
        expect(summary.textContent).toContain(`150.00 ${MONEY}`);
        expect(summary.textContent).toContain(TYPED.remark);
        expect(footerButtons(dd)).toEqual([text('property.back'), text('cards.generateConfirm')]);
        const confirm = dd.getByRole('button', { name: text('cards.generateConfirm') });
        expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
        const back = dd.getByRole('button', { name: text('property.back') });
        expect(back.hasAttribute('disabled')).toBe(state === 'submitting');
        return;
      }
      case 'failed, refused':
        // The server's refusal as it said it; back to the form (sending it again is refused).
        expect(dd.getByRole('alert').textContent).toBe(REFUSED);
        expect(footerButtons(dd)).toEqual([text('form.close'), text('property.back')]);
        return;
      case 'failed, lost':
        // No reply: why a retry is safe, and only a retry or closing.
        expect(dd.getByRole('alert').textContent).toContain(text('http.networkError'));
        expect(dd.getByRole('alert').textContent).toContain(text('cards.uncertain'));
        expect(footerButtons(dd)).toEqual([text('form.close'), text('property.retry')]);
        return;
      case 'done': {
        expect(dd.getByRole('status').textContent).toBe('3 cards generated');
        const batch = dd.getByRole('group', { name: text('cards.generatedBatch') });
        expect(batch.textContent).toContain(REPLY.batch_no);
        expect(footerButtons(dd)).toEqual([
          text('cards.generateMore'),
          text('cards.showBatch'),
          text('form.close'),
        ]);
        return;
      }
      default:
        throw new Error(`no view of '${state}'`);
    }
  };

  /** The actor's state under the table's names (checked against the table, never expected). */
  const actual = () => {
    const s = world.area().generate.getSnapshot();
    if (s.matches('editing')) return s.context.draft ? 'editing, kept' : 'editing';
    if (s.matches('failed')) return s.context.uncertain ? 'failed, lost' : 'failed, refused';
    return String(s.value);
  };

  return { world, exec, sees, actual, d };
}

viewPathHooks();

describe('the generate-cards dialog (a partner: it pays)', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(generateCardsMachine, {
      input: { newKey: () => 'key' },
      events: (s) =>
        (
          [
            { type: 'OPEN' },
            { type: 'REVIEW', draft: BODY },
            { type: 'BACK' },
            { type: 'SUBMIT' },
            { type: 'RETRY' },
            { type: 'AGAIN' },
            ...(CLOSE_BY[String(s.value)] ?? []).map((by) => ({ type: 'CLOSE', by })),
            { type: 'xstate.done.actor.submit', output: REPLY },
            { type: 'xstate.error.actor.submit', error: replyError(REFUSED) },
            {
              type: 'xstate.error.actor.submit',
              error: replyError('http.networkError', 'transport'),
            },
          ] as never[]
        ).filter((e) => s.can(e)),
      // Each way into a state once.
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.draft !== null,
          s.context.uncertain,
          e ? label(e as PathEvent) : null,
        ]),
    }),
    more: [
      // A draft confirmed again is a new submission (a new key), which a retry keeps.
      {
        steps: [
          { type: 'xstate.init' },
          { type: 'OPEN' },
          { type: 'REVIEW' },
          { type: 'BACK' },
          { type: 'REVIEW' },
          { type: 'SUBMIT' },
          { type: 'xstate.error.actor.submit', error: { kind: 'transport' } },
          { type: 'RETRY' },
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
        effects: { take: world.effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});

test('the form: a bad face value stays in the form; the typed batch is what is confirmed', async () => {
  const { world, exec, d } = setup();
  await settle();
  await exec({ type: 'OPEN' });
  await settle();
  const faceValue = field(d(), text('cards.faceValueMoney', { moneyName: MONEY }));
  await world.user.type(faceValue, '12.345');
  await world.user.clear(field(d(), text('cards.quantity')));
  await world.user.type(field(d(), text('cards.quantity')), '3');
  await world.user.click(d().getByRole('button', { name: text('property.next') }));
  // Three decimals: refused in the form, nothing confirmed.
  d().getByText(text('validation.amount'));
  expect(world.area().generate.getSnapshot().value).toBe('editing');
  await world.user.clear(faceValue);
  await world.user.type(faceValue, '12.5');
  await world.user.type(field(d(), text('cards.priceIn', { moneyName: MONEY })), '10');
  await world.user.click(d().getByRole('button', { name: text('property.next') }));
  await settle();
  const summary = d().getByRole('group', { name: text('cards.generateConfirm') });
  expect(summary.textContent).toContain(`37.50 ${MONEY}`);
  await world.user.click(d().getByRole('button', { name: text('cards.generateConfirm') }));
  expect(world.endpoints.calls.at(-1)).toEqual({
    name: 'addCards',
    input: [
      { asset: 'money', face_value: '12.50', quantity: 3, expire_at: null, price: '10.00' },
      'key-1',
    ],
  });
  world.dispose();
}, 120_000);

test('an admin’s cards are minted: no total to pay', async () => {
  const world = cardsWorld('admin');
  await settle();
  await world.user.click(world.pageButton(text('cards.generate')));
  await settle();
  const d = world.dialog(text('cards.generate'))!;
  await world.user.type(field(d, text('cards.faceValueMoney', { moneyName: MONEY })), '50');
  await world.user.click(d.getByRole('button', { name: text('property.next') }));
  await settle();
  const summary = d.getByRole('group', { name: text('cards.generateConfirm') });
  expect(summary.textContent).toContain(text('cards.minted'));
  world.dispose();
}, 120_000);
