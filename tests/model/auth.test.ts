/**
 * The auth machine on a real actor, for the cases the UI path tests (auth-view-paths.tsx) do not
 * reach: bursts of failures, repeated oversteps, the expiry dialog's button.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { authMachine, type TokenKind } from '../../src/machines/auth';
import { ADMIN, MERCHANT, SESSION_TOKEN } from './auth-model';
import { loginReply, replyError } from './fixtures';
import { fakeCalls, type FakeCalls } from './harness';

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

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

// The shortest paths run through the real views against a hand-written oracle
// (auth-view-paths.tsx); these are the cases beyond them.
describe('auth, beyond the shortest paths', () => {
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
