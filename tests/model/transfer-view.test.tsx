/**
 * Model-based path tests of the transfer dialog through the real view: the shortest paths of the
 * money-call machine run on a real actor (the transfer call is a fake settled by the steps) while
 * the TransferDialog is rendered, over a fake list of users; each step asserts what a person sees (transfer-view-checks.tsx).
 */
import { cleanup, screen, within } from '@testing-library/react';
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
  keyMaker,
  serializeWith,
} from './transfer-model';
import { assertDialogSees } from './transfer-view-checks';
import { appActors, renderAt } from './view-harness';

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

// The recipient picker lists users through the API: a fixed page of one merchant.
vi.mock('../../src/api/money', () => ({
  getPlatformUsers: async () => ({
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
  }),
}));

const serialize = serializeWith<TransferDraft, TransferRecord>(TRANSFER_DRAFTS);

describe('transfer dialog views', () => {
  const paths = getShortestPaths(transferMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(TRANSFER_DRAFTS, TRANSFER_RECORD),
    serializeState: (state, event) => serialize(state, event),
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(transferMachine.provide({ actors: { submit: calls.logic() } }), {
        input: { newKey: keyMaker() },
      });
      const actors = appActors({});
      renderAt(
        actors,
        <TransferDialog
          actor={actor}
          assets={['money', 'digital_man']}
          moneyName="Coins"
          me="Nebula"
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
            draft.direction === 'give' ? ['Nebula', draft.toLabel] : [draft.toLabel, 'Nebula'];
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
