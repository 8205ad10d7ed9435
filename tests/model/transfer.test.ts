/**
 * Model-based path tests of the transfer dialog's machine: every shortest path runs on a real
 * actor whose transfer call is a fake settled by the steps; each step checks the state's promise
 * and the idempotency rules (transfer-model.ts): a retry after a lost reply sends the same key.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { transferMachine, type TransferSnapshot } from '../../src/machines/transfer';
import type { TransferRecord } from '../../src/api/contract/money';
import type { TransferDraft } from '../../src/machines/transfer';
import { describePath, fakeCalls, runPath } from './harness';
import {
  DIALOG_STATES,
  TRANSFER_DRAFTS,
  TRANSFER_RECORD,
  checkDialogStep,
  describeEvent,
  eventsWith,
  keyMaker,
  serializeWith,
  type Sent,
} from './transfer-model';

const serialize = serializeWith<TransferDraft, TransferRecord>(TRANSFER_DRAFTS);
const reached = new Set<string>();

describe('the transfer dialog', () => {
  const paths = getShortestPaths(transferMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(TRANSFER_DRAFTS, TRANSFER_RECORD),
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
      const actor = createActor(transferMachine.provide({ actors: { submit: calls.logic() } }), {
        input: { newKey: keyMaker() },
      });
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: TransferSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot, event, previous) => {
          reached.add(String(snapshot.value));
          checkDialogStep(snapshot, event, previous, calls.started, sent, calls.waiting());
        },
      });
      actor.stop();
    },
  );
});

describe('the transfer dialog, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(DIALOG_STATES).sort());
  });
});
