/**
 * The test model of buying a recharge package (src/machines/recharge/buy.ts), shared by the logic
 * path tests (recharge-buy.test.ts) and the view path tests (recharge-buy-view.test.tsx): what a
 * person sees in each state, the events, the serialisation, and the rules written out again as
 * the oracle — an order is created only when the person asks (never by itself), checks run only
 * while the buyer pays (every POLL_MS or on "check now"), failed checks keep the polling going,
 * closing stops it, the time running out gives one last check.
 */
import { expect } from 'vitest';
import { createActor, fromCallback, type StateValue } from 'xstate';
import type {
  OrderCreateReply,
  RechargeOrder,
  RechargePackage,
} from '../../src/api/contract/recharge';
import {
  buyMachine,
  POLL_MS,
  STILL_CHECKING_AFTER,
  type BuyEvent,
  type BuySnapshot,
} from '../../src/machines/recharge/buy';
import { replyError } from './fixtures';
import { fakeCalls, type FakeCalls } from './harness';
import type { RechargeEndpoints } from '../../src/app/actors/recharge';
import { payPageUrl } from '../../src/api/recharge';

export type BuyState =
  | 'closed'
  | 'loading'
  | 'loadFailed'
  | 'noneOnSale'
  | 'choosing'
  | 'confirming'
  | 'creating'
  | 'createFailed'
  | 'paying.waiting'
  | 'paying.checking'
  | 'lastCheck'
  | 'paid'
  | 'expired';

/** The step the dialog shows and its footer buttons (the close button × aside). */
export interface BuySees {
  open: boolean;
  buttons: string[];
}

export const BUY_STATES: Record<BuyState, { tags: string[]; waitingFor: string[]; sees: BuySees }> =
  {
    closed: { tags: [], waitingFor: [], sees: { open: false, buttons: [] } },
    loading: {
      tags: ['open', 'loading'],
      waitingFor: ['loadPackages'],
      sees: { open: true, buttons: ['cancel'] },
    },
    loadFailed: {
      tags: ['open'],
      waitingFor: [],
      sees: { open: true, buttons: ['close', 'retry'] },
    },
    noneOnSale: {
      tags: ['open'],
      waitingFor: [],
      sees: { open: true, buttons: ['close', 'checkAgain'] },
    },
    choosing: { tags: ['open'], waitingFor: [], sees: { open: true, buttons: ['cancel', 'next'] } },
    confirming: {
      tags: ['open'],
      waitingFor: [],
      sees: { open: true, buttons: ['back', 'confirm'] },
    },
    creating: {
      tags: ['open', 'busy'],
      waitingFor: ['createOrder'],
      sees: { open: true, buttons: ['back', 'confirm'] },
    },
    createFailed: {
      tags: ['open'],
      waitingFor: [],
      sees: { open: true, buttons: ['back', 'retry'] },
    },
    'paying.waiting': {
      tags: ['open', 'paying'],
      waitingFor: [],
      sees: { open: true, buttons: ['close', 'checkNow'] },
    },
    'paying.checking': {
      tags: ['open', 'paying', 'checking'],
      waitingFor: ['checkOrder'],
      sees: { open: true, buttons: ['close', 'checkNow'] },
    },
    lastCheck: {
      tags: ['open', 'checking'],
      waitingFor: ['checkOrder'],
      sees: { open: true, buttons: ['close'] },
    },
    paid: { tags: ['open'], waitingFor: [], sees: { open: true, buttons: ['another', 'close'] } },
    expired: { tags: ['open'], waitingFor: [], sees: { open: true, buttons: ['again', 'close'] } },
  };

export const ALL_TAGS = ['open', 'loading', 'busy', 'paying', 'checking'];

export function stateKey(value: StateValue): BuyState {
  if (typeof value === 'string') return value as BuyState;
  const [key, child] = Object.entries(value)[0];
  return `${key}.${stateKey(child as StateValue)}` as BuyState;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export const PACKAGES: readonly RechargePackage[] = [
  {
    id: 2,
    name: 'Standard',
    price: '100.00',
    money: '100.00',
    gift_money: '10.00',
    sort: 1,
    status: 1,
    description: '100 and 10 more',
    created_at: Date.UTC(2026, 10, 1),
    updated_at: Date.UTC(2026, 10, 1),
  },
  {
    id: 1,
    name: 'Trial',
    price: '10.00',
    money: '10.00',
    gift_money: '0.00',
    sort: 2,
    status: 1,
    description: '',
    created_at: Date.UTC(2026, 10, 1),
    updated_at: Date.UTC(2026, 10, 1),
  },
];

const CREATED = Date.UTC(2026, 10, 22, 4, 0);

export const ORDER: OrderCreateReply = {
  order_no: 'RC26112200000042',
  package_name: 'Standard',
  amount: '100.00',
  money: '100.00',
  gift_money: '10.00',
  pay_way: 'sandbox',
  pay_status: 'pending',
  pay_url: '/api/v1/pay/sandbox/checkout?order_no=RC26112200000042&sign=abc',
  expires_at: CREATED + 30 * 60_000,
  created_at: CREATED,
};

function detail(status: RechargeOrder['pay_status']): RechargeOrder {
  return {
    id: 42,
    order_no: ORDER.order_no,
    user_id: 5,
    username: 'merchant',
    name: 'Morning shop',
    service_id: 2,
    package_id: 2,
    package_name: ORDER.package_name,
    amount: ORDER.amount,
    money: ORDER.money,
    gift_money: ORDER.gift_money,
    pay_way: 'sandbox',
    pay_status: status,
    transaction_id: status === 'paid' ? 'SBX-RC26112200000042' : null,
    paid_at: status === 'paid' ? CREATED + 60_000 : null,
    closed_at: status === 'closed' ? ORDER.expires_at : null,
    expires_at: ORDER.expires_at,
    created_at: CREATED,
  };
}

export const PENDING = detail('pending');
export const PAID = detail('paid');
export const CLOSED = detail('closed');

export const REFUSED = 'You have 10 unpaid orders: pay or wait for one to close';
export const refusal = () => replyError(REFUSED);
/** No reply at all: the server may or may not have made the order. */
export const lostReply = () => replyError('http.networkError', 'transport');

/** The URL the sandbox's pay_url becomes in the browser (jsdom's origin). */
export const PAY_PAGE = `${window.location.origin}${ORDER.pay_url}`;

// ---------------------------------------------------------------------------------------------
// The expiry timer: the test sends EXPIRED itself; this records when the timer runs.

export interface ExpiryProbe {
  running: boolean;
  inputs: unknown[];
}

export function expiryProbe() {
  const probe: ExpiryProbe = { running: false, inputs: [] };
  const logic = fromCallback<BuyEvent, OrderCreateReply>(({ input }) => {
    probe.running = true;
    probe.inputs.push(input);
    return () => {
      probe.running = false;
    };
  });
  return { probe, logic };
}

/** The buy machine with every call answered by the test and the expiry timer probed. */
export function makeBuyActor() {
  const calls = fakeCalls();
  const expiry = expiryProbe();
  const actor = createActor(
    buyMachine.provide({
      actors: {
        loadPackages: calls.logic(),
        createOrder: calls.logic(),
        checkOrder: calls.logic(),
        expiry: expiry.logic,
      },
    }),
  );
  return { calls, probe: expiry.probe, actor };
}

// ---------------------------------------------------------------------------------------------
// Events and serialisation

type ModelEvent = BuyEvent | { type: `xstate.${string}`; output?: unknown; error?: unknown };

export const POLL_EVENT = `xstate.after.${POLL_MS}.rechargeBuy.paying.waiting`;

export function buyEvents(snapshot: BuySnapshot): BuyEvent[] {
  const events: ModelEvent[] = [
    { type: 'OPEN' },
    { type: 'RETRY' },
    ...PACKAGES.map((pkg) => ({ type: 'CHOOSE' as const, pkg })),
    { type: 'BACK' },
    { type: 'SUBMIT' },
    { type: 'CHECK' },
    { type: 'EXPIRED' },
    { type: 'AGAIN' },
    { type: 'CLOSE' },
    { type: POLL_EVENT as `xstate.${string}` },
  ];
  const state = stateKey(snapshot.value);
  if (state === 'loading') {
    events.push(
      { type: 'xstate.done.actor.loadPackages', output: PACKAGES },
      { type: 'xstate.done.actor.loadPackages', output: [] },
      { type: 'xstate.error.actor.loadPackages', error: lostReply() },
    );
  }
  if (state === 'creating') {
    events.push(
      { type: 'xstate.done.actor.createOrder', output: ORDER },
      { type: 'xstate.error.actor.createOrder', error: refusal() },
      { type: 'xstate.error.actor.createOrder', error: lostReply() },
    );
  }
  if (state === 'paying.checking' || state === 'lastCheck') {
    events.push(
      { type: 'xstate.done.actor.checkOrder', output: PENDING },
      { type: 'xstate.done.actor.checkOrder', output: PAID },
      { type: 'xstate.done.actor.checkOrder', output: CLOSED },
      { type: 'xstate.error.actor.checkOrder', error: lostReply() },
    );
  }
  // Only what the state handles (plus the outcome of its call): an ignored event would look like
  // another way into the same state.
  return (events as BuyEvent[]).filter(
    (event) =>
      (event.type.startsWith('xstate.') && !event.type.startsWith('xstate.after')) ||
      snapshot.can(event),
  );
}

export function describeBuyEvent(event: {
  type: string;
  output?: unknown;
  error?: unknown;
  pkg?: RechargePackage;
}): string {
  if (event.type === POLL_EVENT) return `after ${POLL_MS} ms`;
  if (event.type === 'CHOOSE') return `CHOOSE ${event.pkg?.name}`;
  const m = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  if (!m) return event.type;
  if (m[1] === 'error') {
    return `${m[2]}: ${(event.error as { kind: string }).kind === 'reply' ? 'refused' : 'no reply'}`;
  }
  const output = event.output as { pay_status?: string } | unknown[];
  if (Array.isArray(output)) return `${m[2]}: ${output.length} packages`;
  return `${m[2]}: ${(output as { pay_status?: string }).pay_status ?? 'done'}`;
}

/**
 * State + the flags that change what a person sees or what happens next + the event that led in
 * and the state it came from (the traversal passes it; a running path does not, so both sides of
 * its comparison leave it out), so that every transition is a vertex of its own and the shortest
 * paths take every transition once.
 */
export function serializeBuy(
  snapshot: BuySnapshot,
  event?: { type: string },
  from?: BuySnapshot,
): string {
  const c = snapshot.context;
  const state = stateKey(snapshot.value);
  const flags: Record<string, unknown> = { state, via: event?.type ?? 'init' };
  if (from) flags.from = stateKey(from.value);
  if (state === 'confirming') flags.chosen = c.chosen?.id ?? null;
  if (state === 'createFailed') flags.uncertain = c.uncertain;
  if (state === 'expired') flags.seen = c.seen?.pay_status ?? null;
  if (state.startsWith('paying')) {
    Object.assign(flags, {
      failures: Math.min(c.pollFailures, STILL_CHECKING_AFTER),
      notPaidYet: c.notPaidYet,
      byHand: c.byHand,
    });
  }
  return JSON.stringify(flags);
}

// ---------------------------------------------------------------------------------------------
// The oracle of one step

/** The calls a step starts: loading the packages, making the order, or one check. */
function callsStartedBy(state: BuyState, previous: BuyState | null): string[] {
  // "Check now" while a check is under way waits for that one: no second check.
  if (state === previous) return [];
  if (state === 'loading') return ['loadPackages'];
  if (state === 'creating') return ['createOrder'];
  if (state === 'paying.checking' || state === 'lastCheck') return ['checkOrder'];
  return [];
}

/** Per path: how many calls had started at the last step. */
export interface CallLog {
  count: number;
}

export function checkBuyStep(
  snapshot: BuySnapshot,
  event: { type: string; pkg?: RechargePackage; output?: unknown } | null,
  previous: BuySnapshot | null,
  started: { id: string; input: unknown }[],
  waiting: string[],
  expiry: ExpiryProbe,
  log: CallLog,
) {
  const state = stateKey(snapshot.value);
  const row = BUY_STATES[state];
  expect(row, `no row for ${state}`).toBeDefined();
  expect(ALL_TAGS.filter((tag) => snapshot.hasTag(tag))).toEqual(row.tags);
  expect(waiting).toEqual(row.waitingFor);
  const c = snapshot.context;
  const before = previous?.context;

  // Exactly the calls this step is meant to start, and no other: above all, no order is made
  // but by the person's SUBMIT or RETRY, and no check runs but while paying.
  const fresh = started.slice(log.count).map((call) => call.id);
  log.count = started.length;
  expect(fresh).toEqual(callsStartedBy(state, previous ? stateKey(previous.value) : null));

  // The expiry timer runs exactly while the buyer pays, for the order being paid.
  expect(expiry.running).toBe(state.startsWith('paying'));
  if (state.startsWith('paying')) expect(expiry.inputs.at(-1)).toBe(c.order);

  if (state === 'loading') {
    expect(started.at(-1)?.id).toBe('loadPackages');
    if (event?.type === 'OPEN' || event?.type === 'AGAIN') {
      // A fresh start: nothing of the last order is kept (but the count of orders paid).
      expect([c.packages, c.chosen, c.order, c.seen, c.error]).toEqual([
        [],
        null,
        null,
        null,
        null,
      ]);
      expect([c.uncertain, c.pollFailures, c.notPaidYet]).toEqual([false, 0, false]);
    }
  }
  if (state === 'loadFailed') expect(c.error).toBe('http.networkError');
  if (state === 'noneOnSale') expect(c.packages).toEqual([]);
  if (state === 'choosing') expect(c.packages).toEqual(PACKAGES);
  if (state === 'confirming' && event?.type === 'CHOOSE') expect(c.chosen).toBe(event.pkg);
  if (state === 'creating') {
    // An order is made only when the person asks for one: confirming it, or Retry.
    expect(['SUBMIT', 'RETRY']).toContain(event?.type);
    expect(started.at(-1)).toEqual({ id: 'createOrder', input: c.chosen?.id });
    expect([c.error, c.uncertain]).toEqual([null, false]);
  }
  if (state === 'createFailed') {
    expect(c.error).toBe(c.uncertain ? 'http.networkError' : REFUSED);
    expect(c.order).toBeNull();
    // Nothing makes an order again but the person: no call is under way, no timer is set.
    expect(snapshot.can({ type: 'RETRY' })).toBe(true);
  }
  if (state.startsWith('paying')) {
    expect(c.order).toEqual(ORDER);
    if (previous && !stateKey(previous.value).startsWith('paying')) {
      expect([c.seen, c.pollFailures, c.notPaidYet]).toEqual([null, 0, false]);
    }
  }
  if (state === 'paying.checking') {
    // A check runs after POLL_MS of waiting or when the person asks; it asks about this order.
    expect([POLL_EVENT, 'CHECK']).toContain(event?.type);
    expect(started.at(-1)).toEqual({ id: 'checkOrder', input: ORDER.order_no });
    expect(c.byHand).toBe(event?.type === 'CHECK');
    if (event?.type === 'CHECK') expect(c.notPaidYet).toBe(false);
  }
  if (state === 'paying.waiting' && event?.type === 'xstate.error.actor.checkOrder') {
    // A failed check keeps the polling going and is counted.
    expect(c.pollFailures).toBe((before?.pollFailures ?? 0) + 1);
    expect(c.notPaidYet).toBe(before?.notPaidYet);
  }
  if (state === 'paying.waiting' && event?.type === 'xstate.done.actor.checkOrder') {
    expect(c.seen).toEqual(PENDING);
    expect(c.pollFailures).toBe(0);
    // "Not paid yet" answers the person's own check only.
    expect(c.notPaidYet).toBe(Boolean(before?.byHand || before?.notPaidYet));
  }
  if (state === 'lastCheck') {
    expect(event?.type).toBe('EXPIRED');
    expect(started.at(-1)).toEqual({ id: 'checkOrder', input: ORDER.order_no });
  }
  if (state === 'paid') {
    expect(c.seen).toEqual(PAID);
    expect(c.paid).toBe((before?.paid ?? 0) + 1);
  } else if (previous) {
    expect(c.paid).toBe(before?.paid);
  }
  if (state === 'expired') {
    // Closed by the server, or the time ran out and the last check did not see it paid.
    expect(c.seen === null || c.seen.pay_status !== 'paid').toBe(true);
    if (stateKey(previous!.value).startsWith('paying')) expect(c.seen).toEqual(CLOSED);
  }
  // While the order is being made the dialog stays open; else it can always be closed.
  expect(snapshot.can({ type: 'CLOSE' })).toBe(state !== 'creating' && state !== 'closed');
}

/**
 * The recharge area's endpoints as fakes named like the buy machine's calls (`loadPackages`,
 * `createOrder` with the package id, `checkOrder` with the order number), settled by the test;
 * every other endpoint never answers.
 */
export function fakeRechargeEndpoints(calls: FakeCalls): RechargeEndpoints {
  const never = () => new Promise<never>(() => {});
  return {
    getPackages: (query, options) =>
      calls
        .endpoint<(q: unknown, o: unknown) => Promise<RechargePackage[]>>('loadPackages')(
          query,
          options,
        )
        .then((list) => ({ list, total: list.length })),
    createOrder: (body, options) =>
      calls.endpoint<(id: unknown, o: unknown) => Promise<OrderCreateReply>>('createOrder')(
        body.package_id,
        options,
      ),
    getOrder: calls.endpoint('checkOrder'),
    getOrders: never,
    addPackage: never,
    editPackage: never,
    deletePackage: never,
    setPackageStatus: never,
    sortPackages: never,
    payPageUrl,
  };
}
