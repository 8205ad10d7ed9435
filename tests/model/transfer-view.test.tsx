/**
 * Model-based path tests of the transfer dialog through the real view: the shortest paths of the
 * money-call machine run on a real actor (the transfer call is a fake settled by the steps) while
 * the TransferDialog is rendered, over a fake list of users; each step asserts what a person sees (transfer-view-checks.tsx).
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { TransferRecord } from '../../src/api/contract/money';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  transferMachine,
  type TransferDraft,
  type TransferSnapshot,
} from '../../src/machines/transfer';
import { TransferDialog } from '../../src/views/account/transfer-dialog';
import { describePath, fakeCalls, runPath } from './harness';
import {
  TRANSFER_DRAFTS,
  TRANSFER_RECORD,
  describeEvent,
  eventsWith,
  fakeMoneyEndpoints,
  keyMaker,
  serializeWith,
} from './transfer-model';
import { assertDialogSees } from './transfer-view-checks';
import type { AppActors } from '../../src/app/actors/actors-context';
import { provideArea } from '../../src/app/actors/areas';
import { moneyArea } from '../../src/app/actors/money';
import { appActors, flush, renderAt } from './view-harness';

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

// The recipient picker lists users through the money area: a fixed page of one merchant.
const USERS = {
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

function moneyActors(): AppActors {
  const actors = appActors({});
  provideArea(actors, moneyArea, fakeMoneyEndpoints({ getPlatformUsers: async () => USERS }));
  return actors;
}

const serialize = serializeWith<TransferDraft, TransferRecord>(TRANSFER_DRAFTS);
/** The caller, named on the confirmation as the result names the sender. */
const ME = { name: TRANSFER_RECORD.from_name, username: TRANSFER_RECORD.from_username };
const ME_LABEL = `${ME.name} (${ME.username})`;

const paths = () =>
  getShortestPaths(transferMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(TRANSFER_DRAFTS, TRANSFER_RECORD),
    serializeState: (state, event) => serialize(state, event),
  });

describe('transfer dialog views', () => {
  test.each(paths().map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(transferMachine.provide({ actors: { submit: calls.logic() } }), {
        input: { newKey: keyMaker() },
      });
      const actors = moneyActors();
      renderAt(
        actors,
        <TransferDialog
          actor={actor}
          assets={['money', 'digital_man']}
          moneyName="Coins"
          me={ME}
        />,
      );
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: TransferSnapshot, e?: { type: string }) => serialize(s, e),
        check: async (snapshot) => {
          await assertDialogSees(snapshot, {
            title: 'property.transfer',
            confirm: 'property.confirmTransfer',
            confirmText: 'property.confirmTransferText',
            done: 'property.transferDone',
          });
          const draft = snapshot.context.draft;
          if (!draft || !['confirming', 'submitting', 'failed'].includes(String(snapshot.value)))
            return;
          // Giving: from me to the user; taking back: from the user to me. Minutes, not seconds.
          const summary = screen.getByRole('group', { name: enUS['property.confirmTransfer'] });
          const [from, to] =
            draft.direction === 'give' ? [ME_LABEL, draft.toLabel] : [draft.toLabel, ME_LABEL];
          const values = within(summary)
            .getAllByRole('definition')
            .map((d) => d.textContent);
          expect(values.slice(0, 2)).toEqual([from, to]);
          expect(values[3]).toBe(draft.asset === 'money' ? '10.50 Coins' : '2 minutes');
        },
      });
      actor.stop();
      actors.dispose();
    },
  );
});

describe('the sender is named alike on the confirmation and in the result', () => {
  test.each(
    paths()
      .filter((p) => p.state.value === 'done')
      .slice(0, 1),
  )('done', async (path) => {
    const calls = fakeCalls();
    const actor = createActor(transferMachine.provide({ actors: { submit: calls.logic() } }), {
      input: { newKey: keyMaker() },
    });
    const actors = moneyActors();
    renderAt(actors, <TransferDialog actor={actor} assets={['money']} moneyName="Coins" me={ME} />);
    const names: string[] = [];
    await runPath({
      path,
      actor,
      calls,
      serialize: (s: TransferSnapshot, e?: { type: string }) => serialize(s, e),
      check: async (snapshot) => {
        await flush();
        const value = String(snapshot.value);
        const group = ['confirming', 'done'].includes(value)
          ? screen.getByRole('group', {
              name: enUS[value === 'done' ? 'property.transferDone' : 'property.confirmTransfer'],
            })
          : null;
        if (!group) return;
        const labels = within(group)
          .getAllByRole('term')
          .map((d) => d.textContent);
        const values = within(group)
          .getAllByRole('definition')
          .map((d) => d.textContent);
        names.push(values[labels.indexOf(enUS['property.from'])] ?? '');
      },
    });
    // Given: from me, so the confirmation and the result both name me, the same way.
    expect(names).toEqual([ME_LABEL, ME_LABEL]);
    actor.stop();
    actors.dispose();
  });
});

test('giving more than one holds is refused in the form, before any confirmation', async () => {
  const actor = createActor(transferMachine, { input: { newKey: keyMaker() } }).start();
  const actors = moneyActors();
  const balances = {
    money: '10.00',
    digital_man_seconds: 0,
    voice_clone_count: 0,
    image_clone_count: 0,
  };
  renderAt(
    actors,
    <TransferDialog
      actor={actor}
      assets={['money']}
      moneyName="Coins"
      me={ME}
      balances={balances}
    />,
  );
  act(() => actor.send({ type: 'OPEN' }));
  await act(async () => {
    await vi.advanceTimersByTimeAsync(400);
  });
  const dialog = screen.getByRole('dialog');
  fireEvent.change(within(dialog).getByRole('combobox', { name: enUS['property.recipient'] }), {
    target: { value: '5' },
  });
  const amount = within(dialog).getByRole('textbox', {
    name: enUS['property.amountIn'].replace('{unit}', 'Coins'),
  });
  const next = async (typed: string) => {
    fireEvent.change(amount, { target: { value: typed } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: enUS['property.next'] }));
    });
  };
  await next('10.01');
  expect(actor.getSnapshot().value).toBe('editing');
  within(dialog).getByText(enUS['property.overBalance']);
  await next('10.00');
  expect(actor.getSnapshot().value).toBe('confirming');
  actor.stop();
  actors.dispose();
});
