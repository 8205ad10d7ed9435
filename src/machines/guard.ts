import { and, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  canOpen,
  firstAllowedRoute,
  homeRoute,
  LOGIN_ROUTE,
  matchRoute,
  MENU_WHITE_LIST,
  REDIRECTS,
  type AccessSubject,
  type RouteRecord,
} from '../app/routes/route-table';
import type { AuthSummary, TokenKind } from './auth';

/**
 * The route guard of docs/domain.md §13: one actor per navigation. It waits for the auth actor (and for the
 * server menu when "menu from server" is on), may ask for an overstep login, then decides with
 * named guards and ends with `{type: 'allow'}` or `{type: 'redirect', to}` as its output.
 * The waiting and the overstep are placeholder actors injected by src/app/actors/app-actors.ts.
 */

export interface GuardInput {
  pathname: string;
  search: string;
  /** The token this tab holds when the navigation starts (session storage wins). */
  tokenKind: TokenKind | null;
  menuFromServer: boolean;
}

export type GuardDecision = { type: 'allow' } | { type: 'redirect'; to: string };

export interface GuardContext {
  pathname: string;
  search: string;
  route: RouteRecord;
  tokenKind: TokenKind | null;
  menuFromServer: boolean;
  auth: AuthSummary | null;
  /** Route names of the server menu once fetched (empty when the menu failed to load). */
  menuNames: string[] | null;
  overstepTried: boolean;
  decision: GuardDecision | null;
}

/** Where a forbidden route leads when the user may open nothing else: a path no route matches. */
export const NOT_FOUND_PATH = '/404';

export const ANONYMOUS: AuthSummary = {
  signedIn: false,
  role: null,
  showClipMenu: 1,
  tokenKind: null,
  overstepFailed: false,
};

/** `login_type=1&merchant_id=<positive integer>`: the merchant to step in as, else null. */
export function overstepMerchantId(search: string): number | null {
  const query = new URLSearchParams(search);
  if (query.get('login_type') !== '1') return null;
  const id = Number(query.get('merchant_id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

function withoutOverstepQuery(search: string): string {
  const query = new URLSearchParams(search);
  query.delete('login_type');
  query.delete('merchant_id');
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

function cleanPath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return path || '/';
}

function loginUrl(pathname: string, search: string): string {
  return `${LOGIN_ROUTE}?redirect=${encodeURIComponent(pathname + withoutOverstepQuery(search))}`;
}

/** A same-origin path from `?redirect=` (never `//host` or a URL), else null. */
function safeRedirect(search: string): string | null {
  const target = new URLSearchParams(search).get('redirect');
  if (!target || !target.startsWith('/') || target.startsWith('//')) return null;
  return matchRoute(target.split('?')[0]).name === 'login' ? null : target;
}

function subject(auth: AuthSummary | null): AccessSubject | null {
  return auth?.signedIn && auth.role
    ? { role: auth.role, show_clip_menu: auth.showClipMenu }
    : null;
}

/** The user's home page (the default route when they may open it), else not-found. */
function homeFor(user: AccessSubject): string {
  return homeRoute(user)?.path ?? NOT_FOUND_PATH;
}

export const guardMachine = setup({
  types: {
    context: {} as GuardContext,
    input: {} as GuardInput,
    output: {} as GuardDecision,
    tags: {} as 'guardPending',
  },
  actors: {
    /** Resolves once the auth actor no longer has the `authPending` tag. */
    waitForAuth: fromPromise<AuthSummary>(async () => {
      throw new Error('guard: provide waitForAuth');
    }),
    /** Sends OVERSTEP to the auth actor and resolves with its summary once it settled. */
    overstep: fromPromise<AuthSummary, { merchantId: number }>(async () => {
      throw new Error('guard: provide overstep');
    }),
    /** Loads the server menu if needed; resolves with its route names ([] when it failed). */
    waitForMenu: fromPromise<string[]>(async () => {
      throw new Error('guard: provide waitForMenu');
    }),
  },
  actions: {
    redirect: assign((_, params: { to: string }) => ({
      decision: { type: 'redirect' as const, to: params.to },
    })),
  },
  guards: {
    wantsOverstep: ({ context }) =>
      !context.overstepTried &&
      context.tokenKind !== 'session' &&
      overstepMerchantId(context.search) !== null,
    needsServerMenu: ({ context }) =>
      context.menuFromServer && context.menuNames === null && subject(context.auth) !== null,
    // Only for the navigation that tried the overstep: the auth actor keeps `overstepFailed` until
    // the next login, and applying it to the /login navigation it leads to loops for ever.
    overstepFailed: ({ context }) => context.overstepTried && context.auth?.overstepFailed === true,
    isRedirectPath: ({ context }) => REDIRECTS[context.pathname] !== undefined,
    signedInOnLogin: ({ context }) =>
      context.route.name === 'login' && subject(context.auth) !== null,
    isPublicRoute: ({ context }) => !context.route.requiresAuth,
    isAnonymous: ({ context }) => subject(context.auth) === null,
    roleForbidsRoute: ({ context }) => {
      const user = subject(context.auth);
      return user !== null && !canOpen(context.route, user);
    },
    hasAllowedRoute: ({ context }) => {
      const user = subject(context.auth);
      return user !== null && firstAllowedRoute(user) !== undefined;
    },
    missingFromServerMenu: ({ context }) =>
      context.menuFromServer &&
      !MENU_WHITE_LIST.includes(context.route.name) &&
      !(context.menuNames ?? []).includes(context.route.name),
  },
}).createMachine({
  id: 'guard',
  context: ({ input }) => {
    const pathname = cleanPath(input.pathname);
    return {
      pathname,
      search: input.search,
      route: matchRoute(pathname),
      tokenKind: input.tokenKind,
      menuFromServer: input.menuFromServer,
      auth: null,
      menuNames: null,
      overstepTried: false,
      decision: null,
    };
  },
  initial: 'waitingForAuth',
  states: {
    waitingForAuth: {
      tags: ['guardPending'],
      invoke: {
        id: 'waitForAuth',
        src: 'waitForAuth',
        onDone: { target: 'routing', actions: assign({ auth: ({ event }) => event.output }) },
        onError: { target: 'routing', actions: assign({ auth: ANONYMOUS }) },
      },
    },

    routing: {
      always: [
        { guard: 'wantsOverstep', target: 'overstepping' },
        { guard: 'needsServerMenu', target: 'waitingForMenu' },
        { target: 'deciding' },
      ],
    },

    overstepping: {
      tags: ['guardPending'],
      invoke: {
        id: 'overstep',
        src: 'overstep',
        input: ({ context }) => ({ merchantId: overstepMerchantId(context.search) ?? 0 }),
        onDone: {
          target: 'routing',
          actions: assign({
            auth: ({ event }) => event.output,
            tokenKind: ({ event }) => event.output.tokenKind,
            overstepTried: true,
          }),
        },
        onError: {
          target: 'routing',
          actions: assign({ auth: { ...ANONYMOUS, overstepFailed: true }, overstepTried: true }),
        },
      },
    },

    waitingForMenu: {
      tags: ['guardPending'],
      invoke: {
        id: 'waitForMenu',
        src: 'waitForMenu',
        onDone: { target: 'deciding', actions: assign({ menuNames: ({ event }) => event.output }) },
        onError: { target: 'deciding', actions: assign({ menuNames: [] }) },
      },
    },

    /** Spec §2's rules, first match wins. */
    deciding: {
      always: [
        {
          guard: 'overstepFailed',
          target: 'redirected',
          actions: {
            type: 'redirect',
            params: ({ context: c }) => ({ to: loginUrl(c.pathname, c.search) }),
          },
        },
        {
          guard: 'isRedirectPath',
          target: 'redirected',
          actions: {
            type: 'redirect',
            params: ({ context: c }) => ({ to: REDIRECTS[c.pathname] + c.search }),
          },
        },
        {
          guard: 'signedInOnLogin',
          target: 'redirected',
          actions: {
            type: 'redirect',
            params: ({ context: c }) => ({
              to: safeRedirect(c.search) ?? homeFor(subject(c.auth)!),
            }),
          },
        },
        { guard: 'isPublicRoute', target: 'allowed' },
        {
          guard: 'isAnonymous',
          target: 'redirected',
          actions: {
            type: 'redirect',
            params: ({ context: c }) => ({ to: loginUrl(c.pathname, c.search) }),
          },
        },
        {
          guard: and(['roleForbidsRoute', 'hasAllowedRoute']),
          target: 'redirected',
          actions: {
            type: 'redirect',
            params: ({ context: c }) => ({ to: firstAllowedRoute(subject(c.auth)!)!.path }),
          },
        },
        {
          guard: 'roleForbidsRoute',
          target: 'redirected',
          actions: { type: 'redirect', params: { to: NOT_FOUND_PATH } },
        },
        {
          guard: 'missingFromServerMenu',
          target: 'redirected',
          actions: { type: 'redirect', params: { to: NOT_FOUND_PATH } },
        },
        { target: 'allowed' },
      ],
    },

    allowed: {
      type: 'final',
      entry: assign({ decision: { type: 'allow' } }),
    },
    redirected: { type: 'final' },
  },
  output: ({ context }) => context.decision ?? { type: 'allow' },
});

export type GuardMachine = typeof guardMachine;
export type GuardSnapshot = SnapshotFrom<typeof guardMachine>;
