/**
 * Model-based path tests of the auth machine: every shortest path of the real machine, run on a
 * real actor whose API calls are fakes settled by the path's steps. Each step asserts what the
 * state promises: tags, pending calls, context and the storage/window effects that ran.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, type StateValue } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { roleOf } from '../../src/api/contract/roles';
import {
  authMachine,
  type AuthEvent,
  type AuthSnapshot,
  type TokenKind,
} from '../../src/machines/auth';
import type { MessageId } from '../../src/i18n/messages';
import { loginReply, replyError, userFixture } from './fixtures';
import { describePath, fakeCalls, runPath, type FakeCalls } from './harness';

// ---------------------------------------------------------------------------------------------
// What a person sees in each state. One table: the view assertions added later read it too.

type AuthTag =
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

const ADMIN = userFixture({ accountId: 1, username: 'admin', user_type: 0 });
const MERCHANT = userFixture({ accountId: 5, username: 'merchant', user_type: 2 });
const CREDENTIALS = { account: 'admin', password: 'Demo@2026' };
const LOCAL_TOKEN = 'local-token';
const SESSION_TOKEN = 'overstep-token';
const MERCHANT_ID = 5;
const LOGIN_REFUSED = 'Wrong account or password';

function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value)[0];
  return `${key}.${stateKey(child as StateValue)}`;
}

type ModelEvent = AuthEvent | { type: `xstate.${string}`; output?: unknown; error?: unknown };

function eventsFor(snapshot: AuthSnapshot): AuthEvent[] {
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
function serialize(snapshot: AuthSnapshot, event?: { type: string }): string {
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

// ---------------------------------------------------------------------------------------------
// The executor

function effectsOf(prev: AuthSnapshot, event: { type: string }, next: AuthSnapshot): string[] {
  const t = event.type;
  if (t === 'xstate.done.actor.login')
    return ['clearToken:session', `storeToken:local:${LOCAL_TOKEN}`];
  if (t === 'xstate.error.actor.login') return ['clearToken:local'];
  if (t === 'xstate.done.actor.overstep')
    return [`storeToken:session:${SESSION_TOKEN}`, 'clearServerMenu'];
  if (t === 'xstate.error.actor.overstep') return ['clearServerMenu'];
  const sessionCleared =
    next.matches('signedOut') &&
    (prev.matches('loggingOut') || ['EXTERNAL_LOGOUT', 'SIGNED_OUT_BY_SERVER'].includes(t));
  if (sessionCleared) {
    return [
      `clearToken:${prev.context.tokenKind ?? 'all'}`,
      'clearRouteListener',
      'clearServerMenu',
      ...(prev.matches('loggingOut') && prev.context.reloadAfterLogout ? ['reload'] : []),
    ];
  }
  if (t === 'CONFIRM' && prev.matches('sessionExpired')) return ['closeWindow'];
  return [];
}

function makeActor(tokenKind: TokenKind | null, calls: FakeCalls, effects: string[]) {
  return createActor(
    authMachine.provide({
      actors: {
        getUserInfo: calls.logic(),
        login: calls.logic(),
        overstepLogin: calls.logic(),
        logout: calls.logic(),
      },
      actions: {
        storeToken: (_, p) => effects.push(`storeToken:${p.kind}:${p.token}`),
        clearToken: (_, p) => effects.push(`clearToken:${p.kind ?? 'all'}`),
        clearRouteListener: () => effects.push('clearRouteListener'),
        clearServerMenu: () => effects.push('clearServerMenu'),
        reload: () => effects.push('reload'),
        closeWindow: () => effects.push('closeWindow'),
      },
    }),
    { input: { tokenKind } },
  );
}

function checkState(
  snapshot: AuthSnapshot,
  event: { type: string } | null,
  previous: AuthSnapshot | null,
  calls: FakeCalls,
  effects: string[],
) {
  const key = stateKey(snapshot.value);
  const promised = AUTH_STATES[key];
  expect(promised, `no row for state ${key}`).toBeDefined();
  const allTags: AuthTag[] = [
    'authPending',
    'signingIn',
    'signedIn',
    'loggingOut',
    'sessionExpiring',
    'sessionExpired',
  ];
  expect(allTags.filter((tag) => snapshot.hasTag(tag))).toEqual(promised.tags);
  expect(calls.waiting()).toEqual(promised.waitingFor);

  const { context } = snapshot;
  if (snapshot.hasTag('signedIn')) {
    expect(context.user).not.toBeNull();
    expect(context.role).toBe(roleOf(context.user!.user_type));
    // An overstep tab works as the merchant it stepped in as.
    expect(context.role).toBe(context.tokenKind === 'session' ? 'merchant' : 'admin');
  }
  if (snapshot.matches('signedOut')) {
    expect(context.user).toBeNull();
    expect(context.role).toBeNull();
    if (event?.type === 'xstate.error.actor.login') expect(context.error).toBe(LOGIN_REFUSED);
    expect(context.overstepFailed).toBe(event?.type === 'xstate.error.actor.overstep');
  }
  if (event?.type === 'LOGIN' && snapshot.matches('signingIn'))
    expect(calls.started.at(-1)).toEqual({ id: 'login', input: CREDENTIALS });
  if (event?.type === 'OVERSTEP' && snapshot.matches('overstepping'))
    expect(calls.started.at(-1)).toEqual({ id: 'overstep', input: { merchantId: MERCHANT_ID } });

  expect(effects).toEqual(event && previous ? effectsOf(previous, event, snapshot) : []);
  effects.length = 0;
}

// ---------------------------------------------------------------------------------------------

const STARTS: { stored: string; tokenKind: TokenKind | null }[] = [
  { stored: 'no token', tokenKind: null },
  { stored: 'a local-storage token', tokenKind: 'local' },
  { stored: 'a session-storage (overstep) token', tokenKind: 'session' },
];

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const reached = new Set<string>();

describe.each(STARTS)('auth, starting with $stored', ({ tokenKind }) => {
  const paths = getShortestPaths(authMachine, {
    input: { tokenKind },
    events: eventsFor,
    serializeState: (state, event) => serialize(state, event),
  });

  test('the model has paths, the 1.5 s expiry message among them', () => {
    expect(paths.length).toBeGreaterThan(5);
    if (tokenKind === 'local') {
      const expiry = paths.filter((p) =>
        p.steps.some((s) => s.event.type.startsWith('xstate.after')),
      );
      expect(expiry.length).toBeGreaterThan(0);
    }
  });

  test.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const calls = fakeCalls();
    const effects: string[] = [];
    const actor = makeActor(tokenKind, calls, effects);
    await runPath({
      path,
      actor,
      calls,
      serialize: (s: AuthSnapshot, e?: { type: string }) => serialize(s, e),
      check: (snapshot, event, previous) => {
        reached.add(stateKey(snapshot.value));
        checkState(snapshot, event, previous, calls, effects);
      },
    });
    actor.stop();
  });
});

describe('auth, beyond the shortest paths', () => {
  test('every row of the table is a state some path reaches', () => {
    expect([...reached].sort()).toEqual(Object.keys(AUTH_STATES).sort());
  });

  test('the expiry dialog button closes the window, and stays otherwise', async () => {
    const calls = fakeCalls();
    const effects: string[] = [];
    const actor = makeActor('session', calls, effects).start();
    calls.settle('loadUser', 'done', MERCHANT);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'SESSION_EXPIRED', hadSessionToken: true });
    expect(actor.getSnapshot().value).toBe('sessionExpired');
    actor.send({ type: 'CONFIRM' });
    expect(effects).toEqual(['closeWindow']);
    expect(actor.getSnapshot().value).toBe('sessionExpired');
    actor.send({ type: 'LOGOUT' });
    actor.send({ type: 'SESSION_EXPIRED', hadSessionToken: false });
    expect(actor.getSnapshot().value).toBe('sessionExpired');
  });

  test('many failures at once: one expiry message and one logout', async () => {
    const calls = fakeCalls();
    const effects: string[] = [];
    const actor = makeActor('local', calls, effects).start();
    calls.settle('loadUser', 'done', ADMIN);
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 5; i++) {
      actor.send({ type: 'SESSION_EXPIRED', hadSessionToken: false });
      actor.send({ type: 'SERVER_LOGOUT', code: 50008 });
    }
    expect(actor.getSnapshot().value).toBe('expiring');
    await vi.advanceTimersByTimeAsync(1499);
    expect(calls.started.filter((c) => c.id === 'logout')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.started.filter((c) => c.id === 'logout')).toHaveLength(1);
    actor.send({ type: 'SESSION_EXPIRED', hadSessionToken: false });
    calls.settle('logout', 'error', replyError('Login expired', 'unauthorized'));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(effects.filter((e) => e === 'reload')).toHaveLength(1);
  });

  test('a second OVERSTEP while one runs is ignored; a session tab never steps in again', async () => {
    const calls = fakeCalls();
    const effects: string[] = [];
    const actor = makeActor('local', calls, effects).start();
    calls.settle('loadUser', 'done', ADMIN);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'OVERSTEP', merchantId: 5 });
    actor.send({ type: 'OVERSTEP', merchantId: 6 });
    expect(calls.started.filter((c) => c.id === 'overstep')).toHaveLength(1);
    calls.settle('overstep', 'done', loginReply(SESSION_TOKEN, MERCHANT));
    await vi.advanceTimersByTimeAsync(0);
    calls.settle('loadUser', 'done', MERCHANT);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context).toMatchObject({ tokenKind: 'session', role: 'merchant' });
    actor.send({ type: 'OVERSTEP', merchantId: 6 });
    expect(actor.getSnapshot().matches({ signedIn: { active: 'idle' } })).toBe(true);
    // Another tab's logout removes the local token; this tab runs on its own session token.
    actor.send({ type: 'EXTERNAL_LOGOUT' });
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
  });

  test('refreshing the user keeps the session and shows the new details', async () => {
    const calls = fakeCalls();
    const actor = makeActor('local', calls, []).start();
    calls.settle('loadUser', 'done', ADMIN);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'REFRESH_USER' });
    calls.settle('refreshUser', 'done', { ...ADMIN, nickname: 'Renamed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.user?.nickname).toBe('Renamed');
  });
});
