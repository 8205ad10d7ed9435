/**
 * Model-based path tests of the generate and redeem dialogs through the real views: the shortest
 * paths of each machine run on a real actor (its call a fake settled by the steps) while the
 * dialog is rendered; each step asserts what a person sees in that state (role + accessible name).
 * Then the forms themselves: what a person types is what the machine is given.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { AddCardsReply } from '../../src/api/contract/cards';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  generateCardsMachine,
  type GenerateCardsSnapshot,
  type GenerateDraft,
} from '../../src/machines/cards/generate';
import { redeemMachine, type RedeemSnapshot } from '../../src/machines/cards/redeem';
import { CardGenerateDialog } from '../../src/views/promotion/card-generate-dialog';
import { CardRedeemDialog } from '../../src/views/promotion/card-redeem-dialog';
import {
  ALREADY_USED,
  GENERATE_DRAFTS,
  GENERATE_REPLY,
  REDEEMED,
  describeSettle,
  redeemEvents,
  serializeRedeem,
} from './cards-model';
import { describePath, fakeCalls, runPath } from './harness';
import { describeEvent, eventsWith, keyMaker, REFUSED, serializeWith } from './transfer-model';
import { appActors, BRANDING, flush, isOpen, renderAt } from './view-harness';

const MONEY = BRANDING.money_name;
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

/** The one open dialog named `title`, or null when none is open. */
function openDialog(title: string) {
  const open = screen.queryAllByRole('dialog').filter(isOpen);
  expect(open.length).toBeLessThanOrEqual(1);
  if (open.length === 0) return null;
  expect(open[0].getAttribute('aria-labelledby')).toBeTruthy();
  within(open[0]).getByRole('heading', { name: title });
  return within(open[0]);
}

/** The footer's buttons (the close button and the expiry's calendar button aside), by name. */
function footerButtons(dialog: ReturnType<typeof within>): string[] {
  const buttons: HTMLElement[] = dialog.getAllByRole('button');
  return buttons
    .filter((b) => b.getAttribute('data-part') !== 'close-trigger')
    .filter((b) => b.getAttribute('data-scope') !== 'date-picker')
    .map((b) => b.textContent ?? '');
}

describe('the generate dialog, path by path (a partner: it pays)', () => {
  const serialize = serializeWith<GenerateDraft, AddCardsReply>(GENERATE_DRAFTS);
  const paths = getShortestPaths(generateCardsMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(GENERATE_DRAFTS, GENERATE_REPLY),
    serializeState: (state, event) => serialize(state, event),
  });

  async function assertSees(snapshot: GenerateCardsSnapshot) {
    await flush();
    const dialog = openDialog(enUS['cards.generate']);
    const state = snapshot.value;
    if (state === 'closed') {
      expect(dialog).toBeNull();
      return;
    }
    expect(dialog).not.toBeNull();
    const d = dialog!;
    const c = snapshot.context;
    switch (state) {
      case 'editing':
        expect(footerButtons(d)).toEqual([enUS['form.cancel'], enUS['property.next']]);
        d.getByRole('textbox', { name: fill(enUS['cards.faceValueMoney'], { moneyName: MONEY }) });
        d.getByRole('textbox', { name: enUS['cards.quantity'] });
        d.getByRole('combobox', { name: enUS['cards.asset'] });
        // The expiry is the console's day field (its calendar in the console's language), not
        // the browser's date input.
        expect(
          d.getByRole('textbox', { name: enUS['cards.expiry'] }).getAttribute('placeholder'),
        ).toBe(enUS['date.placeholder']);
        d.getByRole('button', { name: fill(enUS['date.open'], { field: enUS['cards.expiry'] }) });
        break;
      case 'confirming':
      case 'submitting': {
        expect(footerButtons(d)).toEqual([enUS['property.back'], enUS['cards.generateConfirm']]);
        const confirm = d.getByRole('button', { name: enUS['cards.generateConfirm'] });
        expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
        // Face value × quantity, in the card's unit.
        const draft = c.draft!;
        const total = draft.asset === 'money' ? `150.00 ${MONEY}` : '300 min';
        expect(d.getByTestId('generate-total').textContent).toBe(total);
        break;
      }
      case 'failed':
        // The server's refusal as it said it; a lost reply as the client's message, plus why a
        // retry is safe.
        expect(d.getByRole('alert').textContent).toContain(
          c.uncertain ? enUS['http.networkError'] : REFUSED,
        );
        // Sending again only after a lost reply; after a refusal, back to the form.
        expect(footerButtons(d)).toEqual([
          enUS['form.close'],
          c.uncertain ? enUS['property.retry'] : enUS['property.back'],
        ]);
        if (c.uncertain)
          expect(d.getByRole('alert').textContent).toContain(enUS['cards.uncertain']);
        break;
      case 'done':
        expect(d.getByRole('status').textContent).toBe(
          fill('{count} cards generated', { count: 3 }),
        );
        expect(d.getByTestId('generated-batch').textContent).toBe(GENERATE_REPLY.batch_no);
        expect(footerButtons(d)).toEqual([
          enUS['cards.generateMore'],
          enUS['cards.showBatch'],
          enUS['form.close'],
        ]);
        break;
    }
  }

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(
        generateCardsMachine.provide({ actors: { submit: calls.logic() } }),
        { input: { newKey: keyMaker() } },
      );
      const actors = appActors({});
      renderAt(
        actors,
        <CardGenerateDialog actor={actor} moneyName={MONEY} pays onShowBatch={() => {}} />,
      );
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: GenerateCardsSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});

describe('the redeem dialog, path by path', () => {
  const paths = getShortestPaths(redeemMachine, {
    events: redeemEvents,
    serializeState: (state, event) => serializeRedeem(state, event),
  });

  async function assertSees(snapshot: RedeemSnapshot) {
    await flush();
    const dialog = openDialog(enUS['cards.redeemTitle']);
    const state = snapshot.value;
    if (state === 'closed') {
      expect(dialog).toBeNull();
      return;
    }
    const d = dialog!;
    switch (state) {
      case 'editing':
      case 'submitting': {
        d.getByRole('textbox', { name: enUS['cards.cardNo'] });
        d.getByRole('textbox', { name: enUS['cards.cardPwd'] });
        expect(footerButtons(d)).toEqual([enUS['form.cancel'], enUS['cards.redeemSubmit']]);
        const submit = d.getByRole('button', { name: enUS['cards.redeemSubmit'] });
        expect(submit.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
        break;
      }
      case 'failed':
        // The server's own sentence.
        expect(d.getByRole('alert').textContent).toContain(ALREADY_USED);
        expect(footerButtons(d)).toEqual([enUS['form.close'], enUS['cards.tryAgain']]);
        break;
      case 'done':
        expect(d.getByRole('status').textContent).toBe(enUS['cards.redeemed']);
        d.getByText(`${REDEEMED.face_value} ${MONEY}`);
        expect(footerButtons(d)).toEqual([enUS['cards.redeemAnother'], enUS['form.close']]);
        break;
    }
  }

  test.each(paths.map((path) => [describePath(path, describeSettle), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(redeemMachine.provide({ actors: { redeem: calls.logic() } }));
      const actors = appActors({});
      renderAt(actors, <CardRedeemDialog actor={actor} />);
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: RedeemSnapshot, e?: { type: string }) => serializeRedeem(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});

describe('the forms', () => {
  const type = (el: HTMLElement, value: string) =>
    act(() => {
      fireEvent.change(el, { target: { value } });
    });

  test('generate: the typed batch is confirmed as the API reads it; bad input stays', async () => {
    const actor = createActor(generateCardsMachine, { input: { newKey: keyMaker() } }).start();
    const actors = appActors({});
    renderAt(
      actors,
      <CardGenerateDialog actor={actor} moneyName={MONEY} pays onShowBatch={() => {}} />,
    );
    act(() => actor.send({ type: 'OPEN' }));
    await flush();
    const d = openDialog(enUS['cards.generate'])!;
    const face = d.getByRole('textbox', {
      name: fill(enUS['cards.faceValueMoney'], { moneyName: MONEY }),
    });
    await type(face, '12.345');
    await type(d.getByRole('textbox', { name: enUS['cards.quantity'] }), '3');
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
    });
    await flush();
    // Three decimals: refused in the form, nothing confirmed.
    expect(actor.getSnapshot().value).toBe('editing');
    d.getByText(enUS['validation.amount']);
    await type(face, '12.5');
    await type(
      d.getByRole('textbox', { name: enUS['cards.priceIn'].replace('{moneyName}', MONEY) }),
      '10',
    );
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.draft).toEqual({
      asset: 'money',
      faceValue: '12.50',
      quantity: 3,
      expireAt: null,
      price: '10.00',
      remark: '',
    });
    expect(openDialog(enUS['cards.generate'])!.getByTestId('generate-total').textContent).toBe(
      `37.50 ${MONEY}`,
    );
    actor.stop();
    actors.dispose();
  });

  test('redeem: the password is sent without case, spaces or dashes', async () => {
    const calls = fakeCalls();
    const actor = createActor(redeemMachine.provide({ actors: { redeem: calls.logic() } })).start();
    const actors = appActors({});
    renderAt(actors, <CardRedeemDialog actor={actor} />);
    act(() => actor.send({ type: 'OPEN' }));
    await flush();
    const d = openDialog(enUS['cards.redeemTitle'])!;
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['cards.redeemSubmit'] }));
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    d.getByText(enUS['validation.cardNo']);
    await type(d.getByRole('textbox', { name: enUS['cards.cardNo'] }), ' P261122000001 ');
    await type(d.getByRole('textbox', { name: enUS['cards.cardPwd'] }), 'abcd-2345 efgh-6789');
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['cards.redeemSubmit'] }));
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(calls.started.at(-1)?.input).toEqual({
      cardNo: 'P261122000001',
      cardPwd: 'ABCD2345EFGH6789',
    });
    actor.stop();
    actors.dispose();
  });
});
