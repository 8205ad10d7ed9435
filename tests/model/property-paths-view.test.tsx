/**
 * Three machines through one real page, /account/property, opened in the real console: the branding (title, navbar name, money name, the skeleton that holds their place), the
 * balances (a load machine) and the ledger (a list machine). Each machine only proposes event
 * sequences (`getShortestPaths`); each step is a person's action (Retry, the ledger's filter bar,
 * its pagination, an exchange that moves the balances) or a fake endpoint settling at the money
 * area's boundary (`provideArea`), and the state after it comes from the hand-written tables
 * below, asserted on screen.
 *
 * Not reachable through the console, so not proposed: the branding's RELOAD (nothing sends it).
 */
import type { ExchangeReply } from '../../src/api/contract/money';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { Account } from '../../src/api/contract/dashboard';
import type { MoneyLogRow } from '../../src/api/contract/money';
import type { SystemInfo } from '../../src/api/contract/system';
import { provideArea } from '../../src/app/actors/areas';
import { moneyArea, type LedgerFilters } from '../../src/app/actors/money';
import { removeAllNotices } from '../../src/components/toaster';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { brandingMachine } from '../../src/machines/branding';
import { createListMachine, type ListSnapshot } from '../../src/machines/list';
import PropertyPage from '../../src/views/account/property-page';
import { createLoadMachine } from '../../src/machines/load';
import { appWorld, preloadConsole, USERS } from './app-world';
import { replyError } from './fixtures';
import { fakeMoneyEndpoints } from './money-paths';
import { keyMaker } from './transfer-model';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  settle,
  withoutPrefixes,
  type EventPath,
  type FakeEndpoints,
} from './ui-paths';
import { appActors, BRANDING, renderAt } from './view-harness';

const EXCHANGE_REPLY: ExchangeReply = {
  asset: 'digital_man',
  quantity: 5,
  cost: '5.00',
  money: '1195.50',
  balance: '7500',
};

const text = enUS;
const FIRST_TITLE = 'Console';
/** The branding of this host: its money is called Coins; minutes can be bought with it. */
const INFO: SystemInfo = {
  ...BRANDING,
  money_name: 'Coins',
  money_recharge_exchange_config: '2',
  digital_man_money_exchange_num: '1',
};
const balances = (money: string): Account =>
  ({ money, digital_man_seconds: 0, voice_clone_count: 0, image_clone_count: 0 }) as Account;
const ledgerRow = (id: number, memo: string): MoneyLogRow => ({
  id,
  user_id: 1,
  username: 'admin',
  asset: 'money',
  type: 'recharge',
  change: '10.00',
  before: '0.00',
  after: '10.00',
  memo,
  related_type: null,
  related_id: null,
  operator_id: null,
  created_at: 1_760_000_000_000,
});
const ROWS = [ledgerRow(1, 'Alpha top-up'), ledgerRow(2, 'Beta top-up')];

type Step = { type: string; output?: unknown; error?: unknown };

/** The money area's endpoints: fakes a step settles, or instant answers. */
function moneyEndpoints(endpoints: FakeEndpoints, fake: { account: boolean; ledger: boolean }) {
  return fakeMoneyEndpoints({
    getAccount: fake.account ? endpoints.endpoint('getAccount') : async () => balances('1200.50'),
    getMoneyLog: fake.ledger
      ? endpoints.endpoint('getMoneyLog')
      : async () => ({ list: ROWS, total: 2 }),
    getTransferRecords: async () => ({ list: [], total: 0 }),
    exchange: endpoints.endpoint('exchange'),
    newIdempotencyKey: keyMaker(),
  });
}

/** The whole console at /account/property for a signed-in admin (the branding's places). */
async function consoleAtProperty() {
  const world = appWorld({
    token: 'local',
    url: '/account/property',
    prepare: (actors, endpoints) =>
      provideArea(actors, moneyArea, moneyEndpoints(endpoints, { account: false, ledger: false })),
  });
  await world.endpoints.settle('getUserInfo', 'done', USERS.admin);
  for (let i = 0; i < 6; i++) await settle();
  return world;
}

/** The property page alone, the branding known (the balances' and the ledger's paths). */
async function propertyPage(fake: { account: boolean; ledger: boolean }) {
  const endpoints = fakeEndpoints();
  const branding = createActor(
    brandingMachine.provide({ actors: { fetchSystemInfo: fromPromise(async () => INFO) } }),
  ).start();
  const actors = { ...appActors({}), branding };
  provideArea(actors, moneyArea, moneyEndpoints(endpoints, fake));
  renderAt(actors, <PropertyPage />, '/account/property');
  await settle();
  return { endpoints, dispose: () => actors.dispose() };
}

const notOption = (el: Element) => el.tagName !== 'OPTION';
/**
 * A text painted on the page outside the ledger (the filters' closed choices are not painted).
 * (The ledger's asset column names money with the default name until the branding is known.)
 */
const painted = (s: string) =>
  screen.queryAllByText(s).filter((el) => notOption(el) && el.closest('table') === null);

beforeAll(preloadConsole, 180_000);
beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
  document.title = FIRST_TITLE;
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

// =============================================================================================
// The branding (docs/domain.md §13: fetched on first load; the page title, the navbar; the money's name).

const BRANDING_TRANSITIONS: Record<string, string> = {
  'pending fetchSystemInfo done': 'known',
  // The console goes on without it: the default money name, no exchange offer.
  'pending fetchSystemInfo fails': 'unknown',
};

function brandingSees(state: string) {
  return () => {
    const banner = screen.getByRole('banner');
    const exchange = screen.queryByRole('button', { name: text['property.exchange'] });
    const placeHeld = screen.queryByTestId('exchange-pending') !== null;
    expect(placeHeld, 'the skeleton holds the place').toBe(state === 'pending');
    // The page's title, then the brand's name once known.
    expect(document.title).toBe(state === 'known' ? `Property - ${INFO.name}` : 'Property');
    expect(banner.textContent?.includes(INFO.name)).toBe(state === 'known');
    expect(exchange !== null, 'the Exchange button').toBe(state === 'known');
    // No money name before the branding is known; its own name once known, else the default.
    expect(painted('Coins')).toHaveLength(state === 'known' ? 1 : 0);
    expect(painted(text['stats.defaultMoneyName'])).toHaveLength(state === 'unknown' ? 1 : 0);
  };
}

describe('the branding, on the property page', () => {
  const rows = rowsUsed();
  const label = (e: Step) =>
    e.type === 'xstate.done.actor.fetchSystemInfo'
      ? 'fetchSystemInfo done'
      : 'fetchSystemInfo fails';
  const paths = getShortestPaths(brandingMachine, {
    events: (s) =>
      (s.matches('loading')
        ? [
            { type: 'xstate.done.actor.fetchSystemInfo', output: INFO },
            { type: 'xstate.error.actor.fetchSystemInfo', error: replyError('Busy') },
          ]
        : []) as never[],
  });

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = await consoleAtProperty();
      await runUiPath(
        path as EventPath<Step>,
        {
          initial: 'pending',
          transitions: BRANDING_TRANSITIONS,
          label,
          exec: async (e) => {
            await world.endpoints.settle(
              'getSystemInfo',
              label(e) === 'fetchSystemInfo done' ? 'done' : 'error',
              label(e) === 'fetchSystemInfo done' ? INFO : replyError('Busy'),
            );
            await settle();
          },
          sees: Object.fromEntries(
            ['pending', 'known', 'unknown'].map((s) => [s, brandingSees(s)]),
          ),
        },
        rows.used,
      );
      // The branding is asked for this host.
      expect(world.endpoints.calls.find((c) => c.name === 'getSystemInfo')?.input).toEqual([
        'console.example',
      ]);
      world.dispose();
    },
    180_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(BRANDING_TRANSITIONS)).toEqual([]);
  });
});

// =============================================================================================
// The balances: one load (spec: loading → shown | failed with Retry; reloaded when they change).

const LOAD_TRANSITIONS: Record<string, string> = {
  'loading load done': 'balances',
  'loading load fails': 'failed',
  // Retry.
  'failed RELOAD': 'loading',
  // An exchange moved the balances: the ones shown stay until the new ones arrive.
  'balances RELOAD': 'reloading',
  'reloading load done': 'balances',
  'reloading load fails': 'failed, balances kept',
  'failed, balances kept RELOAD': 'reloading',
};

/**
 * Whether a loading skeleton hides `el` (its recipe hides what it holds; jsdom applies no emotion
 * styles, so the rule of the skeleton's class is read).
 */
function underSkeleton(el: Element): boolean {
  const skeleton = el.closest('.chakra-skeleton');
  const css = [...(skeleton?.classList ?? [])].find((c) => c.startsWith('css-'));
  if (!css) return false;
  const rules = [...document.querySelectorAll('style')].map((s) => s.textContent ?? '').join('');
  const rule = new RegExp(`\\.${css}\\*\\{visibility:hidden`);
  return rule.test(rules.replace(/\s+/g, ''));
}

/** The page's "could not be loaded" notice with its Retry (the title's parent). */
const failedAlert = () => screen.queryByText(text['load.failed'])?.parentElement ?? null;

function loadSees(state: string, shown: { money: string | null }) {
  return () => {
    const alert = failedAlert();
    expect(alert !== null, 'the failure and Retry').toBe(state.startsWith('failed'));
    if (alert) within(alert as HTMLElement).getByRole('button', { name: text['load.retry'] });
    const money = screen.getByTestId('balance-money');
    // The skeleton hides the balances only until the first ones are known.
    const hidden = underSkeleton(money);
    expect(hidden, 'the skeleton').toBe(state === 'loading');
    const kept = ['balances', 'reloading', 'failed, balances kept'].includes(state);
    if (kept) expect(money.textContent).toBe(shown.money);
  };
}

describe('the balances (a load), on the property page', () => {
  const rows = rowsUsed();
  const label = (e: Step) =>
    e.type === 'xstate.done.actor.load'
      ? 'load done'
      : e.type === 'xstate.error.actor.load'
        ? 'load fails'
        : e.type;
  const machine = createLoadMachine<Account>('propertyAccount');
  const oracle = { initial: 'loading', transitions: LOAD_TRANSITIONS, label };
  const paths = withoutPrefixes(
    coverRows(
      getShortestPaths(machine, {
        events: (s) =>
          (s.matches('loading')
            ? [
                { type: 'xstate.done.actor.load', output: balances('1') },
                { type: 'xstate.error.actor.load', error: replyError('Busy') },
              ]
            : [{ type: 'RELOAD' }]) as never[],
        serializeState: (s, e) => `${JSON.stringify(s.value)} via ${e?.type ?? 'start'}`,
      }) as EventPath<Step>[],
      oracle,
    ),
    label,
  );

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = await propertyPage({ account: true, ledger: false });
      const user = person();
      const shown = { money: null as string | null, replies: 0 };
      const exec = async (e: Step) => {
        const name = label(e);
        if (name === 'load done') {
          shown.replies += 1;
          shown.money = `${1000 + shown.replies}.50`;
          return world.endpoints.settle('getAccount', 'done', balances(shown.money));
        }
        if (name === 'load fails')
          return world.endpoints.settle('getAccount', 'error', replyError('Busy'));
        const alert = failedAlert();
        if (alert) {
          return user.click(
            within(alert as HTMLElement).getByRole('button', { name: text['load.retry'] }),
          );
        }
        // An exchange of 5 minutes, confirmed; done, the area reloads the balances.
        await user.click(screen.getByRole('button', { name: text['property.exchange'] }));
        const dialog = within(screen.getByRole('dialog', { name: text['property.exchange'] }));
        await user.type(
          dialog.getByLabelText(
            new RegExp(text['property.quantityMinutes'].replace(/[()]/g, '\\$&')),
          ),
          '5',
        );
        await user.click(dialog.getByRole('button', { name: text['property.next'] }));
        await user.click(dialog.getByRole('button', { name: text['property.confirmExchange'] }));
        await world.endpoints.settle('exchange', 'done', EXCHANGE_REPLY);
        await user.click(dialog.getAllByRole('button', { name: text['form.close'] })[0]);
      };
      await runUiPath(
        path,
        {
          ...oracle,
          exec,
          sees: Object.fromEntries(
            ['loading', ...Object.values(LOAD_TRANSITIONS)].map((s) => [s, loadSees(s, shown)]),
          ),
        },
        rows.used,
      );
      world.dispose();
    },
    180_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(LOAD_TRANSITIONS)).toEqual([]);
  });
});

// =============================================================================================
// The ledger: a server-paginated list. A state is what the table shows and the query it shows
// it for: page/size, and the asset filter if any. 45 rows in all: three pages of 20, one of 50.

const LIST_TRANSITIONS: Record<string, string> = {
  'loading p1/20 fetchPage rows': 'rows p1/20',
  'loading p1/20 fetchPage none': 'none p1/20',
  'loading p1/20 fetchPage fails': 'failed p1/20',
  'failed p1/20 RELOAD': 'loading p1/20',
  // New filters while a page loads: the newest query is the one loaded.
  'loading p1/20 SET_FILTERS minutes': 'loading p1/20 minutes',
  'loading p1/20 minutes fetchPage rows': 'rows p1/20 minutes',
  'rows p1/20 SET_PAGE 2': 'loading p2/20',
  'loading p2/20 fetchPage rows': 'rows p2/20',
  // Rows went away meanwhile (5 left): the last page that has rows.
  'loading p2/20 fetchPage past the end': 'loading p1/20',
  'rows p2/20 SET_PAGE 3': 'loading p3/20',
  'loading p3/20 fetchPage rows': 'rows p3/20',
  'rows p2/20 SET_PAGE 1': 'loading p1/20',
  // New filters and a new page size start again at page 1.
  'rows p2/20 SET_FILTERS minutes': 'loading p1/20 minutes',
  'rows p2/20 SET_LIMIT 50': 'loading p1/50',
  'loading p1/50 fetchPage rows': 'rows p1/50',
};

type LedgerSnapshot = ListSnapshot<LedgerFilters, MoneyLogRow>;
const PAGE_OF_45 = { list: ROWS, total: 45 };
const NONE = { list: [], total: 0 };
const PAST_THE_END = { list: [], total: 5 };

/** The table's name for a snapshot: only to bound the events a path may take. */
function listName(s: LedgerSnapshot): string {
  const { query, rows } = s.context;
  const phase = s.matches('loading')
    ? 'loading'
    : s.matches('failed')
      ? 'failed'
      : rows.length
        ? 'rows'
        : 'none';
  return `${phase} p${query.page}/${query.limit}${query.filters.asset ? ' minutes' : ''}`;
}

const listLabel = (e: Step & { page?: number; limit?: number }) => {
  switch (e.type) {
    case 'xstate.done.actor.fetchPage':
      return e.output === PAGE_OF_45
        ? 'fetchPage rows'
        : e.output === NONE
          ? 'fetchPage none'
          : 'fetchPage past the end';
    case 'xstate.error.actor.fetchPage':
      return 'fetchPage fails';
    case 'SET_PAGE':
      return `SET_PAGE ${e.page}`;
    case 'SET_LIMIT':
      return `SET_LIMIT ${e.limit}`;
    case 'SET_FILTERS':
      return 'SET_FILTERS minutes';
    default:
      return e.type;
  }
};

const CANDIDATES: Step[] = [
  { type: 'xstate.done.actor.fetchPage', output: PAGE_OF_45 },
  { type: 'xstate.done.actor.fetchPage', output: NONE },
  { type: 'xstate.done.actor.fetchPage', output: PAST_THE_END },
  { type: 'xstate.error.actor.fetchPage', error: replyError('Busy') },
  { type: 'SET_PAGE', page: 1 } as Step,
  { type: 'SET_PAGE', page: 2 } as Step,
  { type: 'SET_PAGE', page: 3 } as Step,
  { type: 'SET_LIMIT', limit: 50 } as Step,
  { type: 'SET_FILTERS', filters: { asset: 'digital_man', type: '', from: '', to: '' } } as Step,
  { type: 'RELOAD' },
];

function listSees(state: string, world: { endpoints: FakeEndpoints }) {
  const [phase, query, filter] = state.split(' ');
  const [page, limit] = query.slice(1).split('/').map(Number);
  return () => {
    const box = within(screen.getByTestId('ledger'));
    const table = box.getByRole('table', { name: text['property.ledger'] });
    expect(table.getAttribute('aria-busy')).toBe(String(phase === 'loading'));
    const skeleton = table.querySelectorAll('tr[aria-hidden="true"]').length > 0;
    expect(skeleton, 'skeleton rows').toBe(phase === 'loading');
    for (const row of ROWS) {
      expect(within(table).queryByRole('cell', { name: row.memo }) !== null).toBe(phase === 'rows');
    }
    expect(within(table).queryByText(text['table.empty']) !== null).toBe(phase === 'none');
    const alert = box.queryByRole('alert');
    expect(alert?.textContent?.includes('Busy') ?? false, 'the error').toBe(phase === 'failed');
    expect(box.queryByRole('button', { name: text['load.retry'] }) !== null).toBe(
      phase === 'failed',
    );

    const nav = within(box.getByRole('navigation'));
    const pages = phase === 'rows' ? Math.ceil(45 / limit) : phase === 'none' ? 1 : null;
    nav.getByText(new RegExp(`^Page ${page} of ${pages ?? '\\d+'}$`));
    if (phase === 'rows') nav.getByText('45 in all');
    if (phase === 'none') nav.getByText('0 in all');
    const previous = nav.getByRole('button', { name: text['table.previous'] });
    const next = nav.getByRole('button', { name: text['table.next'] });
    if (phase === 'loading') {
      expect(previous.hasAttribute('disabled') && next.hasAttribute('disabled')).toBe(true);
    }
    if (pages !== null) {
      expect(previous.hasAttribute('disabled')).toBe(page <= 1);
      expect(next.hasAttribute('disabled')).toBe(page >= pages);
    }
    const size = nav.getByRole('combobox', { name: text['table.pageSize'] }) as HTMLSelectElement;
    expect(size.value).toBe(String(limit));

    // The page asked of the server while loading: the one shown, with the filter.
    if (phase === 'loading') {
      const asked = world.endpoints.calls.filter((c) => c.name === 'getMoneyLog').at(-1)!;
      expect((asked.input as unknown[])[0]).toEqual({
        asset: filter ? 'digital_man' : undefined,
        type: undefined,
        page,
        limit,
      });
      expect(world.endpoints.waiting('getMoneyLog').length).toBeGreaterThan(0);
    }
  };
}

describe('the ledger (a list), on the property page', () => {
  const rows = rowsUsed();
  const machine = createListMachine<LedgerFilters, MoneyLogRow>('ledger');
  const oracle = { initial: 'loading p1/20', transitions: LIST_TRANSITIONS, label: listLabel };
  const paths = withoutPrefixes(
    coverRows(
      getShortestPaths(machine, {
        input: { filters: { asset: '', type: '', from: '', to: '' } },
        // The bounded model: what the table offers a person, as far as the table goes.
        events: (s) =>
          CANDIDATES.filter((e) => `${listName(s)} ${listLabel(e)}` in LIST_TRANSITIONS) as never[],
        serializeState: (s, e) => `${listName(s)} via ${e ? listLabel(e as Step) : 'start'}`,
      }) as EventPath<Step>[],
      oracle,
    ),
    listLabel,
  );

  test.each(paths.map((p) => [pathName(p, listLabel), p] as const))(
    '%s',
    async (_, path) => {
      const world = await propertyPage({ account: false, ledger: true });
      const user = person();
      const exec = async (e: Step) => {
        const name = listLabel(e);
        const box = within(screen.getByTestId('ledger'));
        const nav = () => within(box.getByRole('navigation'));
        switch (name) {
          case 'fetchPage rows':
            return world.endpoints.settle('getMoneyLog', 'done', PAGE_OF_45);
          case 'fetchPage none':
            return world.endpoints.settle('getMoneyLog', 'done', NONE);
          case 'fetchPage past the end':
            return world.endpoints.settle('getMoneyLog', 'done', PAST_THE_END);
          case 'fetchPage fails':
            return world.endpoints.settle('getMoneyLog', 'error', replyError('Busy'));
          case 'RELOAD':
            return user.click(box.getByRole('button', { name: text['load.retry'] }));
          case 'SET_LIMIT 50':
            return user.selectOptions(
              nav().getByRole('combobox', { name: text['table.pageSize'] }),
              '50',
            );
          case 'SET_FILTERS minutes': {
            const form = within(
              screen.getByRole('search', { name: text['property.ledgerFilters'] }),
            );
            await user.selectOptions(
              form.getByRole('combobox', { name: text['property.asset'] }),
              text['stats.digitalManTime'],
            );
            return user.click(form.getByRole('button', { name: text['filter.search'] }));
          }
          default: {
            // SET_PAGE n: Next or Previous, from the page shown.
            const target = Number(name.split(' ')[1]);
            const current = Number(
              /^Page (\d+)/.exec(nav().getByText(/^Page \d+ of/).textContent!)![1],
            );
            const button = target > current ? text['table.next'] : text['table.previous'];
            return user.click(nav().getByRole('button', { name: button }));
          }
        }
      };
      await runUiPath(
        path,
        {
          ...oracle,
          exec,
          sees: Object.fromEntries(
            ['loading p1/20', ...Object.values(LIST_TRANSITIONS)].map((s) => [
              s,
              listSees(s, world),
            ]),
          ),
        },
        rows.used,
      );
      world.dispose();
    },
    180_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(LIST_TRANSITIONS)).toEqual([]);
  });
});
