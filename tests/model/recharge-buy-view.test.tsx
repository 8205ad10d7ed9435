/**
 * Buying a recharge package (src/machines/recharge/buy.ts) through the property page's Recharge
 * button and its dialog, against a hand-written oracle: the machine's shortest paths
 * only propose event sequences; each step is a click, time passing (the poll, the order's time to
 * pay, on fake timers) or a fake endpoint of the recharge area settling (`provideArea`), and the
 * state expected after it comes from the table below. After each step the test checks what a
 * person sees, and the row's side effects: the money area's and the orders list's reloads after a
 * payment, the notice when the dialog was closed while the order was watched (docs/decisions.md
 * "Recharge: the order is watched after the dialog closes").
 */
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { Account } from '../../src/api/contract/dashboard';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { moneyArea } from '../../src/app/actors/money';
import { rechargeArea } from '../../src/app/actors/recharge';
import { formatDateTime } from '../../src/components/dates';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import {
  POLL_MS,
  STILL_CHECKING_AFTER,
  buyMachine,
  timeToPay,
  type BuyEvent,
  type BuySnapshot,
} from '../../src/machines/recharge/buy';
import { RechargeBuy } from '../../src/views/account/recharge-dialog';
import {
  CLOSED,
  ORDER,
  PACKAGES,
  PAID,
  PAY_PAGE,
  PENDING,
  REFUSED,
  fakeRechargeEndpoints,
  lostReply,
  refusal,
} from './recharge-fixtures';
import { fakeMoneyEndpoints } from './money-paths';
import { fakeEndpoints, person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, BRANDING, isOpen, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];
const fill = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));
const MONEY = BRANDING.money_name;
const money = (amount: string) => `${amount} ${MONEY}`;

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §6 (an unpaid order closes after 30 minutes; the balance is
// credited by the server), the buy machine's rules as docs/domain.md §6 states them (an order is made
// only when the person confirms or retries; checks every POLL_MS while the order awaits payment;
// "check now"; a failed check keeps the polling going and, after STILL_CHECKING_AFTER in a row,
// says so; the time running out gives one last check), and the rule that closing the dialog keeps
// the order watched ("watching") until it is paid or closed, then a notice says how it ended;
// opening the dialog shows the order as it stands; "Choose another package" leaves it.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'loading',
  'loading packages: 2': 'choosing',
  'loading packages: none': 'none on sale',
  'loading packages: no reply': 'load failed',
  'loading CLOSE': 'closed',
  'load failed RETRY': 'loading',
  'load failed CLOSE': 'closed',
  'none on sale RETRY': 'loading',
  'none on sale CLOSE': 'closed',
  'choosing CHOOSE Standard': 'confirming',
  'choosing CLOSE': 'closed',
  'confirming BACK': 'choosing',
  'confirming SUBMIT': 'creating',
  'confirming CLOSE': 'closed',
  'creating create: done': 'paying',
  'creating create: refused': 'create refused',
  'creating create: no reply': 'create lost',
  // Never made again by itself: only Retry (the call has no idempotency key).
  'create refused RETRY': 'creating',
  'create refused BACK': 'choosing',
  'create refused CLOSE': 'closed',
  'create lost RETRY': 'creating',
  'create lost BACK': 'choosing',
  'create lost CLOSE': 'closed',

  // The order awaits payment, the dialog shows it.
  'paying poll': 'checking',
  'paying CHECK': 'checking by hand',
  'paying CLOSE': 'watching',
  'paying AGAIN': 'loading',
  'paying EXPIRED': 'last check',
  'checking check: pending': 'paying',
  'checking check: no reply': 'paying, 1 failed',
  'checking check: paid': 'paid',
  'checking check: closed': 'expired',
  'checking CHECK': 'checking by hand',
  'checking CLOSE': 'watching, checking',
  // "Not paid yet" answers the person's own check only, and stays until their next one.
  'checking by hand check: pending': 'paying, not paid yet',
  'checking by hand check: no reply': 'paying, 1 failed',
  'checking by hand check: paid': 'paid',
  'checking by hand check: closed': 'expired',
  'paying, not paid yet poll': 'checking, not paid yet',
  'paying, not paid yet CHECK': 'checking by hand',
  'paying, not paid yet CLOSE': 'watching, not paid yet',
  'checking, not paid yet check: pending': 'paying, not paid yet',
  'checking, not paid yet CHECK': 'checking by hand',
  // Failed checks in a row; an answer starts the count again.
  'paying, 1 failed poll': 'checking, 1 failed',
  'checking, 1 failed check: no reply': 'paying, 2 failed',
  'checking, 1 failed check: pending': 'paying',
  'paying, 2 failed poll': 'checking, 2 failed',
  'checking, 2 failed check: no reply': 'paying, still checking',
  'paying, still checking poll': 'checking, still checking',
  'checking, still checking check: no reply': 'paying, still checking',
  'checking, still checking check: pending': 'paying',
  'paying, still checking CLOSE': 'watching, still checking',

  // The dialog closed: the order is still watched, and shown as it stands when opened again.
  'watching OPEN': 'paying',
  'watching poll': 'watching, checking',
  'watching EXPIRED': 'last check, watching',
  'watching, checking OPEN': 'checking',
  'watching, checking check: pending': 'watching',
  'watching, checking check: paid': 'closed, told paid',
  'watching, checking check: closed': 'closed, told closed',
  'watching, not paid yet OPEN': 'paying, not paid yet',
  'watching, still checking OPEN': 'paying, still checking',

  // The time to pay is up: one last check, then paid or closed.
  'last check check: paid': 'paid',
  'last check check: pending': 'expired',
  'last check check: closed': 'expired',
  'last check check: no reply': 'expired',
  'last check CLOSE': 'last check, watching',
  'last check, watching OPEN': 'last check',
  'last check, watching check: paid': 'closed, told paid',
  'last check, watching check: closed': 'closed, told closed',
  'last check, watching check: no reply': 'closed, told closed',

  'paid AGAIN': 'loading',
  'paid CLOSE': 'closed',
  'expired AGAIN': 'loading',
  'expired CLOSE': 'closed',
  // After a notice the next purchase starts afresh.
  'closed, told paid OPEN': 'loading',
  'closed, told closed OPEN': 'loading',
};

/**
 * What follows a row besides the state (a row not listed has none): the calls it makes (the
 * packages, an order — only when the person confirms or retries —, a check of the order), the
 * reloads after a payment (the money area's balances, the person's orders) and the notice when
 * the dialog was closed.
 */
const PACKAGES_ASKED = 'packages asked';
const ORDER_ASKED = 'order asked';
const CHECK_ASKED = 'check asked';
const RELOADS = ['balances reloaded', 'orders reloaded'];
const PAID_NOTICE = `notice: ${fill('buy.paidNotice', { orderNo: ORDER.order_no })}`;
const CLOSED_NOTICE = `notice: ${fill('buy.closedNotice', { orderNo: ORDER.order_no })}`;
function effectsOf(row: string, target: string): string[] {
  const [, source, event] = /^(.*) (\S+)$/.exec(row)!;
  const effects: string[] = [];
  if (target === 'loading') effects.push(PACKAGES_ASKED);
  if (target === 'creating') effects.push(ORDER_ASKED);
  if (event === 'poll') effects.push(CHECK_ASKED);
  // "Check now" while a check is under way waits for that one.
  if (event === 'CHECK' && !source.startsWith('checking')) effects.push(CHECK_ASKED);
  // The time to pay passes: the next poll's check (left unanswered), then the last check.
  if (event === 'EXPIRED') effects.push(CHECK_ASKED, CHECK_ASKED);
  if (target === 'paid') effects.push(...RELOADS);
  if (target === 'closed, told paid') effects.push(...RELOADS, PAID_NOTICE);
  if (target === 'closed, told closed') effects.push(CLOSED_NOTICE);
  return effects.sort();
}
const EFFECTS: Record<string, string[]> = Object.fromEntries(
  Object.entries(TRANSITIONS).map(([row, target]) => [row, effectsOf(row, target)]),
);

// ---------------------------------------------------------------------------------------------
// The machine's events, named as the table names them.

const POLL = `xstate.after.${POLL_MS}.rechargeBuy.paying.order.waiting`;
type PathEvent = BuyEvent | { type: string; output?: unknown; error?: unknown };

const EVENTS: PathEvent[] = [
  { type: 'OPEN' },
  { type: 'RETRY' },
  { type: 'CHOOSE', pkg: PACKAGES[0] },
  { type: 'BACK' },
  { type: 'SUBMIT' },
  { type: 'CHECK' },
  { type: 'EXPIRED' },
  { type: 'AGAIN' },
  { type: 'CLOSE' },
  { type: POLL },
  { type: 'xstate.done.actor.loadPackages', output: PACKAGES },
  { type: 'xstate.done.actor.loadPackages', output: [] },
  { type: 'xstate.error.actor.loadPackages', error: lostReply() },
  { type: 'xstate.done.actor.createOrder', output: ORDER },
  { type: 'xstate.error.actor.createOrder', error: refusal() },
  { type: 'xstate.error.actor.createOrder', error: lostReply() },
  { type: 'xstate.done.actor.checkOrder', output: PENDING },
  { type: 'xstate.done.actor.checkOrder', output: PAID },
  { type: 'xstate.done.actor.checkOrder', output: CLOSED },
  { type: 'xstate.error.actor.checkOrder', error: lostReply() },
];

const CALL: Record<string, string> = {
  loadPackages: 'packages',
  createOrder: 'create',
  checkOrder: 'check',
};

function label(event: PathEvent): string {
  if (event.type === POLL) return 'poll';
  if (event.type === 'CHOOSE') return `CHOOSE ${(event as { pkg: { name: string } }).pkg.name}`;
  const m = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  if (!m) return event.type;
  const call = CALL[m[2]];
  if (m[1] === 'error') {
    return `${call}: ${(event as { error: { kind: string } }).error.kind === 'reply' ? 'refused' : 'no reply'}`;
  }
  const output = (event as { output: unknown }).output;
  if (Array.isArray(output)) return `${call}: ${output.length === 0 ? 'none' : output.length}`;
  if (call === 'create') return 'create: done';
  return `${call}: ${(output as { pay_status: string }).pay_status}`;
}

/**
 * The machine's state under the table's names: used to check each step (`actual`) and to keep
 * the proposed paths within the table (an event is proposed where the table has its row).
 */
function nameOf(s: BuySnapshot, notice: string | null = null): string {
  const c = s.context;
  if (typeof s.value === 'string') {
    switch (s.value) {
      case 'closed':
        return notice ? `closed, told ${notice}` : 'closed';
      case 'loadFailed':
        return 'load failed';
      case 'noneOnSale':
        return 'none on sale';
      case 'createFailed':
        return c.uncertain ? 'create lost' : 'create refused';
      default:
        return s.value;
    }
  }
  const watching = s.hasTag('watching');
  if (s.matches({ paying: { order: 'lastCheck' } })) {
    return watching ? 'last check, watching' : 'last check';
  }
  const checking = s.matches({ paying: { order: 'checking' } });
  const failed =
    c.pollFailures >= STILL_CHECKING_AFTER
      ? 'still checking'
      : c.pollFailures > 0
        ? `${c.pollFailures} failed`
        : null;
  const flags = [c.notPaidYet ? 'not paid yet' : null, failed].filter(Boolean);
  if (watching)
    return ['watching', checking ? 'checking' : null, ...flags].filter(Boolean).join(', ');
  if (checking && c.byHand) return 'checking by hand';
  return [checking ? 'checking' : 'paying', ...flags].join(', ');
}

const inTable = (s: BuySnapshot, event: PathEvent) =>
  `${nameOf(s)} ${label(event)}` in TRANSITIONS ||
  // The notice is not in the snapshot: 'closed, told …' rows are proposed from 'closed'.
  (s.value === 'closed' && event.type === 'OPEN');

// ---------------------------------------------------------------------------------------------

function setup() {
  const endpoints = fakeEndpoints();
  const actors = appActors({});
  const reloads: string[] = [];
  provideArea(
    actors,
    rechargeArea,
    fakeRechargeEndpoints(endpoints, {
      getOrders: async () => {
        reloads.push('orders reloaded');
        return { list: [], total: 0 };
      },
    }),
  );
  provideArea(
    actors,
    moneyArea,
    fakeMoneyEndpoints({
      getAccount: async () => {
        reloads.push('balances reloaded');
        return {} as Account;
      },
    }),
  );
  const areas = areasOf(actors);
  const buy = areas.get(rechargeArea).buy;
  // The property page shows the balances and the person's orders: they reload after a payment.
  void areas.get(moneyArea).account;
  void areas.get(rechargeArea).myOrders;
  let notice: string | null = null;
  buy.on('notice', (e) => (notice = e.outcome));
  renderAt(actors, <RechargeBuy />, '/account/property');
  const user = person();
  const seenToasts = new WeakSet<Element>();
  const toasts = () => [...document.querySelectorAll('[data-scope="toast"][data-part="root"]')];
  return {
    endpoints,
    actors,
    buy,
    user,
    actual: () => {
      const name = nameOf(buy.getSnapshot(), notice);
      if (buy.getSnapshot().value !== 'closed') notice = null;
      return name;
    },
    take: () => {
      const fresh = toasts().filter((t) => !seenToasts.has(t));
      fresh.forEach((t) => seenToasts.add(t));
      const calls = endpoints.calls.splice(0).map((c) => {
        if (c.name === 'getPackages') return PACKAGES_ASKED;
        if (c.name === 'createOrder') {
          // The order made is the package confirmed, paid by the sandbox.
          expect(c.input).toEqual([{ package_id: 2, pay_way: 'sandbox' }, expect.anything()]);
          return ORDER_ASKED;
        }
        expect(c).toEqual({ name: 'getOrder', input: [ORDER.order_no, expect.anything()] });
        return CHECK_ASKED;
      });
      const notices = fresh.map((t) => `notice: ${t.textContent}`);
      return [...calls, ...reloads.splice(0), ...notices].sort();
    },
  };
}
type World = ReturnType<typeof setup>;

/** The one open dialog (null when none is). */
function openDialog() {
  const open = screen.queryAllByRole('dialog').filter(isOpen);
  expect(open.length).toBeLessThanOrEqual(1);
  if (open.length === 0) return null;
  within(open[0]).getByRole('heading', { name: text('buy.title') });
  return within(open[0]);
}
type Dialog = NonNullable<ReturnType<typeof openDialog>>;

const isCloseX = (b: HTMLElement) => b.getAttribute('data-part') === 'close-trigger';
const footer = (d: Dialog) =>
  d
    .getAllByRole('button')
    .filter((b) => !isCloseX(b))
    .map((b) => b.textContent ?? '');

function summaryValues(d: Dialog, name: MessageId): string[] {
  const group = d.getByRole('group', { name: text(name) });
  return within(group)
    .getAllByRole('definition')
    .map((el) => el.textContent ?? '');
}

function description(el: HTMLElement): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const STANDARD_SUMMARY = ['Standard', '¥100.00', money('100.00'), money('10.00'), money('110.00')];

/** What a person sees in each state of the table. */
function sees(state: string): void {
  const d = openDialog();
  if (state.startsWith('closed') || state.includes('watching')) {
    expect(d).toBeNull();
    screen.getByRole('button', { name: text('buy.open') });
    return;
  }
  expect(d).not.toBeNull();
  const dialog = d!;
  const buttons = (...ids: MessageId[]) => expect(footer(dialog)).toEqual(ids.map(text));
  const closeX = dialog.getAllByRole('button').find(isCloseX)!;
  // The × closes whenever the dialog may close: not while the order is being made.
  expect(closeX.hasAttribute('disabled')).toBe(state === 'creating');
  const status = () => dialog.getByRole('status').textContent;
  switch (state) {
    case 'loading':
      buttons('form.cancel');
      expect(status()).toBe(text('buy.loading'));
      return;
    case 'load failed':
      buttons('form.close', 'property.retry');
      expect(dialog.getByRole('alert').textContent).toContain(text('http.networkError'));
      return;
    case 'none on sale':
      buttons('form.close', 'buy.checkAgain');
      expect(status()).toBe(text('buy.noneOnSale'));
      return;
    case 'choosing': {
      buttons('form.cancel', 'property.next');
      const group = dialog.getByRole('group', { name: text('buy.packages') });
      expect(within(group).getAllByRole('radio')).toHaveLength(PACKAGES.length);
      // Each radio is named by its package; what it costs and credits is its description.
      expect(description(within(group).getByRole('radio', { name: 'Standard' }))).toBe(
        fill('buy.optionTextGift', {
          price: '100.00',
          money: '100.00',
          gift: '10.00',
          total: '110.00',
          moneyName: MONEY,
        }),
      );
      expect(description(within(group).getByRole('radio', { name: 'Trial' }))).toBe(
        fill('buy.optionText', { price: '10.00', money: '10.00', moneyName: MONEY }),
      );
      return;
    }
    case 'confirming':
    case 'creating': {
      buttons('property.back', 'buy.confirm');
      dialog.getByText(text('buy.confirmText'));
      dialog.getByText(text('buy.testPayment'));
      expect(summaryValues(dialog, 'buy.package')).toEqual(STANDARD_SUMMARY);
      const busy = state === 'creating';
      const confirm = dialog.getByRole('button', { name: text('buy.confirm') });
      expect(confirm.getAttribute('aria-busy')).toBe(String(busy));
      const back = dialog.getByRole('button', { name: text('property.back') });
      expect(back.hasAttribute('disabled')).toBe(busy);
      return;
    }
    case 'create refused':
    case 'create lost': {
      buttons('property.back', 'property.retry');
      expect(summaryValues(dialog, 'buy.package')).toEqual(STANDARD_SUMMARY);
      const alert = dialog.getByRole('alert').textContent ?? '';
      const lost = state === 'create lost';
      expect(alert).toContain(lost ? text('http.networkError') : REFUSED);
      // A lost reply: an order may exist; it costs nothing unpaid and closes by itself.
      expect(alert.includes(text('buy.uncertain'))).toBe(lost);
      return;
    }
    case 'last check':
      buttons('form.close');
      expect(status()).toBe(text('buy.lastCheck'));
      expect(dialog.queryByRole('link')).toBeNull();
      return;
    case 'paid':
      buttons('buy.another', 'form.close');
      expect(status()).toBe(text('buy.paid'));
      dialog.getByText(text('buy.paidText'));
      expect(summaryValues(dialog, 'buy.paid')).toEqual([
        PAID.order_no,
        PAID.package_name,
        '¥100.00',
        money('100.00'),
        money('10.00'),
        money('110.00'),
      ]);
      return;
    case 'expired':
      buttons('buy.again', 'form.close');
      expect(status()).toBe(text('buy.expired'));
      dialog.getByText(text('buy.expiredText'));
      expect(dialog.queryByRole('link')).toBeNull();
      return;
  }
  // The order awaiting payment: 'paying…' and 'checking…'.
  expect(state).toMatch(/^(paying|checking)/);
  buttons('form.close', 'buy.otherPackage', 'buy.checkNow');
  expect(summaryValues(dialog, 'buy.order')).toEqual([
    ORDER.order_no,
    ORDER.package_name,
    '¥100.00',
    formatDateTime(ORDER.expires_at),
  ]);
  dialog.getByText(text('buy.testPayment'));
  // A real link to the absolute payment page (with the console's time zone), in a new tab.
  const link = dialog.getByRole('link', { name: text('buy.goPay') });
  const payPage = new URL(PAY_PAGE);
  payPage.searchParams.set('tz', Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(link.getAttribute('href')).toBe(payPage.toString());
  expect(link.getAttribute('target')).toBe('_blank');
  expect(link.getAttribute('rel')).toBe('noopener');
  const said = status() ?? '';
  expect(said).toContain(text('buy.waiting'));
  expect(said.includes(text('buy.notPaidYet'))).toBe(state.includes('not paid yet'));
  expect(said.includes(text('buy.stillChecking'))).toBe(state.includes('still checking'));
  // Closing keeps the order watched: said before it happens.
  dialog.getByText(fill('buy.closeNote', { time: formatDateTime(ORDER.expires_at) }));
  const checkNow = dialog.getByRole('button', { name: text('buy.checkNow') });
  expect(checkNow.getAttribute('aria-busy')).toBe(String(state === 'checking by hand'));
}

/** Carries out one step as a person, time, or an endpoint would. */
async function exec(world: World, event: PathEvent) {
  const { user, endpoints } = world;
  const dialog = () => openDialog()!;
  const click = (name: MessageId) => user.click(dialog().getByRole('button', { name: text(name) }));
  const lbl = label(event);
  switch (event.type) {
    case 'OPEN':
      await user.click(screen.getByRole('button', { name: text('buy.open') }));
      return;
    case 'RETRY': {
      const retry = dialog().queryByRole('button', { name: text('buy.checkAgain') });
      await user.click(retry ?? dialog().getByRole('button', { name: text('property.retry') }));
      return;
    }
    case 'CHOOSE':
      await user.click(dialog().getByRole('radio', { name: 'Standard' }));
      await click('property.next');
      return;
    case 'BACK':
      await click('property.back');
      return;
    case 'SUBMIT':
      await click('buy.confirm');
      return;
    case 'CHECK':
      await click('buy.checkNow');
      return;
    case 'AGAIN': {
      const again = (['buy.otherPackage', 'buy.again', 'buy.another'] as MessageId[])
        .map((id) => dialog().queryByRole('button', { name: text(id) }))
        .find(Boolean);
      await user.click(again!);
      return;
    }
    case 'CLOSE': {
      // The footer's Close or Cancel where there is one, else the ×.
      const buttons = dialog().getAllByRole('button');
      const footerClose = buttons.find(
        (b) =>
          !isCloseX(b) &&
          [text('form.close'), text('form.cancel')].some((t) => t === b.textContent),
      );
      await user.click(footerClose ?? buttons.find(isCloseX)!);
      return;
    }
    case 'EXPIRED':
      // The order's own time to pay passes (a poll check started meanwhile stays unanswered).
      await vi.advanceTimersByTimeAsync(timeToPay(ORDER));
      return;
    case POLL:
      await vi.advanceTimersByTimeAsync(POLL_MS);
      return;
  }
  const m = /^(\w+): (.+)$/.exec(lbl)!;
  const endpoint = { packages: 'getPackages', create: 'createOrder', check: 'getOrder' }[m[1]]!;
  const outcome = event.type.startsWith('xstate.error') ? 'error' : 'done';
  const value =
    outcome === 'error'
      ? (event as { error: unknown }).error
      : m[1] === 'packages'
        ? { list: (event as { output: unknown[] }).output, total: 2 }
        : (event as { output: unknown }).output;
  await endpoints.settle(endpoint, outcome, value);
}

beforeAll(async () => {
  await import('../../src/components/toaster-store');
  await import('../../src/app/theme/theme-later');
  await import('../../src/components/app-toaster');
});
viewPathHooks();

const oracle = { initial: 'closed', transitions: TRANSITIONS, label };

describe('buying a recharge package, path by path', () => {
  uiPaths({
    oracle,
    proposed: getShortestPaths(buyMachine, {
      events: (s) => EVENTS.filter((e) => inTable(s, e)) as BuyEvent[],
      serializeState: (s, e) => JSON.stringify([nameOf(s), e ? label(e) : null]),
    }),
    run: async (_, walk) => {
      const world = setup();
      await walk({
        exec: (event) => exec(world, event),
        sees: Object.fromEntries(
          ['closed', ...Object.values(TRANSITIONS)].map((s) => [s, () => sees(s)]),
        ),
        actual: world.actual,
        effects: { take: world.take, expected: EFFECTS },
      });
      areasOf(world.actors).reset();
      world.actors.dispose();
    },
    timeout: 60_000,
  });
});

describe('buying a recharge package, beyond the paths', () => {
  /** Opens the dialog with the packages loaded. */
  async function choosing() {
    const world = setup();
    await exec(world, { type: 'OPEN' });
    await world.endpoints.settle('getPackages', 'done', { list: PACKAGES, total: 2 });
    const dialog = () => openDialog()!;
    const click = (id: MessageId) =>
      world.user.click(dialog().getByRole('button', { name: text(id) }));
    return { ...world, dialog, click };
  }

  /** Standard chosen, its order created: the order awaits payment. */
  async function paying() {
    const world = await choosing();
    await exec(world, { type: 'CHOOSE', pkg: PACKAGES[0] });
    await world.click('buy.confirm');
    await world.endpoints.settle('createOrder', 'done', ORDER);
    sees('paying');
    return world;
  }

  const done = (world: World) => {
    areasOf(world.actors).reset();
    world.actors.dispose();
  };

  test('Next without a choice says so; the choice is what is confirmed, and kept on Back', async () => {
    const world = await choosing();
    await world.click('property.next');
    sees('choosing');
    const group = world.dialog().getByRole('group', { name: text('buy.packages') });
    expect(description(group)).toBe(text('buy.choosePackage'));

    await world.user.click(world.dialog().getByRole('radio', { name: 'Trial' }));
    expect(world.dialog().queryByText(text('buy.choosePackage'))).toBeNull();
    await world.click('property.next');
    expect(summaryValues(world.dialog(), 'buy.package')).toEqual([
      'Trial',
      '¥10.00',
      money('10.00'),
      money('10.00'),
    ]);
    await world.click('property.back');
    const trial = world.dialog().getByRole('radio', { name: 'Trial' }) as HTMLInputElement;
    expect(trial.checked).toBe(true);
    await world.click('property.next');
    world.take();
    await world.click('buy.confirm');
    expect(world.endpoints.calls.at(-1)).toEqual({
      name: 'createOrder',
      input: [{ package_id: 1, pay_way: 'sandbox' }, expect.anything()],
    });
    done(world);
  }, 60_000);

  test('a failed create is never tried again by itself', async () => {
    const world = await choosing();
    await exec(world, { type: 'CHOOSE', pkg: PACKAGES[0] });
    await world.click('buy.confirm');
    await world.endpoints.settle('createOrder', 'error', lostReply());
    world.take();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    sees('create lost');
    expect(world.take()).toEqual([]);
    done(world);
  }, 60_000);

  test('the last check comes after the order’s own time to pay, whatever the browser’s clock', async () => {
    // The browser's clock is a day off: the order's created → expires span still counts.
    vi.setSystemTime(ORDER.created_at + 24 * 3600_000);
    const world = await paying();
    expect(timeToPay(ORDER)).toBe(30 * 60_000);
    // The first poll's check stays unanswered (no other starts): only the expiry timer runs.
    await vi.advanceTimersByTimeAsync(timeToPay(ORDER) - 1);
    sees('checking');
    await vi.advanceTimersByTimeAsync(1);
    sees('last check');
    await world.endpoints.settle('getOrder', 'done', PENDING);
    sees('expired');
    done(world);
  }, 60_000);

  test('closed, the order is checked every POLL_MS until the person signs out', async () => {
    const world = await paying();
    await exec(world, { type: 'CLOSE' });
    sees('watching');
    world.take();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(POLL_MS);
      await world.endpoints.settle('getOrder', 'done', PENDING);
      expect(world.take()).toEqual([CHECK_ASKED]);
    }
    // A change of signed-in user (or none) stops every area (areas.ts): the watch ends, silently.
    areasOf(world.actors).reset();
    await vi.advanceTimersByTimeAsync(timeToPay(ORDER));
    expect(world.take()).toEqual([]);
    world.actors.dispose();
  }, 60_000);
});
