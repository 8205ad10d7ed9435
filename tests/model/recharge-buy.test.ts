/**
 * Model-based path tests of buying a recharge package (src/machines/recharge/buy.ts): every
 * shortest path runs on a real actor whose calls are fakes settled by the steps, whose polling
 * delay runs on fake timers and whose expiry timer is a probe (the path sends EXPIRED); each step
 * checks what the state promises (recharge-buy-model.ts). Then what the paths cannot show: that
 * nothing runs after the dialog closed, and that the real expiry timer uses the order's own time.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import {
  POLL_MS,
  STILL_CHECKING_AFTER,
  buyMachine,
  timeToPay,
  type BuySnapshot,
} from '../../src/machines/recharge/buy';
import { createAreaRegistry } from '../../src/app/actors/areas';
import { rechargeArea } from '../../src/app/actors/recharge';
import { describePath, fakeCalls, runPath } from './harness';
import {
  BUY_STATES,
  ORDER,
  PACKAGES,
  PENDING,
  POLL_EVENT,
  buyEvents,
  checkBuyStep,
  describeBuyEvent,
  fakeRechargeEndpoints,
  makeBuyActor,
  lostReply,
  serializeBuy,
  stateKey,
  type CallLog,
} from './recharge-buy-model';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const reached = new Set<string>();
const traversal = {
  events: buyEvents,
  serializeState: (state: BuySnapshot, event?: { type: string }, from?: BuySnapshot) =>
    serializeBuy(state, event, from),
};
const paths = getShortestPaths(buyMachine, traversal);

/** "from —event→ to" of a step. */
const edge = (from: BuySnapshot, event: { type: string }, to: BuySnapshot) =>
  `${stateKey(from.value)} —${describeBuyEvent(event)}→ ${stateKey(to.value)}`;

describe('buying a recharge package', () => {
  test('the model has paths through every event and every outcome', () => {
    const types = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)));
    expect([...types].sort()).toEqual(
      [
        'AGAIN',
        'BACK',
        'CHECK',
        'CHOOSE',
        'CLOSE',
        'EXPIRED',
        'OPEN',
        'RETRY',
        'SUBMIT',
        POLL_EVENT,
        'xstate.done.actor.checkOrder',
        'xstate.done.actor.createOrder',
        'xstate.done.actor.loadPackages',
        'xstate.error.actor.checkOrder',
        'xstate.error.actor.createOrder',
        'xstate.error.actor.loadPackages',
      ].sort(),
    );
    // "Still checking" is reached: STILL_CHECKING_AFTER failed checks in a row.
    expect(
      paths.some((p) => p.steps.some((s) => s.state.context.pollFailures >= STILL_CHECKING_AFTER)),
    ).toBe(true);
  });

  test('the paths take every transition of the machine', () => {
    const all = adjacencyMapToArray(getAdjacencyMap(buyMachine, traversal)).map((t) =>
      edge(t.state, t.event, t.nextState),
    );
    const taken = paths.flatMap((p) =>
      p.steps.slice(1).map((s, i) => edge(p.steps[i].state, s.event, s.state)),
    );
    expect(new Set(taken)).toEqual(new Set(all));
  });

  test.each(paths.map((path) => [describePath(path, describeBuyEvent), path] as const))(
    '%s',
    async (_, path) => {
      const { calls, probe, actor } = makeBuyActor();
      const log: CallLog = { count: 0 };
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: BuySnapshot, e?: { type: string }) => serializeBuy(s, e),
        check: (snapshot, event, previous) => {
          reached.add(stateKey(snapshot.value));
          checkBuyStep(snapshot, event, previous, calls.started, calls.waiting(), probe, log);
        },
      });
      actor.stop();
    },
  );
});

describe('buying a recharge package, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(BUY_STATES).sort());
  });

  /** Opens the dialog, picks the first package and creates its order: now paying. */
  async function paying() {
    const made = makeBuyActor();
    const { calls, actor } = made;
    actor.start();
    actor.send({ type: 'OPEN' });
    calls.settle('loadPackages', 'done', PACKAGES);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CHOOSE', pkg: PACKAGES[0] });
    actor.send({ type: 'SUBMIT' });
    calls.settle('createOrder', 'done', ORDER);
    await vi.advanceTimersByTimeAsync(0);
    expect(stateKey(actor.getSnapshot().value)).toBe('paying.waiting');
    return made;
  }

  const checks = (started: { id: string }[]) => started.filter((c) => c.id === 'checkOrder');

  test('while the buyer pays the order is checked every POLL_MS, failures and all', async () => {
    const { calls, actor } = await paying();
    for (let i = 1; i <= STILL_CHECKING_AFTER + 2; i++) {
      await vi.advanceTimersByTimeAsync(POLL_MS);
      expect(checks(calls.started)).toHaveLength(i);
      // Odd checks fail (no reply), even ones answer "pending": the polling goes on regardless.
      if (i % 2) calls.settle('checkOrder', 'error', lostReply());
      else calls.settle('checkOrder', 'done', PENDING);
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().context.pollFailures).toBe(i % 2);
    }
    actor.stop();
  });

  test('closing while the buyer pays stops the checks and the expiry timer', async () => {
    const { calls, probe, actor } = await paying();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(checks(calls.started)).toHaveLength(1);
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('closed');
    // The check under way is dropped (its request aborted) and no other starts.
    expect(calls.waiting()).toEqual([]);
    expect(probe.running).toBe(false);
    await vi.advanceTimersByTimeAsync(POLL_MS * 20);
    expect(checks(calls.started)).toHaveLength(1);
    actor.stop();
  });

  test('a failed create is never tried again by itself', async () => {
    const { calls, actor } = makeBuyActor();
    actor.start();
    actor.send({ type: 'OPEN' });
    calls.settle('loadPackages', 'done', PACKAGES);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CHOOSE', pkg: PACKAGES[1] });
    actor.send({ type: 'SUBMIT' });
    calls.settle('createOrder', 'error', lostReply());
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(actor.getSnapshot().value).toBe('createFailed');
    expect(calls.started.filter((c) => c.id === 'createOrder')).toHaveLength(1);
    actor.stop();
  });

  test('the real expiry timer fires after the order’s own time to pay, whatever the clock', async () => {
    // The browser's clock is a day off: the order's own created → expires span still counts.
    vi.setSystemTime(ORDER.created_at + 24 * 3600_000);
    expect(timeToPay(ORDER)).toBe(30 * 60_000);
    // The recharge area's buy actor, its real expiry timer, the endpoints fakes.
    const calls = fakeCalls();
    const areas = createAreaRegistry();
    areas.provide(rechargeArea, fakeRechargeEndpoints(calls));
    const actor = areas.get(rechargeArea).buy;
    actor.send({ type: 'OPEN' });
    calls.settle('loadPackages', 'done', PACKAGES);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CHOOSE', pkg: PACKAGES[0] });
    actor.send({ type: 'SUBMIT' });
    calls.settle('createOrder', 'done', ORDER);
    await vi.advanceTimersByTimeAsync(0);
    // Answer every check "pending" until the time is up.
    let elapsed = 0;
    while (elapsed < timeToPay(ORDER) - POLL_MS) {
      await vi.advanceTimersByTimeAsync(POLL_MS);
      elapsed += POLL_MS;
      calls.settle('checkOrder', 'done', PENDING);
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(stateKey(actor.getSnapshot().value)).toMatch(/^paying/);
    await vi.advanceTimersByTimeAsync(timeToPay(ORDER) - elapsed);
    // Time's up: one last check is under way (any poll check was replaced by it).
    expect(actor.getSnapshot().value).toBe('lastCheck');
    expect(calls.waiting()).toEqual(['checkOrder']);
    calls.settle('checkOrder', 'done', { ...PENDING, pay_status: 'closed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('expired');
    areas.reset();
    expect(actor.getSnapshot().status).toBe('stopped');
  });
});
