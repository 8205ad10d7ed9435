/**
 * Model-based path tests of the transfer-cards dialog through the real view: every shortest path
 * of its machine runs on a real actor while the dialog is rendered (the user picker's search is a
 * fake page of users); each step asserts what a person sees. Then the picker itself: choosing a
 * user is what the machine is given.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { PlatformUserPage } from '../../src/api/contract/customers';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  cardTransferMachine,
  type CardSelection,
  type CardTransferSnapshot,
} from '../../src/machines/cards/transfer';
import { CardTransferDialog } from '../../src/views/promotion/card-transfer-dialog';
import {
  TRANSFER_REFUSED,
  describeSettle,
  fakeCardsEndpoints,
  serializeTransfer,
  transferEvents,
} from './cards-model';
import type { AppActors } from '../../src/app/actors/actors-context';
import { provideArea } from '../../src/app/actors/areas';
import { cardsArea } from '../../src/app/actors/cards';
import { describePath, fakeCalls, runPath } from './harness';
import { appActors, flush, isOpen, renderAt } from './view-harness';

const USERS: PlatformUserPage = {
  list: [
    {
      id: 5,
      username: 'merchant',
      name: 'Morning shop',
      nickname: '',
      mobile: '',
      user_type: 2,
      service_id: 2,
      status: 1,
    },
  ],
  total: 1,
};

/** App actors whose cards area finds USERS for any search. */
function cardActors(): AppActors {
  const actors = appActors({});
  provideArea(actors, cardsArea, fakeCardsEndpoints({ getPlatformUsers: async () => USERS }));
  return actors;
}

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

function dialog() {
  const open = screen.queryAllByRole('dialog').filter(isOpen);
  expect(open.length).toBeLessThanOrEqual(1);
  return open.length ? within(open[0]) : null;
}

function footerButtons(d: ReturnType<typeof within>): string[] {
  const buttons: HTMLElement[] = d.getAllByRole('button');
  return buttons
    .filter((b) => b.getAttribute('data-part') !== 'close-trigger')
    .map((b) => b.textContent ?? '');
}

/** What the dialog says about the cards (a selection or a batch). */
function what(selection: CardSelection): string {
  return 'ids' in selection
    ? `${selection.ids.length} selected cards`
    : fill(enUS['cards.wholeBatch'], { batch: selection.batchNo });
}

async function assertSees(snapshot: CardTransferSnapshot) {
  await flush();
  const d = dialog();
  const state = snapshot.value;
  if (state === 'closed') {
    expect(d).toBeNull();
    return;
  }
  expect(d).not.toBeNull();
  d!.getByRole('heading', { name: enUS['cards.transfer'] });
  const c = snapshot.context;
  if (state !== 'done') {
    d!.getByText(fill(enUS['cards.transferWhat'], { what: what(c.selection!) }));
  }
  switch (state) {
    case 'picking':
      d!.getByRole('searchbox', { name: enUS['cards.searchUser'] });
      d!.getByRole('combobox', { name: enUS['cards.transferTo'] });
      expect(footerButtons(d!)).toEqual([enUS['form.cancel'], enUS['property.next']]);
      break;
    case 'confirming':
    case 'submitting': {
      const summary = d!.getByRole('group', { name: enUS['cards.transferConfirm'] });
      expect(summary.textContent).toContain(c.target!.label);
      expect(footerButtons(d!)).toEqual([enUS['property.back'], enUS['cards.transferConfirm']]);
      const confirm = d!.getByRole('button', { name: enUS['cards.transferConfirm'] });
      expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
      break;
    }
    case 'failed':
      expect(d!.getByRole('alert').textContent).toContain(TRANSFER_REFUSED);
      expect(footerButtons(d!)).toEqual([enUS['property.back'], enUS['property.retry']]);
      break;
    case 'done':
      expect(d!.getByRole('status').textContent).toBe(`2 cards transferred to ${c.target!.label}`);
      expect(footerButtons(d!)).toEqual([enUS['form.close']]);
      break;
  }
}

describe('the transfer-cards dialog, path by path', () => {
  const paths = getShortestPaths(cardTransferMachine, {
    events: transferEvents,
    serializeState: (state, event) => serializeTransfer(state, event),
  });

  test.each(paths.map((path) => [describePath(path, describeSettle), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(cardTransferMachine.provide({ actors: { submit: calls.logic() } }));
      const actors = cardActors();
      renderAt(actors, <CardTransferDialog actor={actor} />);
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: CardTransferSnapshot, e?: { type: string }) => serializeTransfer(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});

test('the picker: Next without a user is refused; the user chosen is the one confirmed', async () => {
  const actor = createActor(cardTransferMachine).start();
  const actors = cardActors();
  renderAt(actors, <CardTransferDialog actor={actor} />);
  act(() => actor.send({ type: 'OPEN', selection: { ids: [3, 4] } }));
  await flush();
  const d = dialog()!;
  await act(async () => {
    fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
  });
  await flush();
  expect(actor.getSnapshot().value).toBe('picking');
  const select = d.getByRole('combobox', { name: enUS['cards.transferTo'] });
  expect(select.getAttribute('aria-invalid')).toBe('true');
  expect(d.getAllByText(enUS['validation.user']).length).toBeGreaterThan(0);
  await flush();
  await act(async () => {
    fireEvent.change(select, { target: { value: '5' } });
  });
  await act(async () => {
    fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
  });
  await flush();
  expect(actor.getSnapshot().value).toBe('confirming');
  expect(actor.getSnapshot().context.target).toEqual({ id: 5, label: 'Morning shop (merchant)' });
  actor.stop();
  actors.dispose();
});
