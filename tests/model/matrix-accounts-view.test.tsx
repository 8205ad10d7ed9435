/**
 * The authorised accounts page (/matrix-distribution/authorization) driven as a merchant would,
 * against hand-written oracles:
 * - the page machine (src/machines/matrix-accounts.ts): its shortest paths only propose event
 *   sequences for each region (binding, refresh now + its notice, the selection); each step is a
 *   click on the page or a fake endpoint settling, and what the person sees after it is checked
 *   from the tables below (BIND, REFRESH, SELECTION), never from the machine;
 * - the platform's return (`?bound=` / `?error=`): the notice, and the parameter gone;
 * - the list (filters, groups, paging, empty) with the list call's queries;
 * - every dialog (delete one, delete the selection, move one, move the selection, new group,
 *   rename group, delete group) opened by its button, refused once, sent again and saved: the
 *   area then reloads the list and/or the groups (events between its actors), never the view.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { getShortestPaths } from 'xstate/graph';
import type { AccountPage, MatrixAccount } from '../../src/api/contract/matrix';
import type { GroupListReply, ResourceGroup } from '../../src/api/contract/resources';
import { provideArea } from '../../src/app/actors/areas';
import { matrixArea, type MatrixEndpoints } from '../../src/app/actors/matrix';
import { Providers } from '../../src/app/boot/providers';
import { fill, text } from './messages';
import {
  matrixAccountsMachine,
  type MatrixAccountsEvent,
} from '../../src/machines/matrix-accounts';
import AuthorizationPage from '../../src/views/matrix/authorization-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  viewPathHooks,
  withoutPrefixes,
  type EventPath,
} from './ui-paths';
import { appActors, isOpen } from './view-harness';

const account = (over: Partial<MatrixAccount> & Pick<MatrixAccount, 'id' | 'nickname'>) =>
  ({
    platform: 'douyin',
    open_id: `open-${over.id}`,
    avatar: '',
    fans: 1200,
    group_id: null,
    status: 'normal',
    sandbox: false,
    assisted: false,
    expires_at: Date.UTC(2026, 11, 1, 8, 0),
    refresh_expires_at: Date.UTC(2027, 0, 1),
    renewals_left: 5,
    last_refresh_at: null,
    last_error: null,
    created_at: 0,
    ...over,
  }) satisfies MatrixAccount;
const SHOP = account({ id: 1, nickname: 'Shop A', sandbox: true, fans: 12345 });
const OLD = account({
  id: 2,
  nickname: 'Old shop',
  status: 'expired',
  group_id: 5,
  last_error: 'The token expired',
  last_refresh_at: Date.UTC(2026, 10, 20, 9, 30),
});
const GROUP: ResourceGroup = { id: 5, name: 'Brand', count: 1 };
const GROUPS: GroupListReply = { list: [GROUP], ungrouped: 1 };
const REFUSAL = 'Refused by the server';
const AUTH_URL = 'https://open.douyin.example/auth?state=s1';

viewPathHooks();

interface Options {
  rows?: MatrixAccount[];
  /** The total the list call answers (default: the rows shown). */
  total?: number;
  /** The address's search (the platform's return). */
  search?: string;
}

/** A merchant on the page with fake endpoints of the matrix area. */
async function setup(options: Options = {}) {
  const rows = options.rows ?? [SHOP, OLD];
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const queries: Record<string, unknown>[] = [];
  const navigations: string[] = [];
  const effects: string[] = [];
  let groupLoads = 0;
  const getAccounts: MatrixEndpoints['getAccounts'] = async (query) => {
    queries.push({ ...query });
    effects.push('list');
    const keyword = typeof query.keyword === 'string' ? query.keyword.toLowerCase() : '';
    const shown = rows.filter(
      (r) =>
        (!keyword || r.nickname.toLowerCase().includes(keyword)) &&
        (!query.status || r.status === query.status) &&
        (!query.platform || r.platform === query.platform) &&
        (query.group_id === undefined || (r.group_id ?? 0) === query.group_id),
    );
    return { list: shown, total: options.total ?? shown.length } satisfies AccountPage;
  };
  provideArea(actors, matrixArea, {
    getAuthUrl: endpoints.endpoint('getAuthUrl') as never,
    getAccounts,
    refreshAccount: endpoints.endpoint('refreshAccount') as never,
    deleteAccounts: endpoints.endpoint('deleteAccounts') as never,
    moveAccounts: endpoints.endpoint('moveAccounts') as never,
    getGroups: async () => {
      groupLoads += 1;
      return GROUPS;
    },
    addGroup: endpoints.endpoint('addGroup') as never,
    editGroup: endpoints.endpoint('editGroup') as never,
    deleteGroup: endpoints.endpoint('deleteGroup') as never,
    navigate: (url) => {
      navigations.push(url);
      effects.push(`navigate ${url}`);
    },
  });
  const router = createMemoryRouter([{ path: '*', element: <AuthorizationPage /> }], {
    initialEntries: [`/matrix-distribution/authorization${options.search ?? ''}`],
  });
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const user = person();
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.authorization') }), {
    timeout: 5000,
  });
  await vi.waitFor(() => expect(queries.length).toBeGreaterThan(0), { timeout: 5000 });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  const dialog = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length).toBeLessThanOrEqual(1);
    return open[0] ?? null;
  };
  const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
  const notice = () => screen.queryByTestId('matrix-notice');
  return {
    endpoints,
    user,
    dialog,
    button,
    notice,
    queries,
    navigations,
    /** The effects since the last call: list loads and navigations. */
    take: () => effects.splice(0),
    listLoads: () => queries.length,
    groupLoads: () => groupLoads,
    search: () => router.state.location.search,
    dispose: () => actors.dispose(),
  };
}
type World = Awaited<ReturnType<typeof setup>>;

type PageEvent = MatrixAccountsEvent;

/** Shortest paths of one region of the page machine, with a path for each row they miss. */
function regionPaths(
  events: PageEvent[],
  can: (state: ReturnType<typeof matrixAccountsMachine.resolveState>, e: PageEvent) => boolean,
  serialize: (state: ReturnType<typeof matrixAccountsMachine.resolveState>) => unknown,
  table: Record<string, string>,
  initial: string,
  label: (e: PageEvent) => string,
) {
  const machine = matrixAccountsMachine.provide({ actions: { navigate: () => {} } });
  const paths = getShortestPaths(machine, {
    events: (s) => events.filter((e) => can(s, e) && s.can(e as never)),
    serializeState: (s, e) => JSON.stringify([serialize(s), e ? label(e as PageEvent) : '']),
  });
  return withoutPrefixes(
    coverRows(paths as unknown as EventPath<PageEvent>[], { initial, transitions: table, label }),
    (e) => label(e as PageEvent),
  );
}

// ---------------------------------------------------------------------------------------------
// Binding: "Bind Douyin account" opens the dialog; "Go to authorise" asks for the platform's
// address and the browser goes there. A row's "Re-authorise" (the expired "Old shop", in Brand)
// asks at once. A refusal shows in the dialog; "Go to authorise" tries again.

const BIND: Record<string, string> = {
  'idle OPEN_BIND': 'choosing',
  'idle BIND row': 'asking',
  'choosing CLOSE_BIND': 'idle',
  'choosing BIND dialog': 'asking',
  'asking done.authUrl': 'leaving',
  'asking error.authUrl': 'failed',
  'failed BIND dialog': 'asking',
  'failed CLOSE_BIND': 'idle',
};
const bindLabel = (e: PageEvent) => {
  if (e.type === 'BIND') return e.request ? 'BIND row' : 'BIND dialog';
  return e.type.replace(/^xstate\./, '').replace('.actor', '');
};

describe('binding (page machine, bind region)', () => {
  const rows = rowsUsed();
  const events: PageEvent[] = [
    { type: 'OPEN_BIND' },
    { type: 'CLOSE_BIND' },
    { type: 'BIND' },
    { type: 'BIND', request: { platform: 'douyin', groupId: 5 } },
    { type: 'xstate.done.actor.authUrl', output: { url: AUTH_URL } } as never,
    { type: 'xstate.error.actor.authUrl', error: replyError(REFUSAL) } as never,
  ];
  const paths = regionPaths(
    events,
    // The dialog is modal: a row's button only without it, the dialog's submit only with it.
    (s, e) => {
      if (bindLabel(e) === 'BIND row') return s.matches({ bind: 'idle' });
      if (bindLabel(e) === 'BIND dialog') return !s.matches({ bind: 'idle' });
      return true;
    },
    (s) => (s.value as { bind: string }).bind,
    BIND,
    'idle',
    bindLabel,
  );
  test.each(paths.map((p) => [pathName(p, bindLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      // The dialog after a row's refused "Re-authorise" asks again for that row's group.
      let group: number | null = null;
      const submit = () =>
        within(w.dialog()!).getByRole('button', { name: text('matrix.bindSubmit') });
      const sees: Record<string, () => void> = {
        idle: () => expect(w.dialog()).toBeNull(),
        choosing: () => {
          within(w.dialog()!).getByRole('heading', { name: text('matrix.bindTitle') });
          expect(submit().getAttribute('aria-busy')).not.toBe('true');
          expect(within(w.dialog()!).queryByRole('alert')).toBeNull();
        },
        asking: () => expect(submit().getAttribute('aria-busy')).toBe('true'),
        leaving: () => {
          expect(submit().getAttribute('aria-busy')).toBe('true');
          expect(w.navigations).toEqual([AUTH_URL]);
        },
        failed: () => {
          expect(within(w.dialog()!).getByRole('alert').textContent).toContain(REFUSAL);
          expect(submit().getAttribute('aria-busy')).not.toBe('true');
        },
      };
      await runUiPath(
        path,
        {
          initial: 'idle',
          transitions: BIND,
          label: bindLabel,
          sees,
          effects: {
            take: () => w.take().filter((e) => e.startsWith('navigate')),
            expected: { 'asking done.authUrl': [`navigate ${AUTH_URL}`] },
          },
          exec: async (event) => {
            switch (bindLabel(event)) {
              case 'OPEN_BIND':
                group = null;
                return w.user.click(w.button(text('matrix.bindAccount')));
              case 'CLOSE_BIND':
                return w.user.click(
                  within(w.dialog()!).getByRole('button', { name: text('form.cancel') }),
                );
              case 'BIND row':
                group = OLD.group_id;
                await w.user.click(w.button(fill('matrix.reauthorizeOf', { name: OLD.nickname })));
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'getAuthUrl',
                  input: [{ platform: 'douyin', group_id: 5 }],
                });
                return;
              case 'BIND dialog': {
                const d = within(w.dialog()!);
                const platform = d.getByRole('combobox', { name: text('matrix.platform') });
                // Douyin only: the assisted platforms are listed, not choosable yet.
                const options = [...(platform as HTMLSelectElement).options];
                expect(options.filter((o) => !o.disabled).map((o) => o.value)).toEqual(['douyin']);
                await w.user.click(submit());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'getAuthUrl',
                  input: [{ platform: 'douyin', ...(group !== null ? { group_id: group } : {}) }],
                });
                return;
              }
              case 'done.authUrl':
                return w.endpoints.settle('getAuthUrl', 'done', { url: AUTH_URL });
              case 'error.authUrl':
                return w.endpoints.settle('getAuthUrl', 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(BIND)).toEqual([]);
  });
});

test('the new account’s group goes to the call', async () => {
  const w = await setup();
  await w.user.click(w.button(text('matrix.bindAccount')));
  const d = within(w.dialog()!);
  await w.user.selectOptions(d.getByRole('combobox', { name: text('matrix.bindGroup') }), '5');
  await w.user.click(d.getByRole('button', { name: text('matrix.bindSubmit') }));
  expect(w.endpoints.calls.at(-1)).toEqual({
    name: 'getAuthUrl',
    input: [{ platform: 'douyin', group_id: 5 }],
  });
  w.dispose();
});

test('the bind dialog opens fresh: a group chosen and cancelled is not kept', async () => {
  const w = await setup();
  await w.user.click(w.button(text('matrix.bindAccount')));
  let d = within(w.dialog()!);
  const group = () =>
    d.getByRole('combobox', { name: text('matrix.bindGroup') }) as HTMLSelectElement;
  await w.user.selectOptions(group(), '5');
  await w.user.click(d.getByRole('button', { name: text('form.cancel') }));
  expect(w.dialog()).toBeNull();
  await w.user.click(w.button(text('matrix.bindAccount')));
  d = within(w.dialog()!);
  expect(group().value).toBe('0');
  await w.user.click(d.getByRole('button', { name: text('matrix.bindSubmit') }));
  expect(w.endpoints.calls.at(-1)).toEqual({ name: 'getAuthUrl', input: [{ platform: 'douyin' }] });
  w.dispose();
});

// ---------------------------------------------------------------------------------------------
// Refresh now ("Shop A"): the outcome is the page's notice (the console's text, or the server's
// refusal); the area reloads the list either way (the status and last error may have changed).

const REFRESH: Record<string, string> = {
  'idle REFRESH': 'refreshing',
  'refreshing done.refresh': 'refreshed',
  'refreshing error.refresh': 'refused',
  'refreshed DISMISS': 'idle',
  'refused DISMISS': 'idle',
  'refreshed REFRESH': 'refreshing again',
  'refreshing again error.refresh': 'refused',
  'refused REFRESH': 'refreshing again',
  'refreshing again done.refresh': 'refreshed',
  'refreshing again DISMISS': 'refreshing',
};
const refreshLabel = (e: PageEvent) => e.type.replace(/^xstate\./, '').replace('.actor', '');

describe('refresh now (page machine, refresh and notice regions)', () => {
  const rows = rowsUsed();
  const events: PageEvent[] = [
    { type: 'REFRESH', id: SHOP.id, name: SHOP.nickname },
    { type: 'xstate.done.actor.refresh', output: SHOP } as never,
    { type: 'xstate.error.actor.refresh', error: replyError(REFUSAL) } as never,
    { type: 'DISMISS' },
  ];
  const paths = regionPaths(
    events,
    () => true,
    (s) => [(s.value as { refresh: string }).refresh, s.context.notice?.tone ?? null],
    REFRESH,
    'idle',
    refreshLabel,
  );
  test.each(paths.map((p) => [pathName(p, refreshLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const refresh = () => w.button(fill('matrix.refreshNowOf', { name: SHOP.nickname }));
      const idleButton = () => {
        expect(refresh().disabled).toBe(false);
        expect(refresh().getAttribute('aria-busy')).not.toBe('true');
      };
      const sees: Record<string, () => void> = {
        idle: () => {
          idleButton();
          expect(w.notice()).toBeNull();
        },
        refreshing: () => {
          expect(refresh().getAttribute('aria-busy')).toBe('true');
          expect(w.notice()).toBeNull();
        },
        'refreshing again': () => {
          expect(refresh().getAttribute('aria-busy')).toBe('true');
          expect(refresh().disabled).toBe(true);
          expect(w.notice()).not.toBeNull();
        },
        refreshed: () => {
          idleButton();
          expect(w.notice()!.getAttribute('role')).toBe('status');
          expect(w.notice()!.textContent).toContain(fill('matrix.refreshed', { name: 'Shop A' }));
        },
        refused: () => {
          idleButton();
          expect(w.notice()!.getAttribute('role')).toBe('alert');
          expect(w.notice()!.textContent).toContain(REFUSAL);
        },
      };
      w.take();
      await runUiPath(
        path,
        {
          initial: 'idle',
          transitions: REFRESH,
          label: refreshLabel,
          sees,
          effects: {
            take: w.take,
            expected: {
              'refreshing done.refresh': ['list'],
              'refreshing error.refresh': ['list'],
              'refreshing again done.refresh': ['list'],
              'refreshing again error.refresh': ['list'],
            },
          },
          exec: async (event) => {
            switch (event.type) {
              case 'REFRESH':
                await w.user.click(refresh());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'refreshAccount',
                  input: [{ id: 1 }, { quiet: true }],
                });
                return;
              case 'DISMISS':
                return w.user.click(w.button(text('matrix.dismiss')));
              default:
                return refreshLabel(event) === 'done.refresh'
                  ? w.endpoints.settle('refreshAccount', 'done', SHOP)
                  : w.endpoints.settle('refreshAccount', 'error', replyError(REFUSAL));
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(REFRESH)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The selection: "a" (Shop A) and "b" (Old shop). SHOWN b: the person filters by nickname "old"
// (then resets the filters): only b was still shown.

const SELECTION: Record<string, string> = {
  'none TOGGLE a': 'a',
  'none TOGGLE b': 'b',
  'none SELECT_PAGE': 'ab',
  'a TOGGLE a': 'none',
  'a TOGGLE b': 'ab',
  'a SELECT_PAGE': 'ab',
  'a CLEAR': 'none',
  'a SHOWN b': 'none',
  'b TOGGLE a': 'ab',
  'b TOGGLE b': 'none',
  'b SELECT_PAGE': 'ab',
  'b CLEAR': 'none',
  'b SHOWN b': 'b',
  'ab TOGGLE a': 'b',
  'ab TOGGLE b': 'a',
  'ab CLEAR': 'none',
  'ab SHOWN b': 'b',
};
const selectionLabel = (e: PageEvent) => {
  if (e.type === 'TOGGLE') return `TOGGLE ${e.id === SHOP.id ? 'a' : 'b'}`;
  if (e.type === 'SHOWN') return 'SHOWN b';
  return e.type;
};

describe('the selection (page machine, selection region)', () => {
  const rows = rowsUsed();
  const events: PageEvent[] = [
    { type: 'TOGGLE', id: SHOP.id },
    { type: 'TOGGLE', id: OLD.id },
    { type: 'SELECT_PAGE', ids: [SHOP.id, OLD.id] },
    { type: 'CLEAR' },
    { type: 'SHOWN', ids: [OLD.id] },
  ];
  const paths = regionPaths(
    events,
    (s, e) => !(e.type === 'SELECT_PAGE' && s.context.selected.length === 2),
    (s) => [...s.context.selected].sort(),
    SELECTION,
    'none',
    selectionLabel,
  );
  test.each(paths.map((p) => [pathName(p, selectionLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const box = (r: MatrixAccount) =>
        screen.getByRole('checkbox', {
          name: fill('matrix.select', { name: r.nickname }),
        }) as HTMLInputElement;
      const sees = (state: string) => () => {
        expect(box(SHOP).checked).toBe(state.includes('a'));
        expect(box(OLD).checked).toBe(state.includes('b'));
        const count = state === 'none' ? 0 : state.length;
        expect(w.button(fill('matrix.deleteSelected', { count })).disabled).toBe(count === 0);
        expect(w.button(fill('matrix.moveSelected', { count })).disabled).toBe(count === 0);
        expect(w.button(text('matrix.clearSelection')).disabled).toBe(count === 0);
      };
      const search = () => screen.getByRole('search', { name: text('matrix.filters') });
      await runUiPath(
        path,
        {
          initial: 'none',
          transitions: SELECTION,
          label: selectionLabel,
          sees: Object.fromEntries(['none', 'a', 'b', 'ab'].map((s) => [s, sees(s)])),
          exec: async (event) => {
            switch (event.type) {
              case 'TOGGLE':
                return w.user.click(box(event.id === SHOP.id ? SHOP : OLD));
              case 'SELECT_PAGE':
                return w.user.click(
                  within(screen.getByRole('group', { name: text('matrix.toolbar') })).getByRole(
                    'checkbox',
                    { name: text('matrix.selectPage') },
                  ),
                );
              case 'CLEAR':
                return w.user.click(w.button(text('matrix.clearSelection')));
              case 'SHOWN': {
                const field = within(search()).getByRole('textbox', {
                  name: text('matrix.keyword'),
                });
                await w.user.type(field, 'old');
                await w.user.click(
                  within(search()).getByRole('button', { name: text('filter.search') }),
                );
                await vi.waitFor(() => expect(screen.queryByText(SHOP.nickname)).toBeNull());
                await w.user.click(
                  within(search()).getByRole('button', { name: text('filter.reset') }),
                );
                await vi.waitFor(() => screen.getByText(SHOP.nickname));
                return;
              }
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(SELECTION)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The platform's return.

describe('the return from the platform', () => {
  test.each([
    ['?bound=7', 'status', text('matrix.bound')],
    ['?error=matrix.authDeclined', 'alert', text('matrix.authDeclined')],
    ['?error=matrix.accountBoundElsewhere', 'alert', text('matrix.accountBoundElsewhere')],
    ['?error=matrix.somethingNew', 'alert', text('matrix.bindFailed')],
  ])('%s: says so once, then the address has no parameter', async (search, role, said) => {
    const w = await setup({ search: `${search}&tab=x` });
    await vi.waitFor(() => expect(w.notice()).not.toBeNull());
    expect(w.notice()!.getAttribute('role')).toBe(role);
    expect(w.notice()!.textContent).toContain(said);
    // Never the raw id.
    expect(w.notice()!.textContent).not.toContain('matrix.');
    expect(w.search()).toBe('?tab=x');
    await w.user.click(w.button(text('matrix.dismiss')));
    expect(w.notice()).toBeNull();
    w.dispose();
  });

  test('no parameter: no notice', async () => {
    const w = await setup();
    expect(w.notice()).toBeNull();
    w.dispose();
  });
});

// ---------------------------------------------------------------------------------------------
// The list: rows, filters, groups, paging, empty.

describe('the list', () => {
  test('each row: nickname, test badge, platform, fans, group, status, dates, last error, its actions', async () => {
    const w = await setup();
    const table = screen.getByRole('table', { name: text('matrix.list') });
    const [, shopRow, oldRow] = within(table).getAllByRole('row');
    const shop = within(shopRow);
    shop.getByText('Shop A');
    shop.getByText(text('matrix.testAccount'));
    shop.getByText(text('matrix.platformDouyin'));
    shop.getByText('12,345');
    shop.getByText(text('matrix.ungrouped'));
    shop.getByText(text('matrix.statusNormal'));
    shop.getByText(text('matrix.never'));
    const date = (ms: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
    shop.getByText(date(SHOP.expires_at));
    shop.getByRole('button', { name: fill('matrix.refreshNowOf', { name: 'Shop A' }) });
    expect(shop.queryByRole('button', { name: /Re-authorise/ })).toBeNull();
    const old = within(oldRow);
    expect(old.queryByText(text('matrix.testAccount'))).toBeNull();
    old.getByText('Brand');
    old.getByText(text('matrix.statusExpired'));
    old.getByText(date(OLD.last_refresh_at!));
    old.getByText('The token expired');
    old.getByRole('button', { name: fill('matrix.reauthorizeOf', { name: 'Old shop' }) });
    expect(old.queryByRole('button', { name: /Refresh now/ })).toBeNull();
    w.dispose();
  });

  test('platform, status, nickname and group go to the list call; Reset clears them', async () => {
    const w = await setup();
    const search = within(screen.getByRole('search', { name: text('matrix.filters') }));
    await w.user.selectOptions(
      search.getByRole('combobox', { name: text('matrix.platform') }),
      'douyin',
    );
    await w.user.selectOptions(
      search.getByRole('combobox', { name: text('matrix.status') }),
      'expired',
    );
    await w.user.type(search.getByRole('textbox', { name: text('matrix.keyword') }), ' old ');
    await w.user.click(search.getByRole('button', { name: text('filter.search') }));
    expect(w.queries.at(-1)).toEqual({
      platform: 'douyin',
      status: 'expired',
      keyword: 'old',
      page: 1,
      limit: 20,
    });
    await vi.waitFor(() => expect(screen.queryByText('Shop A')).toBeNull());
    const groups = within(screen.getByRole('navigation', { name: text('matrix.groups') }));
    await w.user.click(
      groups.getByRole('button', {
        name: fill('matrix.groupWithCount', { name: 'Brand', count: 1 }),
      }),
    );
    expect(w.queries.at(-1)).toMatchObject({ group_id: 5, status: 'expired' });
    await w.user.click(
      groups.getByRole('button', {
        name: fill('matrix.groupWithCount', { name: text('matrix.ungrouped'), count: 1 }),
      }),
    );
    expect(w.queries.at(-1)).toMatchObject({ group_id: 0 });
    await vi.waitFor(() => screen.getByText(text('matrix.noMatch')));
    await w.user.click(w.button(text('matrix.clearFilters')));
    expect(w.queries.at(-1)).toEqual({ page: 1, limit: 20 });
    await vi.waitFor(() => screen.getByText('Shop A'));
    w.dispose();
  });

  test('paging: Next page asks for page 2; rows per page goes back to page 1', async () => {
    const w = await setup({ total: 45 });
    const pages = within(
      screen.getByRole('navigation', {
        name: fill('table.pagination', { table: text('matrix.list') }),
      }),
    );
    pages.getByText(fill('table.pageOf', { page: 1, pages: 3 }));
    await w.user.click(pages.getByRole('button', { name: text('table.next') }));
    expect(w.queries.at(-1)).toEqual({ page: 2, limit: 20 });
    await vi.waitFor(() => pages.getByText(fill('table.pageOf', { page: 2, pages: 3 })));
    await w.user.selectOptions(pages.getByRole('combobox', { name: text('table.pageSize') }), '50');
    expect(w.queries.at(-1)).toEqual({ page: 1, limit: 50 });
    w.dispose();
  });

  test('no accounts at all: says how to start', async () => {
    const w = await setup({ rows: [] });
    screen.getByText(text('matrix.empty'));
    expect(screen.queryByRole('button', { name: text('matrix.clearFilters') })).toBeNull();
    w.dispose();
  });
});

// ---------------------------------------------------------------------------------------------
// The dialogs: each opened by its button, refused once (the server's sentence), sent again and
// saved; then the dialog is gone and the area reloaded what shows the change.

interface DialogCase {
  name: string;
  open: (w: World) => Promise<void>;
  title: string;
  submit: string;
  says?: string;
  fill?: (w: World, dialog: HTMLElement) => Promise<void>;
  endpoint: string;
  body: unknown;
  reply: unknown;
  /** Reloads the area does after the save: [list, groups]. */
  reloads: [number, number];
}

const selectBoth = async (w: World) => {
  for (const r of [SHOP, OLD]) {
    await w.user.click(
      screen.getByRole('checkbox', { name: fill('matrix.select', { name: r.nickname }) }),
    );
  }
};
const chooseBrand = async (w: World, d: HTMLElement) => {
  await w.user.selectOptions(within(d).getByRole('combobox', { name: text('matrix.group') }), '5');
};

const DIALOGS: DialogCase[] = [
  {
    name: 'delete one',
    open: (w) => w.user.click(w.button(fill('matrix.deleteOf', { name: 'Shop A' }))),
    title: text('matrix.deleteTitle'),
    submit: text('matrix.delete'),
    says: fill('matrix.deleteOneWhat', { name: 'Shop A' }),
    endpoint: 'deleteAccounts',
    body: { ids: [1] },
    reply: { deleted: 1 },
    reloads: [1, 1],
  },
  {
    name: 'delete the selection',
    open: async (w) => {
      await selectBoth(w);
      await w.user.click(w.button(fill('matrix.deleteSelected', { count: 2 })));
    },
    title: text('matrix.deleteTitle'),
    submit: text('matrix.delete'),
    says: fill('matrix.deleteManyWhat', { count: 2 }),
    endpoint: 'deleteAccounts',
    body: { ids: [1, 2] },
    reply: { deleted: 2 },
    reloads: [1, 1],
  },
  {
    name: 'move one',
    open: (w) => w.user.click(w.button(fill('matrix.moveOf', { name: 'Shop A' }))),
    title: fill('matrix.moveOneTitle', { name: 'Shop A' }),
    submit: text('matrix.move'),
    fill: chooseBrand,
    endpoint: 'moveAccounts',
    body: { ids: [1], group_id: 5 },
    reply: { moved: 1 },
    reloads: [1, 1],
  },
  {
    name: 'move the selection to ungrouped',
    open: async (w) => {
      await selectBoth(w);
      await w.user.click(w.button(fill('matrix.moveSelected', { count: 2 })));
    },
    title: fill('matrix.moveManyTitle', { count: 2 }),
    submit: text('matrix.move'),
    endpoint: 'moveAccounts',
    body: { ids: [1, 2], group_id: 0 },
    reply: { moved: 2 },
    reloads: [1, 1],
  },
  {
    name: 'new group',
    open: (w) => w.user.click(w.button(text('matrix.newGroup'))),
    title: text('matrix.newGroup'),
    submit: text('matrix.create'),
    fill: async (w, d) => {
      await w.user.type(within(d).getByRole('textbox', { name: text('matrix.groupName') }), 'Ads');
    },
    endpoint: 'addGroup',
    body: { name: 'Ads' },
    reply: { id: 6, name: 'Ads', count: 0 },
    reloads: [0, 1],
  },
  {
    name: 'rename group',
    open: (w) => w.user.click(w.button(fill('matrix.renameGroup', { name: 'Brand' }))),
    title: fill('matrix.renameGroupTitle', { name: 'Brand' }),
    submit: text('form.save'),
    fill: async (w, d) => {
      const input = within(d).getByRole('textbox', { name: text('matrix.groupName') });
      await w.user.clear(input);
      await w.user.type(input, 'Logos');
    },
    endpoint: 'editGroup',
    body: { id: 5, name: 'Logos' },
    reply: { id: 5, name: 'Logos', count: 1 },
    reloads: [0, 1],
  },
  {
    name: 'delete group',
    open: (w) => w.user.click(w.button(fill('matrix.deleteGroup', { name: 'Brand' }))),
    title: fill('matrix.deleteGroupTitle', { name: 'Brand' }),
    submit: text('matrix.delete'),
    says: 'Its 1 account moves to Ungrouped.',
    endpoint: 'deleteGroup',
    body: { id: 5 },
    reply: null,
    reloads: [1, 1],
  },
];

describe.each(DIALOGS)('the $name dialog', (d) => {
  test('opens, shows a refusal, sends again and saves; the area reloads what shows it', async () => {
    const w = await setup();
    const lists = w.listLoads();
    const groups = w.groupLoads();
    await d.open(w);
    const dialog = w.dialog()!;
    expect(dialog).not.toBeNull();
    within(dialog).getByRole('heading', { name: d.title });
    if (d.says) within(dialog).getByText(d.says, { exact: false });
    await d.fill?.(w, dialog);
    await w.user.click(within(dialog).getByRole('button', { name: d.submit }));
    expect(w.endpoints.calls.at(-1)).toEqual({ name: d.endpoint, input: [d.body] });
    await w.endpoints.settle(d.endpoint, 'error', replyError(REFUSAL));
    expect(within(w.dialog()!).getByRole('alert').textContent).toContain(REFUSAL);
    expect(w.listLoads()).toBe(lists);
    await w.user.click(within(w.dialog()!).getByRole('button', { name: d.submit }));
    expect(w.endpoints.calls.at(-1)).toEqual({ name: d.endpoint, input: [d.body] });
    await w.endpoints.settle(d.endpoint, 'done', d.reply);
    expect(w.dialog()).toBeNull();
    expect([w.listLoads() - lists, w.groupLoads() - groups]).toEqual(d.reloads);
    // A bulk change leaves nothing selected.
    expect(w.button(fill('matrix.deleteSelected', { count: 0 })).disabled).toBe(true);
    w.dispose();
  });
});

test('Cancel closes the delete confirmation and deletes nothing', async () => {
  const w = await setup();
  await w.user.click(w.button(fill('matrix.deleteOf', { name: 'Shop A' })));
  await w.user.click(within(w.dialog()!).getByRole('button', { name: text('form.cancel') }));
  expect(w.dialog()).toBeNull();
  expect(w.endpoints.calls).toEqual([]);
  w.dispose();
});

test('deleting the group the list shows moves the list to Ungrouped, where its accounts went', async () => {
  const w = await setup();
  const groups = within(screen.getByRole('navigation', { name: text('matrix.groups') }));
  await w.user.click(
    groups.getByRole('button', {
      name: fill('matrix.groupWithCount', { name: 'Brand', count: 1 }),
    }),
  );
  expect(w.queries.at(-1)).toMatchObject({ group_id: 5 });
  await w.user.click(w.button(fill('matrix.deleteGroup', { name: 'Brand' })));
  await w.user.click(within(w.dialog()!).getByRole('button', { name: text('matrix.delete') }));
  await w.endpoints.settle('deleteGroup', 'done', null);
  expect(w.queries.at(-1)).toMatchObject({ group_id: 0 });
  w.dispose();
});
