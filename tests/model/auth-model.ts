/**
 * The auth machine's test model, shared by the logic path tests (auth.test.ts) and the view path
 * tests (auth-view-paths.tsx): what a person sees in each state, the events, the serialisation.
 */
import type { StateValue } from 'xstate';
import type { AuthEvent, AuthSnapshot } from '../../src/machines/auth';
import type { MessageId } from '../../src/i18n/messages';
import { loginReply, replyError, userFixture } from './fixtures';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.

export type AuthTag =
  'authPending' | 'signingIn' | 'signedIn' | 'loggingOut' | 'sessionExpiring' | 'sessionExpired';

export interface AuthSees {
  /** The screen: a loading spinner, the login page or the console shell. */
  page: 'loading' | 'login' | 'console';
  /** The login button's label while it is busy. */
  busy?: MessageId;
  /** A modal dialog (role alertdialog) with its title, text and buttons. */
  dialog?: { title: MessageId; body: MessageId; buttons: MessageId[]; closable: boolean };
  /** A transient message. */
  notice?: { text: MessageId; durationMs: number };
}

export const AUTH_STATES: Record<
  string,
  { tags: AuthTag[]; waitingFor: string[]; sees: AuthSees }
> = {
  loadingUser: { tags: ['authPending'], waitingFor: ['loadUser'], sees: { page: 'loading' } },
  overstepping: { tags: ['authPending'], waitingFor: ['overstep'], sees: { page: 'loading' } },
  signedOut: { tags: [], waitingFor: [], sees: { page: 'login' } },
  signingIn: {
    tags: ['signingIn'],
    waitingFor: ['login'],
    sees: { page: 'login', busy: 'login.submitting' },
  },
  'signedIn.active.idle': { tags: ['signedIn'], waitingFor: [], sees: { page: 'console' } },
  'signedIn.active.refreshing': {
    tags: ['signedIn'],
    waitingFor: ['refreshUser'],
    sees: { page: 'console' },
  },
  'signedIn.confirmingLogout': {
    tags: ['signedIn'],
    waitingFor: [],
    sees: {
      page: 'console',
      dialog: {
        title: 'session.confirmLogoutTitle',
        body: 'session.confirmLogoutBody',
        buttons: ['session.stay', 'session.relogin'],
        closable: true,
      },
    },
  },
  expiring: {
    tags: ['sessionExpiring'],
    waitingFor: [],
    sees: { page: 'console', notice: { text: 'http.loginExpired', durationMs: 1500 } },
  },
  sessionExpired: {
    tags: ['sessionExpired'],
    waitingFor: [],
    sees: {
      page: 'console',
      dialog: {
        title: 'session.expiredTitle',
        body: 'session.expiredBody',
        buttons: ['session.confirm'],
        closable: false,
      },
    },
  },
  loggingOut: { tags: ['loggingOut'], waitingFor: ['logout'], sees: { page: 'loading' } },
};

// ---------------------------------------------------------------------------------------------
// The model: events, outputs and serialisation

export const ADMIN = userFixture({ accountId: 1, username: 'admin', user_type: 0 });
export const MERCHANT = userFixture({ accountId: 5, username: 'merchant', user_type: 2 });
export const CREDENTIALS = { account: 'admin', password: 'Demo@2026' };
export const LOCAL_TOKEN = 'local-token';
export const SESSION_TOKEN = 'overstep-token';
export const MERCHANT_ID = 5;
export const LOGIN_REFUSED = 'Wrong account or password';

export function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value)[0];
  return `${key}.${stateKey(child as StateValue)}`;
}

type ModelEvent = AuthEvent | { type: `xstate.${string}`; output?: unknown; error?: unknown };

export function eventsFor(snapshot: AuthSnapshot): AuthEvent[] {
  const { tokenKind } = snapshot.context;
  const user = tokenKind === 'session' ? MERCHANT : ADMIN;
  const events: ModelEvent[] = [
    { type: 'LOGIN', ...CREDENTIALS },
    { type: 'LOGOUT' },
    { type: 'OVERSTEP', merchantId: MERCHANT_ID },
    { type: 'SERVER_LOGOUT', code: 50008 },
    { type: 'STAY' },
    { type: 'RELOGIN' },
    { type: 'SESSION_EXPIRED', hadSessionToken: tokenKind === 'session' },
    { type: 'CONFIRM' },
    { type: 'EXTERNAL_LOGOUT' },
    { type: 'SIGNED_OUT_BY_SERVER' },
    { type: 'REFRESH_USER' },
    { type: 'xstate.done.actor.loadUser', output: user },
    { type: 'xstate.error.actor.loadUser', error: replyError('Login expired', 'unauthorized') },
    { type: 'xstate.done.actor.login', output: loginReply(LOCAL_TOKEN, ADMIN) },
    { type: 'xstate.error.actor.login', error: replyError(LOGIN_REFUSED) },
    { type: 'xstate.done.actor.overstep', output: loginReply(SESSION_TOKEN, MERCHANT) },
    { type: 'xstate.error.actor.overstep', error: replyError('Not your merchant') },
    { type: 'xstate.done.actor.logout', output: null },
    { type: 'xstate.error.actor.logout', error: replyError('Login expired', 'unauthorized') },
    { type: 'xstate.done.actor.refreshUser', output: { ...user, nickname: 'Renamed' } },
    { type: 'xstate.error.actor.refreshUser', error: replyError('Busy') },
    // Spec §8/§9: the 'login expired' message shows for 1.5 s before the logout.
    { type: 'xstate.after.1500.auth.expiring' },
  ];
  // Only what the state handles: an ignored event would look like another way into the state.
  return (events as AuthEvent[]).filter((event) => snapshot.can(event));
}

/**
 * State + the few flags that change behaviour + the event that led in, so that every way into a
 * state is a vertex of its own and the shortest paths take every transition once.
 */
export function serialize(snapshot: AuthSnapshot, event?: { type: string }): string {
  const key = stateKey(snapshot.value);
  const { tokenKind, error, overstepFailed, reloadAfterLogout } = snapshot.context;
  const flags: Record<string, unknown> = {
    state: key,
    token: tokenKind,
    via: event?.type ?? 'init',
  };
  if (key === 'loggingOut') flags.reload = reloadAfterLogout;
  if (key === 'signedOut') {
    Object.assign(flags, { error: error !== null, overstepFailed, reload: reloadAfterLogout });
  }
  return JSON.stringify(flags);
}
