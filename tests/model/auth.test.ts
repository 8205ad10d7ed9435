/**
 * Model-based path tests of the auth machine: every shortest path of the real machine, run on a
 * real actor whose API calls are fakes settled by the path's steps. Each step asserts what the
 * state promises: tags, pending calls, context and the storage/window effects that ran.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { roleOf } from '../../src/api/contract/roles';
import { authMachine, type AuthSnapshot, type TokenKind } from '../../src/machines/auth';
import {
  ADMIN,
  AUTH_STATES,
  CREDENTIALS,
  LOCAL_TOKEN,
  LOGIN_REFUSED,
  MERCHANT,
  MERCHANT_ID,
  SESSION_TOKEN,
  eventsFor,
  serialize,
  stateKey,
  type AuthTag,
} from './auth-model';
import { loginReply, replyError } from './fixtures';
import { describePath, fakeCalls, runPath, type FakeCalls } from './harness';

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
