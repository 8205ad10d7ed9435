/**
 * Logic path tests of the customer dialog machine: every shortest path on a real actor whose
 * call is a fake settled by the steps. Each step checks the call's input (the row and the payload
 * a person submitted), that nothing is sent outside `submitting`, and that a success counts once.
 */
import { describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describePath, fakeCalls, runPath } from './harness';
import {
  EVENTS,
  REFUSAL,
  ROW,
  describeEvent,
  dialogMachine,
  serialize,
  type Event,
  type Snap,
} from './customers-model';

const paths = getShortestPaths(dialogMachine, {
  events: EVENTS,
  serializeState: (state) => serialize(state as Snap),
});

describe('customer dialog machine', () => {
  test('reaches every state', () => {
    const reached = new Set(paths.map((p) => String(p.state.value)));
    expect([...reached].sort()).toEqual(['closed', 'done', 'editing', 'failed', 'submitting']);
  });

  test.each(paths.map((path) => [describePath(path, describeEvent as never), path] as const))(
    '%s',
    async (_, path) => {
      const calls = fakeCalls();
      const actor = createActor(dialogMachine.provide({ actors: { submit: calls.logic() } }));
      let successes = 0;
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: Snap) => serialize(s),
        check: (snapshot: Snap, event: Event | null, previous: Snap | null) => {
          const state = String(snapshot.value);
          // A call is under way exactly while submitting, with the row and the submitted payload.
          expect(calls.waiting()).toEqual(state === 'submitting' ? ['submit'] : []);
          if (state === 'submitting') {
            expect(calls.started.at(-1)?.input).toEqual({
              target: snapshot.context.target,
              payload: { value: 'draft' },
            });
          }
          if ((event?.type as string | undefined) === 'xstate.done.actor.submit') successes += 1;
          expect(snapshot.context.completed).toBe(successes);
          // The failure keeps the server's sentence; a new opening forgets it.
          if (state === 'failed') expect(snapshot.context.error).toBe(REFUSAL.msg);
          if (event?.type === 'OPEN') {
            expect(snapshot.context.error).toBeNull();
            expect(snapshot.context.target).toBe(event.target);
          }
          // While the call is under way the dialog cannot be closed nor submitted again.
          if (state === 'submitting') {
            expect(snapshot.can({ type: 'CLOSE' })).toBe(false);
            expect(snapshot.can({ type: 'SUBMIT', payload: { value: 'again' } })).toBe(false);
          }
          // Retry sends the kept payload again; Back returns to the form without a call.
          if (previous && String(previous.value) === 'failed' && event?.type === 'BACK')
            expect(state).toBe('editing');
          if (state === 'done') expect(snapshot.context.result).toBe(ROW);
        },
      });
      actor.stop();
    },
  );
});
