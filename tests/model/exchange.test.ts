/**
 * Model-based path tests of the exchange dialog's machine: every shortest path runs on a real
 * actor whose exchange call is a fake settled by the steps; each step checks the state's promise
 * and the idempotency rules (transfer-model.ts; the exchange dialog runs the same machine with its own drafts): a retry after a lost reply sends the same key.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { exchangeMachine, type ExchangeSnapshot } from '../../src/machines/exchange';
import type { ExchangeReply } from '../../src/api/contract/money';
import type { ExchangeDraft } from '../../src/machines/exchange';
import { describePath, fakeCalls, runPath } from './harness';
import { EXCHANGE_DRAFTS, EXCHANGE_REPLY } from './exchange-model';
import {
  DIALOG_STATES,
  checkDialogStep,
  describeEvent,
  eventsWith,
  keyMaker,
  serializeWith,
  type Sent,
} from './transfer-model';

const serialize = serializeWith<ExchangeDraft, ExchangeReply>(EXCHANGE_DRAFTS);
const reached = new Set<string>();

describe('the exchange dialog', () => {
  const paths = getShortestPaths(exchangeMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(EXCHANGE_DRAFTS, EXCHANGE_REPLY),
    serializeState: (state, event) => serialize(state, event),
  });

  test('the model has paths through every event', () => {
    const types = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)));
    expect([...types].sort()).toEqual([
      'AGAIN',
      'BACK',
      'CLOSE',
      'OPEN',
      'RETRY',
      'REVIEW',
      'SUBMIT',
      'xstate.done.actor.submit',
      'xstate.error.actor.submit',
    ]);
  });

  test.each(paths.map((path) => [describePath(path, describeEvent), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const sent: Sent = { keys: [] };
      const actor = createActor(exchangeMachine.provide({ actors: { submit: calls.logic() } }), {
        input: { newKey: keyMaker() },
      });
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: ExchangeSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot, event, previous) => {
          reached.add(String(snapshot.value));
          checkDialogStep(snapshot, event, previous, calls.started, sent, calls.waiting());
        },
      });
      actor.stop();
    },
  );
});

describe('the exchange dialog, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(DIALOG_STATES).sort());
  });
});
