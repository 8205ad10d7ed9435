/**
 * Model-based path tests of buying a recharge package through the real dialog: the shortest
 * paths of the buy machine (recharge-buy-model.ts) run on a real actor — its calls fakes settled
 * by the steps, its polling on fake timers, its expiry timer a probe — while RechargeDialog is
 * rendered; each step asserts what a person sees in that state (roles and accessible names).
 * Then the package choice itself, and the page's "Recharge" button reloading after a payment.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { formatDateTime } from '../../src/components/filter-bar';
import { removeAllNotices } from '../../src/components/toaster';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import {
  STILL_CHECKING_AFTER,
  buyMachine,
  type BuySnapshot,
} from '../../src/machines/recharge/buy';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { rechargeArea } from '../../src/app/actors/recharge';
import { RechargeBuy, RechargeDialog } from '../../src/views/account/recharge-dialog';
import { describePath, fakeCalls, runPath } from './harness';
import {
  BUY_STATES,
  ORDER,
  PACKAGES,
  PAID,
  PAY_PAGE,
  REFUSED,
  buyEvents,
  describeBuyEvent,
  fakeRechargeEndpoints,
  makeBuyActor,
  serializeBuy,
  stateKey,
} from './recharge-buy-model';
import { appActors, BRANDING, flush, isOpen, renderAt } from './view-harness';

const MONEY = BRANDING.money_name;
const fill = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

/** The one open dialog, or null when none is open. */
function openDialog() {
  const open = screen.queryAllByRole('dialog').filter(isOpen);
  expect(open.length).toBeLessThanOrEqual(1);
  if (open.length === 0) return null;
  within(open[0]).getByRole('heading', { name: enUS['buy.title'] });
  return within(open[0]);
}

const BUTTON: Record<string, MessageId> = {
  cancel: 'form.cancel',
  close: 'form.close',
  retry: 'property.retry',
  checkAgain: 'buy.checkAgain',
  next: 'property.next',
  back: 'property.back',
  confirm: 'buy.confirm',
  checkNow: 'buy.checkNow',
  again: 'buy.again',
  another: 'buy.another',
};

/** The footer's buttons (the close button × aside), by accessible name. */
function footerButtons(dialog: ReturnType<typeof within>): string[] {
  const buttons: HTMLElement[] = dialog.getAllByRole('button');
  return buttons
    .filter((b) => b.getAttribute('data-part') !== 'close-trigger')
    .map((b) => b.textContent ?? '');
}

/** The values of a label/value group (Summary), in order. */
function summaryValues(dialog: ReturnType<typeof within>, name: MessageId): string[] {
  const group = dialog.getByRole('group', { name: enUS[name] });
  return within(group)
    .getAllByRole('definition')
    .map((d) => d.textContent ?? '');
}

const money = (text: string) => `${text} ${MONEY}`;

/** An element's accessible description: the text of what its aria-describedby names. */
function description(el: HTMLElement): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

async function assertSees(snapshot: BuySnapshot) {
  await flush();
  const state = stateKey(snapshot.value);
  const sees = BUY_STATES[state].sees;
  const dialog = openDialog();
  if (!sees.open) {
    expect(dialog).toBeNull();
    return;
  }
  expect(dialog).not.toBeNull();
  const d = dialog!;
  const c = snapshot.context;
  expect(footerButtons(d)).toEqual(sees.buttons.map((b) => enUS[BUTTON[b]]));
  // The × closes whenever the machine lets the dialog close.
  const closeX = d
    .getAllByRole('button')
    .find((b) => b.getAttribute('data-part') === 'close-trigger');
  expect(closeX?.hasAttribute('disabled')).toBe(state === 'creating');

  switch (state) {
    case 'loading':
      expect(d.getByRole('status').textContent).toBe(enUS['buy.loading']);
      break;
    case 'loadFailed':
      expect(d.getByRole('alert').textContent).toContain(enUS['http.networkError']);
      break;
    case 'noneOnSale':
      expect(d.getByRole('status').textContent).toBe(enUS['buy.noneOnSale']);
      break;
    case 'choosing': {
      const group = d.getByRole('group', { name: enUS['buy.packages'] });
      const radios = within(group).getAllByRole('radio');
      // Each radio is named by its package alone; the offer is its description.
      expect(radios).toHaveLength(PACKAGES.length);
      for (const [i, p] of PACKAGES.entries()) {
        expect(within(group).getByRole('radio', { name: p.name })).toBe(radios[i]);
      }
      // What each costs and what it credits, money and gift.
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
      break;
    }
    case 'confirming':
    case 'creating':
    case 'createFailed': {
      const pkg = c.chosen!;
      d.getByText(enUS['buy.confirmText']);
      d.getByText(enUS['buy.testPayment']);
      expect(summaryValues(d, 'buy.package')).toEqual(
        pkg.id === 2
          ? ['Standard', '¥100.00', money('100.00'), money('10.00'), money('110.00')]
          : ['Trial', '¥10.00', money('10.00'), money('10.00')],
      );
      if (state === 'createFailed') {
        const alert = d.getByRole('alert');
        expect(alert.textContent).toContain(c.uncertain ? enUS['http.networkError'] : REFUSED);
        // A lost reply: an order may exist; it costs nothing unpaid and closes by itself.
        expect(alert.textContent?.includes(enUS['buy.uncertain'])).toBe(c.uncertain);
        break;
      }
      const confirm = d.getByRole('button', { name: enUS['buy.confirm'] });
      expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'creating'));
      expect(d.getByRole('button', { name: enUS['property.back'] }).hasAttribute('disabled')).toBe(
        state === 'creating',
      );
      break;
    }
    case 'paying.waiting':
    case 'paying.checking': {
      expect(summaryValues(d, 'buy.order')).toEqual([
        ORDER.order_no,
        ORDER.package_name,
        '¥100.00',
        formatDateTime(ORDER.expires_at),
      ]);
      d.getByText(enUS['buy.testPayment']);
      // A real link to the absolute payment page, opened in a new tab without an opener.
      const link = d.getByRole('link', { name: enUS['buy.goPay'] });
      // (with the console's time zone, which the sandbox's page follows)
      const payPage = new URL(PAY_PAGE);
      payPage.searchParams.set('tz', Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(link.getAttribute('href')).toBe(payPage.toString());
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener');
      const status = d.getByRole('status');
      expect(status.textContent).toContain(enUS['buy.waiting']);
      expect(status.textContent?.includes(enUS['buy.notPaidYet'])).toBe(c.notPaidYet);
      expect(status.textContent?.includes(enUS['buy.stillChecking'])).toBe(
        c.pollFailures >= STILL_CHECKING_AFTER,
      );
      // Closing stops the checks: said before it happens.
      d.getByText(fill('buy.closeNote', { time: formatDateTime(ORDER.expires_at) }));
      const checkNow = d.getByRole('button', { name: enUS['buy.checkNow'] });
      expect(checkNow.getAttribute('aria-busy')).toBe(
        String(state === 'paying.checking' && c.byHand),
      );
      break;
    }
    case 'lastCheck':
      expect(d.getByRole('status').textContent).toBe(enUS['buy.lastCheck']);
      expect(d.queryByRole('link')).toBeNull();
      break;
    case 'paid':
      expect(d.getByRole('status').textContent).toBe(enUS['buy.paid']);
      expect(summaryValues(d, 'buy.paid')).toEqual([
        PAID.order_no,
        PAID.package_name,
        '¥100.00',
        money('100.00'),
        money('10.00'),
        money('110.00'),
      ]);
      break;
    case 'expired':
      expect(d.getByRole('status').textContent).toBe(enUS['buy.expired']);
      d.getByText(enUS['buy.expiredText']);
      expect(d.queryByRole('link')).toBeNull();
      break;
  }
}

describe('the recharge dialog, path by path', () => {
  const paths = getShortestPaths(buyMachine, {
    events: buyEvents,
    serializeState: (state, event, from) => serializeBuy(state, event, from),
  });

  test.each(paths.map((path) => [describePath(path, describeBuyEvent), path] as const))(
    '%s',
    async (_, path) => {
      const { calls, actor } = makeBuyActor();
      const actors = appActors({});
      renderAt(actors, <RechargeDialog actor={actor} />);
      await runPath({
        path,
        actor,
        calls,
        serialize: (s: BuySnapshot, e?: { type: string }) => serializeBuy(s, e),
        check: (snapshot) => assertSees(snapshot),
      });
      actor.stop();
      actors.dispose();
    },
  );
});

describe('choosing a package', () => {
  test('Next without a choice says so; the choice is what is confirmed, and kept on Back', async () => {
    const { calls, actor } = makeBuyActor();
    actor.start();
    const actors = appActors({});
    renderAt(actors, <RechargeDialog actor={actor} />);
    act(() => actor.send({ type: 'OPEN' }));
    calls.settle('loadPackages', 'done', PACKAGES);
    await flush();
    let d = openDialog()!;
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('choosing');
    const group = d.getByRole('group', { name: enUS['buy.packages'] });
    expect(description(group)).toBe(enUS['buy.choosePackage']);

    await act(async () => {
      fireEvent.click(d.getByRole('radio', { name: 'Trial' }));
    });
    expect(d.queryByText(enUS['buy.choosePackage'])).toBeNull();
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.chosen).toEqual(PACKAGES[1]);

    d = openDialog()!;
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.back'] }));
    });
    await flush();
    expect((openDialog()!.getByRole('radio', { name: 'Trial' }) as HTMLInputElement).checked).toBe(
      true,
    );
    // Confirming sends that package's id and nothing else.
    await act(async () => {
      fireEvent.click(openDialog()!.getByRole('button', { name: enUS['property.next'] }));
    });
    await act(async () => {
      fireEvent.click(openDialog()!.getByRole('button', { name: enUS['buy.confirm'] }));
    });
    expect(calls.started.at(-1)).toEqual({ id: 'createOrder', input: PACKAGES[1].id });
    actor.stop();
    actors.dispose();
  });
});

describe('the Recharge button of the property page', () => {
  test('opens the dialog; a payment seen reloads the page once', async () => {
    const calls = fakeCalls();
    const actors = appActors({});
    provideArea(actors, rechargeArea, fakeRechargeEndpoints(calls));
    // The area tells its listeners (the money area reloads balances and lists on it).
    const onPaid = vi.fn();
    areasOf(actors).get(rechargeArea).buy.on('paid', onPaid);
    renderAt(actors, <RechargeBuy />);
    await flush();
    expect(openDialog()).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: enUS['buy.open'] }));
    });
    calls.settle('loadPackages', 'done', PACKAGES);
    await flush();
    const d = openDialog()!;
    await act(async () => {
      fireEvent.click(d.getByRole('radio', { name: 'Standard' }));
    });
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: enUS['property.next'] }));
    });
    await act(async () => {
      fireEvent.click(openDialog()!.getByRole('button', { name: enUS['buy.confirm'] }));
    });
    calls.settle('createOrder', 'done', ORDER);
    await flush();
    await act(async () => {
      fireEvent.click(openDialog()!.getByRole('button', { name: enUS['buy.checkNow'] }));
    });
    expect(onPaid).not.toHaveBeenCalled();
    calls.settle('checkOrder', 'done', PAID);
    await flush();
    expect(openDialog()!.getByRole('status').textContent).toBe(enUS['buy.paid']);
    expect(onPaid).toHaveBeenCalledTimes(1);
    await act(async () => {
      fireEvent.click(openDialog()!.getAllByRole('button', { name: enUS['form.close'] })[0]);
    });
    await flush();
    expect(onPaid).toHaveBeenCalledTimes(1);
    actors.dispose();
  });
});
