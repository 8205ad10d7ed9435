import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { LoginReply, UserInfo } from '../api/contract/auth';
import { roleOf, type Role } from '../api/contract/roles';

/**
 * The session of this tab (docs/domain.md §14, §15): restore, login, overstep, user info, server-side logout
 * codes, HTTP 401 and logout. Pure: the API calls are placeholder actors and every storage or
 * window effect a placeholder action, both injected with `.provide()` (src/app/actors/app-actors.ts).
 *
 * SESSION_EXPIRED and SERVER_LOGOUT are only handled in `signedIn.active`, so however many
 * requests fail at once there is one dialog and one logout.
 */

export type TokenKind = 'local' | 'session';

export interface AuthInput {
  /** Where the stored token comes from (session storage wins), or null when there is none. */
  tokenKind: TokenKind | null;
}

export interface AuthContext {
  user: UserInfo | null;
  role: Role | null;
  tokenKind: TokenKind | null;
  /** For the login form: a message id or the server's sentence. */
  error: string | null;
  /** The last overstep login failed: the guard sends the visitor to login. */
  overstepFailed: boolean;
  /** Reload the page once the logout is done (Re-Login, 401 without a session token). */
  reloadAfterLogout: boolean;
  /** The reply code that opened the 'Confirm logout' dialog. */
  serverLogoutCode: number | null;
}

export type AuthEvent =
  | { type: 'LOGIN'; account: string; password: string }
  | { type: 'LOGOUT' }
  /** From the route guard: `login_type=1&merchant_id=…` and no session token. */
  | { type: 'OVERSTEP'; merchantId: number }
  /** From http.ts: reply code 50008/50012/50014. */
  | { type: 'SERVER_LOGOUT'; code: number }
  | { type: 'STAY' }
  | { type: 'RELOGIN' }
  /** From http.ts: HTTP 401. */
  | { type: 'SESSION_EXPIRED'; hadSessionToken: boolean }
  /** The expiry dialog's only button. */
  | { type: 'CONFIRM' }
  /** Another tab removed the local-storage token. */
  | { type: 'EXTERNAL_LOGOUT' }
  /** The server already ended every session of the user (password changed): no logout call. */
  | { type: 'SIGNED_OUT_BY_SERVER' }
  /** Fetch the user info again (after the profile was edited). */
  | { type: 'REFRESH_USER' };

/** What the guard learns from the auth actor once `authPending` is gone. */
export interface AuthSummary {
  signedIn: boolean;
  role: Role | null;
  showClipMenu: number;
  tokenKind: TokenKind | null;
  overstepFailed: boolean;
}

/** The failure's `msg` (an ApiError's: the sentence or message id the user saw), else `fallback`. */
export function messageOf(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && 'msg' in error) {
    const msg = (error as { msg: unknown }).msg;
    if (typeof msg === 'string' && msg) return msg;
  }
  return fallback;
}

const LOGIN_EXPIRED_DELAY_MS = 1500;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    tags: {} as
      | 'authPending'
      | 'signingIn'
      | 'signedIn'
      | 'loggingOut'
      | 'sessionExpiring'
      | 'sessionExpired',
  },
  actors: {
    getUserInfo: fromPromise<UserInfo>(async () => {
      throw new Error('auth: provide getUserInfo');
    }),
    login: fromPromise<LoginReply, { account: string; password: string }>(async () => {
      throw new Error('auth: provide login');
    }),
    overstepLogin: fromPromise<LoginReply, { merchantId: number }>(async () => {
      throw new Error('auth: provide overstepLogin');
    }),
    logout: fromPromise<unknown>(async () => {
      throw new Error('auth: provide logout');
    }),
  },
  actions: {
    storeToken: (_, _params: { kind: TokenKind; token: string }) => {},
    /** `kind: null` clears both storages. */
    clearToken: (_, _params: { kind: TokenKind | null }) => {},
    clearRouteListener: () => {},
    clearServerMenu: () => {},
    reload: () => {},
    closeWindow: () => {},
    forgetUser: assign({ user: null, role: null, serverLogoutCode: null }),
  },
  guards: {
    hasToken: ({ context }) => context.tokenKind !== null,
    hasSessionToken: ({ context }) => context.tokenKind === 'session',
    noSessionToken: ({ context }) => context.tokenKind !== 'session',
    usesLocalToken: ({ context }) => context.tokenKind === 'local',
    requestHadSessionToken: ({ event }) =>
      event.type === 'SESSION_EXPIRED' && event.hadSessionToken,
    reloadAfterLogout: ({ context }) => context.reloadAfterLogout,
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({
    user: null,
    role: null,
    tokenKind: input.tokenKind,
    error: null,
    overstepFailed: false,
    reloadAfterLogout: false,
    serverLogoutCode: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['authPending'],
      always: [{ guard: 'hasToken', target: 'loadingUser' }, { target: 'signedOut' }],
    },

    loadingUser: {
      tags: ['authPending'],
      invoke: {
        id: 'loadUser',
        src: 'getUserInfo',
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({
            user: event.output,
            role: roleOf(event.output.user_type),
            error: null,
          })),
        },
        onError: [
          // An overstep tab cannot log in again by itself: the expiry dialog closes it.
          { guard: 'hasSessionToken', target: 'sessionExpired' },
          {
            target: 'loggingOut',
            actions: assign({
              reloadAfterLogout: false,
              error: ({ event }) => messageOf(event.error, 'http.requestError'),
            }),
          },
        ],
      },
    },

    overstepping: {
      tags: ['authPending'],
      invoke: {
        id: 'overstep',
        src: 'overstepLogin',
        input: ({ event }) => {
          assertEvent(event, 'OVERSTEP');
          return { merchantId: event.merchantId };
        },
        onDone: {
          target: 'loadingUser',
          actions: [
            {
              type: 'storeToken',
              params: ({ event }) => ({ kind: 'session', token: event.output.userinfo.token }),
            },
            assign({ tokenKind: 'session', user: null, role: null }),
            'clearServerMenu',
          ],
        },
        onError: {
          target: 'signedOut',
          actions: [
            'forgetUser',
            assign({
              overstepFailed: true,
              error: ({ event }) => messageOf(event.error, 'http.requestError'),
            }),
            'clearServerMenu',
          ],
        },
      },
    },

    signedOut: {
      on: {
        LOGIN: {
          target: 'signingIn',
          actions: assign({ error: null, overstepFailed: false }),
        },
        OVERSTEP: {
          guard: 'noSessionToken',
          target: 'overstepping',
          actions: assign({ error: null, overstepFailed: false }),
        },
      },
    },

    signingIn: {
      tags: ['signingIn'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'LOGIN');
          return { account: event.account, password: event.password };
        },
        onDone: {
          target: 'loadingUser',
          actions: [
            { type: 'clearToken', params: { kind: 'session' } },
            {
              type: 'storeToken',
              params: ({ event }) => ({ kind: 'local', token: event.output.userinfo.token }),
            },
            assign({ tokenKind: 'local' }),
          ],
        },
        onError: {
          target: 'signedOut',
          actions: [
            { type: 'clearToken', params: { kind: 'local' } },
            assign({
              tokenKind: null,
              error: ({ event }) => messageOf(event.error, 'login.error'),
            }),
          ],
        },
      },
    },

    signedIn: {
      tags: ['signedIn'],
      initial: 'active',
      on: {
        LOGOUT: { target: 'loggingOut', actions: assign({ reloadAfterLogout: false }) },
        // Cleared here without a server call: the session is already over.
        EXTERNAL_LOGOUT: {
          guard: 'usesLocalToken',
          target: 'clearingSession',
          actions: assign({ reloadAfterLogout: false }),
        },
        SIGNED_OUT_BY_SERVER: {
          target: 'clearingSession',
          actions: assign({ reloadAfterLogout: false }),
        },
        OVERSTEP: { guard: 'noSessionToken', target: 'overstepping' },
      },
      states: {
        active: {
          initial: 'idle',
          on: {
            SERVER_LOGOUT: {
              target: 'confirmingLogout',
              actions: assign({
                serverLogoutCode: ({ event }) => {
                  assertEvent(event, 'SERVER_LOGOUT');
                  return event.code;
                },
              }),
            },
            SESSION_EXPIRED: [
              { guard: 'requestHadSessionToken', target: '#auth.sessionExpired' },
              { target: '#auth.expiring' },
            ],
          },
          states: {
            idle: { on: { REFRESH_USER: 'refreshing' } },
            refreshing: {
              invoke: {
                id: 'refreshUser',
                src: 'getUserInfo',
                onDone: {
                  target: 'idle',
                  actions: assign(({ event }) => ({
                    user: event.output,
                    role: roleOf(event.output.user_type),
                  })),
                },
                // The toast already said why; keep the user info we have.
                onError: { target: 'idle' },
              },
            },
          },
        },
        confirmingLogout: {
          on: {
            STAY: { target: 'active', actions: assign({ serverLogoutCode: null }) },
            RELOGIN: { target: '#auth.loggingOut', actions: assign({ reloadAfterLogout: true }) },
          },
        },
      },
    },

    /** HTTP 401 without a session token: the 1.5 s 'login expired' message, then logout + reload. */
    expiring: {
      tags: ['sessionExpiring'],
      after: {
        [LOGIN_EXPIRED_DELAY_MS]: {
          target: 'loggingOut',
          actions: assign({ reloadAfterLogout: true }),
        },
      },
    },

    /** HTTP 401 or a failed user-info load in an overstep tab: a dialog that closes the window. */
    sessionExpired: {
      tags: ['sessionExpired'],
      on: { CONFIRM: { actions: 'closeWindow' } },
    },

    /** The server call may fail (token already gone): the session is cleared either way. */
    loggingOut: {
      tags: ['loggingOut'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'clearingSession' },
        onError: { target: 'clearingSession' },
      },
    },

    /** Spec §4: logout always clears user info, token, route listener and server menu. */
    clearingSession: {
      entry: [
        { type: 'clearToken', params: ({ context }) => ({ kind: context.tokenKind }) },
        'forgetUser',
        assign({ tokenKind: null }),
        'clearRouteListener',
        'clearServerMenu',
      ],
      always: [
        { guard: 'reloadAfterLogout', target: 'signedOut', actions: 'reload' },
        { target: 'signedOut' },
      ],
    },
  },
});

export type AuthMachine = typeof authMachine;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

export function summarizeAuth(snapshot: AuthSnapshot): AuthSummary {
  const { user, role, tokenKind, overstepFailed } = snapshot.context;
  return {
    signedIn: snapshot.hasTag('signedIn') && user !== null,
    role,
    showClipMenu: user?.show_clip_menu ?? 1,
    tokenKind,
    overstepFailed,
  };
}
