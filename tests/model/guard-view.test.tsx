/**
 * The route guard through the real console: the real app actors and the real router
 * (route table, guard loader, /redirect/…, the not-found route), opened at a URL with or without
 * a stored token. The guard machine only proposes event sequences (`getShortestPaths`); each step
 * is a fake endpoint settling at the HTTP boundary (the user info of a role, the overstep login,
 * the server menu), and the state after it comes from the hand-written tables below: the quiet
 * spinner while the guard waits, then the address and the page a person ends on (redirects
 * followed, as the browser follows them).
 *
 * A stored token the server no longer knows logs out; that logout call is left unanswered (the
 * guard has decided by then, and a network reply comes after the redirect).
 *
 * Not reachable through the console, so not proposed: `waitForAuth`, `overstep` and
 * `waitForMenu` rejecting. Their promises (app-actors.ts, `waitFor`) reject only when the auth or
 * menu actor stops, which the console never does while it runs.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { getInitialSnapshot, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { MenuItem } from '../../src/api/contract/dashboard';
import type { AuthSummary } from '../../src/machines/auth';
import { guardMachine, type GuardSnapshot } from '../../src/machines/guard';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { appWorld, preloadConsole, SESSION_TOKEN, USERS, type World } from './app-world';
import { loginReply, replyError } from './fixtures';
import { BRANDING } from './view-harness';
import { pathName, rowsUsed, runUiPath, settle, withoutPrefixes } from './ui-paths';

type Role = keyof typeof USERS;

// ---------------------------------------------------------------------------------------------
// The oracle, written from docs/domain.md §13 (route access, redirects, overstep, menu from server). A
// state is what a person sees: 'loading' while the guard waits (named by what it waits for), or
// the address the console ends on.

interface Navigation {
  name: string;
  url: string;
  token: 'local' | null;
  menuFromServer: boolean;
  /** The roles whose user info a path may bring (token 'local'). */
  roles: (Role | 'nobody')[];
  /** The state a person sees first (hand-written). */
  initial: string;
  transitions: Record<string, string>;
}

const OVERSTEP = '/promotion/merchant?login_type=1&merchant_id=5';

const NAVIGATIONS: Navigation[] = [
  {
    name: 'an overstep link to a customers page, menu from server',
    url: OVERSTEP,
    token: 'local',
    menuFromServer: true,
    roles: ['admin', 'partner'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: admin': 'overstepping',
      'waiting for auth user info: partner': 'overstepping',
      'overstepping overstep: merchant': 'waiting for menu',
      // The overstep query is dropped from where the login leads back to.
      'overstepping overstep refused': '/login?redirect=%2Fpromotion%2Fmerchant',
      // A merchant may not open the merchants page: the first page a merchant may open.
      'waiting for menu menu: merchant, workBench, clip': '/dashboard/workBench',
      // …which a failed server menu does not list.
      'waiting for menu menu fails': '/404',
    },
  },
  {
    name: 'an overstep link opened by a visitor, menu from server',
    url: OVERSTEP,
    token: null,
    menuFromServer: true,
    roles: [],
    initial: 'overstepping',
    transitions: {
      'overstepping overstep: merchant': 'waiting for menu',
      'overstepping overstep refused': '/login?redirect=%2Fpromotion%2Fmerchant',
      'waiting for menu menu: merchant, workBench, clip': '/dashboard/workBench',
      'waiting for menu menu fails': '/404',
    },
  },
  {
    name: 'the login page',
    url: '/login',
    token: 'local',
    menuFromServer: false,
    roles: ['admin', 'partner', 'merchant', 'agent', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      // Signed in: home, else the first page the role may open.
      'waiting for auth user info: admin': '/home/index',
      'waiting for auth user info: partner': '/dashboard/workBench',
      'waiting for auth user info: merchant': '/dashboard/workBench',
      'waiting for auth user info: agent': '/user/info',
      'waiting for auth user info fails': '/login',
    },
  },
  {
    name: 'the login page with a way back',
    url: '/login?redirect=%2Fcreation%2Fclip',
    token: 'local',
    menuFromServer: false,
    roles: ['admin', 'merchant', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      // Back where the login came from, if the role may open it.
      'waiting for auth user info: merchant': '/creation/clip',
      'waiting for auth user info: admin': '/home/index',
      'waiting for auth user info fails': '/login?redirect=%2Fcreation%2Fclip',
    },
  },
  {
    name: 'the root',
    url: '/',
    token: 'local',
    menuFromServer: false,
    roles: ['admin', 'partner', 'agent', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: admin': '/home/index',
      'waiting for auth user info: partner': '/dashboard/workBench',
      'waiting for auth user info: agent': '/user/info',
      // / leads to /home/index first, which asks a visitor to log in.
      'waiting for auth user info fails': '/login?redirect=%2Fhome%2Findex',
    },
  },
  {
    name: 'the clip page, menu from server',
    url: '/creation/clip',
    token: 'local',
    menuFromServer: true,
    roles: ['admin', 'partner', 'merchant', 'agent', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: admin': 'waiting for menu (admin)',
      'waiting for auth user info: partner': 'waiting for menu (partner)',
      'waiting for auth user info: merchant': 'waiting for menu (merchant)',
      'waiting for auth user info: agent': 'waiting for menu (agent)',
      // A visitor is sent to log in without waiting for a menu.
      'waiting for auth user info fails': '/login?redirect=%2Fcreation%2Fclip',
      'waiting for menu (merchant) menu: merchant, workBench, clip': '/creation/clip',
      'waiting for menu (partner) menu: merchant, workBench, clip': '/creation/clip',
      // Not the admin's page: home, which the server menu does not list.
      'waiting for menu (admin) menu: merchant, workBench, clip': '/404',
      'waiting for menu (agent) menu: merchant, workBench, clip': '/404',
      'waiting for menu (merchant) menu fails': '/404',
      'waiting for menu (partner) menu fails': '/404',
      'waiting for menu (admin) menu fails': '/404',
      'waiting for menu (agent) menu fails': '/404',
    },
  },
  {
    name: 'a page no route matches',
    url: '/no/such/page',
    token: 'local',
    menuFromServer: false,
    roles: ['merchant', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: merchant': '/no/such/page',
      'waiting for auth user info fails': '/login?redirect=%2Fno%2Fsuch%2Fpage',
    },
  },
  {
    name: 'a tab reload (/redirect/…)',
    url: '/redirect/user%2Finfo',
    token: 'local',
    menuFromServer: false,
    roles: ['agent', 'nobody'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: agent': '/user/info',
      'waiting for auth user info fails': '/login?redirect=%2Fredirect%2Fuser%252Finfo',
    },
  },
  {
    name: 'the clip page, no token',
    url: '/creation/clip',
    token: null,
    menuFromServer: false,
    roles: [],
    initial: '/login?redirect=%2Fcreation%2Fclip',
    transitions: {},
  },
  {
    name: 'an admin page opened by a partner (a forbidden page)',
    url: '/exception/403',
    token: 'local',
    menuFromServer: false,
    roles: ['partner', 'admin'],
    initial: 'waiting for auth',
    transitions: {
      'waiting for auth user info: partner': '/dashboard/workBench',
      'waiting for auth user info: admin': '/exception/403',
    },
  },
];

/** The page a person sees at each address: its heading (hand-written). */
const PAGES: [RegExp, string][] = [
  [/^\/login/, enUS['login.title']],
  [/^\/home\/index$/, enUS['route.home']],
  [/^\/dashboard\/workBench$/, enUS['route.workBench']],
  [/^\/user\/info$/, enUS['route.userInfo']],
  [/^\/creation\/clip$/, enUS['route.clip']],
  [/^\/exception\/403$/, '403'],
  [/^\/404$|^\/no\/such\/page$/, '404'],
];

// ---------------------------------------------------------------------------------------------

const MENU: MenuItem[] = [
  {
    name: 'promotion',
    path: '/promotion',
    titleId: 'menu.promotion',
    hidden: false,
    children: [
      {
        name: 'merchant',
        path: '/promotion/merchant',
        titleId: 'route.merchant',
        hidden: false,
        children: [],
      },
    ],
  },
  {
    name: 'creation',
    path: '/creation',
    titleId: 'menu.creation',
    hidden: false,
    children: [
      {
        name: 'workBench',
        path: '/dashboard/workBench',
        titleId: 'route.workBench',
        hidden: false,
        children: [],
      },
      { name: 'clip', path: '/creation/clip', titleId: 'route.clip', hidden: false, children: [] },
    ],
  },
];

const summary = (role: Role, extra: Partial<AuthSummary> = {}): AuthSummary => ({
  signedIn: true,
  role,
  showClipMenu: 1,
  tokenKind: 'local',
  overstepFailed: false,
  ...extra,
});
const NOBODY: AuthSummary = {
  signedIn: false,
  role: null,
  showClipMenu: 1,
  tokenKind: null,
  overstepFailed: false,
};

type GuardStep = { type: string; output?: unknown };

/** The events a navigation's paths may take (each one a fake endpoint settling). */
function eventsOf(nav: Navigation): GuardStep[] {
  return [
    ...nav.roles.map((role) => ({
      type: 'xstate.done.actor.waitForAuth',
      output: role === 'nobody' ? NOBODY : summary(role),
    })),
    {
      type: 'xstate.done.actor.overstep',
      output: summary('merchant', { tokenKind: 'session' }),
    },
    { type: 'xstate.done.actor.overstep', output: { ...NOBODY, overstepFailed: true } },
    { type: 'xstate.done.actor.waitForMenu', output: ['merchant', 'workBench', 'clip'] },
    { type: 'xstate.done.actor.waitForMenu', output: [] },
  ];
}

function label(event: GuardStep): string {
  const id = event.type.replace('xstate.done.actor.', '');
  const out = event.output as Partial<AuthSummary> | string[];
  if (id === 'waitForMenu') {
    return (out as string[]).length ? `menu: ${(out as string[]).join(', ')}` : 'menu fails';
  }
  const auth = out as AuthSummary;
  if (id === 'overstep') return auth.overstepFailed ? 'overstep refused' : `overstep: ${auth.role}`;
  return auth.role ? `user info: ${auth.role}` : 'user info fails';
}

function serialize(snapshot: GuardSnapshot, event?: { type: string }): string {
  const { decision, auth, menuNames } = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    role: auth?.role ?? null,
    overstepFailed: auth?.overstepFailed ?? false,
    menu: menuNames,
    decision,
    via: event?.type ?? 'init',
  });
}

const REFUSED = 'Not your merchant';

/** Carries out a guard event as the server would answer. */
function executor(world: World) {
  const { endpoints } = world;
  return async (event: GuardStep) => {
    const name = label(event);
    const role = /^user info: (\w+)$/.exec(name)?.[1] as Role | undefined;
    if (role) await endpoints.settle('getUserInfo', 'done', USERS[role]);
    else if (name === 'user info fails')
      await endpoints.settle('getUserInfo', 'error', replyError('Session gone', 'unauthorized'));
    else if (name === 'overstep: merchant') {
      await endpoints.settle('overstepLogin', 'done', loginReply(SESSION_TOKEN, USERS.merchant));
      await endpoints.settle('getUserInfo', 'done', USERS.merchant);
    } else if (name === 'overstep refused')
      await endpoints.settle('overstepLogin', 'error', replyError(REFUSED));
    else if (name === 'menu fails')
      await endpoints.settle('getUserMenu', 'error', replyError('Busy'));
    else if (name.startsWith('menu: ')) await endpoints.settle('getUserMenu', 'done', MENU);
    else throw new Error(`no way to carry out ${name}`);
    // The redirects, the lazily loaded pages and the shell.
    for (let i = 0; i < 6; i++) await settle();
  };
}

/** What the server is asked while the guard waits. */
const ASKED: Record<string, string> = {
  'waiting for auth': 'getUserInfo',
  overstepping: 'overstepLogin',
  'waiting for menu': 'getUserMenu',
};

function sees(world: World, nav: Navigation, state: string) {
  return async () => {
    for (let i = 0; i < 6; i++) await settle();
    const waiting = /^(waiting for auth|overstepping|waiting for menu)/.exec(state)?.[1];
    // (The navigation progress bar carries the same name.)
    const spinner = screen
      .queryAllByLabelText(enUS['app.loading'])
      .find((el) => el.getAttribute('role') !== 'progressbar');
    if (waiting) {
      // The quiet spinner, still at the address opened; the server asked what the guard needs.
      expect(spinner, 'the spinner').toBeDefined();
      expect(screen.queryAllByRole('heading', { level: 1 })).toEqual([]);
      expect(world.url()).toBe(nav.url);
      const asked = world.endpoints.waiting().filter((n) => n !== 'logout');
      expect(asked).toEqual([ASKED[waiting]]);
      if (waiting === 'overstepping') {
        expect(
          world.endpoints.calls.filter((c) => c.name === 'overstepLogin').at(-1)?.input,
        ).toEqual([{ merchant_id: 5 }]);
      }
      return;
    }
    expect(world.url()).toBe(state);
    const heading = PAGES.find(([at]) => at.test(state.split('?')[0]))?.[1];
    expect(heading, `the test names no page at ${state}`).toBeDefined();
    expect(spinner, 'the spinner').toBeUndefined();
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      heading,
    ]);
    if (
      state.startsWith('/login') &&
      world.endpoints.calls.some((c) => c.name === 'overstepLogin')
    ) {
      // The login page says why the overstep failed.
      expect(screen.queryByText(REFUSED) !== null).toBe(
        nav.transitions[`overstepping overstep refused`] === state,
      );
    }
  };
}

beforeAll(preloadConsole, 180_000);
beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe.each(NAVIGATIONS)('guard: $name', (nav) => {
  const rows = rowsUsed();
  const [pathname, search = ''] = nav.url.split('?');
  const input = {
    pathname,
    search: search ? `?${search}` : '',
    tokenKind: nav.token,
    menuFromServer: nav.menuFromServer,
  };
  // Without a token the auth actor settles before the first paint: the paths start after it.
  const start = getInitialSnapshot(guardMachine, input);
  const fromState =
    nav.token === null
      ? transition(guardMachine, start, {
          type: 'xstate.done.actor.waitForAuth',
          output: NOBODY,
        } as never)[0]
      : start;
  const events = eventsOf(nav);
  const paths = withoutPrefixes(
    getShortestPaths(guardMachine, {
      fromState,
      events: (s) => events.filter((e) => s.can(e as never)) as never[],
      serializeState: (s, e) => serialize(s, e),
    }),
    (e) => label(e as GuardStep),
  );
  const states = new Set([nav.initial, ...Object.values(nav.transitions)]);

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = appWorld({
        token: nav.token,
        url: nav.url,
        stored: nav.menuFromServer ? { menuFromServer: true } : null,
        systemInfo: async () => BRANDING,
      });
      await runUiPath(
        path,
        {
          initial: nav.initial,
          transitions: nav.transitions,
          label,
          exec: executor(world),
          sees: Object.fromEntries([...states].map((s) => [s, sees(world, nav, s)])),
        },
        rows.used,
      );
      world.dispose();
    },
    180_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(nav.transitions)).toEqual([]);
  });
});
