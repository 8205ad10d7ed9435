/**
 * Model-based path tests of the exchange dialog through the real view: the shortest paths of the
 * money-call machine run on a real actor (the exchange call is a fake settled by the steps) while
 * the ExchangeDialog is rendered; each step asserts what a person sees (transfer-view-checks.tsx).
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, describe, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { ExchangeReply } from '../../src/api/contract/money';
import { removeAllNotices } from '../../src/components/toaster';
import { localeStore } from '../../src/i18n/locale-store';
import {
  exchangeMachine,
  type ExchangeDraft,
  type ExchangeSnapshot,
} from '../../src/machines/exchange';
import { ExchangeDialog } from '../../src/views/account/exchange-dialog';
import { EXCHANGE_DRAFTS, EXCHANGE_REPLY } from './exchange-model';
import { describePath, fakeCalls, runPath } from './harness';
import { describeEvent, eventsWith, keyMaker, serializeWith } from './transfer-model';
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

const serialize = serializeWith<ExchangeDraft, ExchangeReply>(EXCHANGE_DRAFTS);
const OPTIONS = [
  { asset: 'digital_man', price: '1' },
  { asset: 'digital_voice', price: '10' },
] as const;

describe('exchange dialog views', () => {
  const paths = getShortestPaths(exchangeMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(EXCHANGE_DRAFTS, EXCHANGE_REPLY),
    serializeState: (state, event) => serialize(state, event),
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(exchangeMachine.provide({ actors: { submit: calls.logic() } }), {
        input: { newKey: keyMaker() },
      });
      const actors = appActors({});
      renderAt(
        actors,
        <ExchangeDialog actor={actor} options={OPTIONS} moneyName="Coins" money="1200.50" />,
      );
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: ExchangeSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot) =>
          assertDialogSees(snapshot, {
            title: 'property.exchange',
            confirm: 'property.confirmExchange',
            confirmText: 'property.confirmExchangeText',
            done: 'property.exchangeDone',
          }),
      });
      actor.stop();
      actors.dispose();
    },
  );
});
