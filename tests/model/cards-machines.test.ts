/**
 * Model-based path tests of the card dialogs' machines (src/machines/cards): every shortest path
 * runs on a real actor whose calls are fakes settled by the steps; each step checks what the
 * state promises (cards-model.ts), and for generate the money-call rules (transfer-model.ts):
 * a retry after a lost reply sends the same idempotency key, so a batch is paid for once.
 */
import { describe, expect, test } from 'vitest';
import { createActor, type AnyStateMachine, type Snapshot } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { AddCardsReply } from '../../src/api/contract/cards';
import { exportMachine, type ExportSnapshot } from '../../src/machines/cards/export';
import {
  generateCardsMachine,
  type GenerateCardsSnapshot,
  type GenerateDraft,
} from '../../src/machines/cards/generate';
import { redeemMachine, type RedeemSnapshot } from '../../src/machines/cards/redeem';
import { cardTransferMachine, type CardTransferSnapshot } from '../../src/machines/cards/transfer';
import {
  EXPORT_STATES,
  GENERATE_DRAFTS,
  GENERATE_REPLY,
  REDEEM_STATES,
  TRANSFER_STATES,
  checkExportStep,
  checkRedeemStep,
  checkTransferStep,
  describeSettle,
  exportEvents,
  redeemEvents,
  serializeExport,
  serializeRedeem,
  serializeTransfer,
  transferEvents,
} from './cards-model';
import { describePath, fakeCalls, runPath } from './harness';
import {
  DIALOG_STATES,
  checkDialogStep,
  describeEvent,
  eventsWith,
  keyMaker,
  serializeWith,
  type Sent,
} from './transfer-model';

/** Every event type some path takes. */
const eventTypes = (paths: { steps: { event: { type: string } }[] }[]) =>
  [...new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)))].sort();

describe('the generate-cards dialog', () => {
  const serialize = serializeWith<GenerateDraft, AddCardsReply>(GENERATE_DRAFTS);
  const paths = getShortestPaths(generateCardsMachine, {
    input: { newKey: keyMaker() },
    events: eventsWith(GENERATE_DRAFTS, GENERATE_REPLY),
    serializeState: (state, event) => serialize(state, event),
  });
  const reached = new Set<string>();

  test('the model has paths through every event', () => {
    expect(eventTypes(paths)).toEqual([
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
      const actor = createActor(
        generateCardsMachine.provide({ actors: { submit: calls.logic() } }),
        { input: { newKey: keyMaker() } },
      );
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: GenerateCardsSnapshot, e?: { type: string }) => serialize(s, e),
        check: (snapshot, event, previous) => {
          reached.add(String(snapshot.value));
          checkDialogStep(snapshot, event, previous, calls.started, sent, calls.waiting());
          if (snapshot.matches('done')) expect(snapshot.context.result?.batch_no).toBeTruthy();
        },
      });
      actor.stop();
    },
  );

  test('every state of the table is reached', () => {
    expect([...reached].sort()).toEqual(Object.keys(DIALOG_STATES).sort());
  });
});

/** Runs every shortest path of a plain (key-less) machine with its own oracle. */
function pathSuite<S extends { value: unknown }>(
  name: string,
  machine: AnyStateMachine,
  options: {
    events: (s: S) => { type: string }[];
    serialize: (s: S, e?: { type: string }) => string;
    states: string[];
    expectedEvents: string[];
    check: (
      s: S,
      e: { type: string } | null,
      previous: S | null,
      calls: ReturnType<typeof fakeCalls>,
    ) => void;
    actors: string[];
  },
) {
  describe(name, () => {
    const paths = getShortestPaths(machine, {
      events: options.events as never,
      serializeState: (state, event) => options.serialize(state as never, event),
    });
    const reached = new Set<string>();

    test('the model has paths through every event', () => {
      expect(eventTypes(paths)).toEqual(options.expectedEvents);
    });

    test.each(paths.map((path) => [describePath(path, describeSettle), path] as const))(
      '%s',
      async (_, path) => {
        const calls = fakeCalls();
        const actors = Object.fromEntries(options.actors.map((id) => [id, calls.logic()]));
        const actor = createActor(machine.provide({ actors }));
        await runPath({
          path: path as never,
          actor,
          calls,
          serialize: (s: S & Snapshot<unknown>, e?: { type: string }) => options.serialize(s, e),
          check: (snapshot, event, previous) => {
            reached.add(String(snapshot.value));
            options.check(snapshot, event, previous, calls);
          },
        });
        actor.stop();
      },
    );

    test('every state of the table is reached', () => {
      expect([...reached].sort()).toEqual([...options.states].sort());
    });
  });
}

pathSuite<CardTransferSnapshot>('the transfer-cards dialog', cardTransferMachine, {
  events: transferEvents,
  serialize: serializeTransfer,
  states: Object.keys(TRANSFER_STATES),
  expectedEvents: [
    'BACK',
    'CLOSE',
    'OPEN',
    'PICK',
    'RETRY',
    'SUBMIT',
    'xstate.done.actor.submit',
    'xstate.error.actor.submit',
  ],
  actors: ['submit'],
  check: (s, e, _p, calls) => checkTransferStep(s, e, calls.started, calls.waiting()),
});

pathSuite<RedeemSnapshot>('the redeem dialog', redeemMachine, {
  events: redeemEvents,
  serialize: serializeRedeem,
  states: Object.keys(REDEEM_STATES),
  expectedEvents: [
    'AGAIN',
    'CLOSE',
    'EDIT',
    'OPEN',
    'SUBMIT',
    'xstate.done.actor.redeem',
    'xstate.error.actor.redeem',
  ],
  actors: ['redeem'],
  check: (s, e, p, calls) => checkRedeemStep(s, e, p, calls.started, calls.waiting()),
});

pathSuite<ExportSnapshot>('the export', exportMachine, {
  events: exportEvents,
  serialize: serializeExport,
  states: Object.keys(EXPORT_STATES),
  expectedEvents: [
    'DISMISS',
    'EXPORT',
    'xstate.done.actor.download',
    'xstate.done.actor.requestTicket',
    'xstate.error.actor.download',
    'xstate.error.actor.requestTicket',
  ],
  actors: ['requestTicket', 'download'],
  check: (s, e, _p, calls) => checkExportStep(s, e, calls.started, calls.waiting()),
});
