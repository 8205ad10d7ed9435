/**
 * The app-level wiring: real http.ts against a local server, the auth and menu actors with the
 * real API functions, storage in jsdom; only reload, window.close and the toaster are fakes.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { waitFor } from 'xstate';
import { createAppActors, guardNavigation, type AppActors } from '../../src/app/actors/app-actors';
import { createShellActors } from '../../src/app/actors/shell-actors';
import { getAccount, getDashboardData } from '../../src/api/dashboard';
import { configureHttp, resetHttp, type Notice } from '../../src/api/http';
import { userFixture } from '../model/fixtures';

const USERS: Record<string, ReturnType<typeof userFixture>> = {
  L: userFixture({ accountId: 1, username: 'admin', user_type: 0 }),
  S: userFixture({ accountId: 5, username: 'merchant', user_type: 2 }),
};

let server: Server;
const hits: string[] = [];

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '').replace(/^\/api\/v1/, '').split('?')[0];
  const token = String(req.headers.token ?? '');
  hits.push(`${path} ${token}`);
  const user = USERS[token];
  switch (path) {
    case '/platform/get_user_info':
      return user
        ? reply(res, 200, { code: 1, msg: '', data: user })
        : reply(res, 401, { code: 0, msg: 'Login expired' });
    case '/platform/login':
      return reply(res, 200, { code: 0, msg: 'Wrong account or password', data: null });
    case '/platform/logout':
      return reply(res, 200, { code: 1, msg: '', data: null });
    case '/platform/overstep_login':
      return token === 'L'
        ? reply(res, 200, { code: 1, msg: '', data: { userinfo: { token: 'S' } } })
        : reply(res, 401, { code: 0, msg: 'Login expired' });
    case '/platform/dashboard_data':
      return reply(res, 401, { code: 0, msg: 'Login expired' });
    case '/platform/get_account':
      return reply(res, 200, { code: 50008, msg: 'Your session was ended' });
    case '/platform/get_system_info':
      return reply(res, 200, {
        code: 1,
        msg: '',
        data: { name: `Brand of ${req.url?.split('=')[1]}` },
      });
    case '/api/user/menu':
      return reply(res, 200, {
        code: 1,
        msg: '',
        data: [
          {
            name: 'workBench',
            path: '/dashboard/workBench',
            titleId: 'x',
            hidden: false,
            children: [],
          },
        ],
      });
    default:
      return reply(res, 404, { code: 0, msg: 'Unknown API path' });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let actors: AppActors;
const fx = {
  reload: vi.fn(),
  closeWindow: vi.fn(),
  notify: vi.fn<(n: Notice) => void>(),
  applyBranding: vi.fn(),
};
const storageEvents = new EventTarget();

function start(options: { menuFromServer?: boolean; lazyShell?: boolean } = {}) {
  actors = createAppActors({
    // The shell's actors at once, as if their module had loaded with the session (lazyShell:
    // as main.tsx has them, loaded by loadShell).
    createShellActors: options.lazyShell ? undefined : createShellActors,
    ...fx,
    locale: () => 'en-US',
    domain: () => 'localhost',
    menuFromServer: () => options.menuFromServer ?? false,
    storageEvents: storageEvents as unknown as Window,
  });
  return actors;
}

const settled = (a: AppActors) => waitFor(a.auth, (s) => !s.hasTag('authPending'));

beforeEach(() => {
  hits.length = 0;
  localStorage.clear();
  sessionStorage.clear();
  Object.values(fx).forEach((f) => f.mockReset());
  const { port } = server.address() as AddressInfo;
  configureHttp({ baseUrl: `http://127.0.0.1:${port}/api/v1` });
});
afterEach(() => {
  actors?.dispose();
  resetHttp();
});

describe("the shell's actors come with the session", () => {
  test('none before loadShell (reading one throws); a logout meanwhile needs none', async () => {
    const a = start({ lazyShell: true });
    expect(a.shellLoaded()).toBe(false);
    expect(() => a.settings).toThrow(/loadShell/);
    expect(() => a.tabs).toThrow(/loadShell/);
    expect(() => a.menu).toThrow(/loadShell/);
    expect(a.menuFromServer()).toBe(false);
    // A stale stored token: restoring fails and logs out (resets tabs, clears the menu) unloaded.
    localStorage.setItem('token', 'stale');
    const b = createAppActors({ ...fx, storageEvents: null, locale: () => 'en-US' });
    await waitFor(b.auth, (s) => s.matches('signedOut'));
    expect(b.shellLoaded()).toBe(false);
    b.dispose();
  });

  test('loadShell creates them once, with the stored settings, and says so to subscribers', async () => {
    localStorage.setItem('layoutSettings', JSON.stringify({ tabBar: true, theme: 'dark' }));
    const a = start({ lazyShell: true });
    const heard = vi.fn();
    a.subscribeShell(heard);
    await Promise.all([a.loadShell(), a.loadShell()]);
    expect(a.shellLoaded()).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(a.settings.getSnapshot().context).toMatchObject({ tabBar: true, theme: 'dark' });
    expect(a.tabs.getSnapshot().context.tabs).toEqual([]);
    expect(a.menu.getSnapshot().matches('idle')).toBe(true);
  });
});

describe('logging in', () => {
  test('a refused login is said once: on the form (the auth error), not also as a toast', async () => {
    const a = start();
    await settled(a);
    a.auth.send({ type: 'LOGIN', account: 'someone', password: 'Wrong#2026' });
    const s = await waitFor(a.auth, (x) => x.matches('signedOut') && x.context.error !== null);
    expect(s.context.error).toBe('Wrong account or password');
    expect(fx.notify).not.toHaveBeenCalled();
  });
});

describe('restoring and guarding', () => {
  test('a local token restores the session with the role from user_type', async () => {
    localStorage.setItem('token', 'L');
    const a = start();
    const s = await settled(a);
    expect(s.hasTag('signedIn')).toBe(true);
    expect(s.context.role).toBe('admin');
    expect(await guardNavigation(a, { pathname: '/login', search: '' })).toEqual({
      type: 'redirect',
      to: '/home/index',
    });
  });

  test('a stale token: logged out, token cleared, and the guard sends to login', async () => {
    localStorage.setItem('token', 'stale');
    const a = start();
    const decision = await guardNavigation(a, { pathname: '/home/index', search: '' });
    await waitFor(a.auth, (s) => s.matches('signedOut'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(decision).toEqual({ type: 'redirect', to: '/login?redirect=%2Fhome%2Findex' });
  });

  test('an overstep link keeps the merchant token in session storage only', async () => {
    localStorage.setItem('token', 'L');
    const a = start();
    const decision = await guardNavigation(a, {
      pathname: '/dashboard/workBench',
      search: '?login_type=1&merchant_id=5',
    });
    expect(decision).toEqual({ type: 'allow' });
    expect(sessionStorage.getItem('token')).toBe('S');
    expect(localStorage.getItem('token')).toBe('L');
    expect(a.auth.getSnapshot().context).toMatchObject({ role: 'merchant', tokenKind: 'session' });
    expect(hits).toContain('/platform/overstep_login L');
  });

  test('menu from server: the guard loads the menu once and checks the route against it', async () => {
    localStorage.setItem('token', 'S');
    const a = start({ menuFromServer: true });
    expect(await guardNavigation(a, { pathname: '/dashboard/workBench', search: '' })).toEqual({
      type: 'allow',
    });
    expect(await guardNavigation(a, { pathname: '/creation/resource', search: '' })).toEqual({
      type: 'redirect',
      to: '/404',
    });
    expect(hits.filter((h) => h.startsWith('/api/user/menu'))).toHaveLength(1);
  });
});

describe('failures from many requests at once', () => {
  test('401s without a session token: one expiry message, then one logout and one reload', async () => {
    localStorage.setItem('token', 'L');
    const a = start();
    await settled(a);
    const stop = vi.fn();
    a.setRouteListener(stop);
    a.menu.send({ type: 'LOAD' });
    await waitFor(a.menu, (s) => s.matches('loaded'));
    await Promise.allSettled([1, 2, 3, 4, 5].map(() => getDashboardData()));
    expect(a.auth.getSnapshot().value).toBe('expiring');
    expect(fx.notify).not.toHaveBeenCalled();
    await waitFor(a.auth, (s) => s.matches('signedOut'), { timeout: 3000 });
    expect(hits.filter((h) => h.startsWith('/platform/logout'))).toHaveLength(1);
    expect(fx.reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(a.menu.getSnapshot().value).toBe('idle');
  });

  test('a 401 in an overstep tab opens the expiry dialog whose button closes the window', async () => {
    sessionStorage.setItem('token', 'S');
    const a = start();
    await settled(a);
    await Promise.allSettled([getDashboardData(), getDashboardData()]);
    expect(a.auth.getSnapshot().value).toBe('sessionExpired');
    a.auth.send({ type: 'CONFIRM' });
    expect(fx.closeWindow).toHaveBeenCalledTimes(1);
  });

  test("code 50008 from several calls: one 'Confirm logout' dialog; Re-Login logs out and reloads", async () => {
    localStorage.setItem('token', 'L');
    const a = start();
    await settled(a);
    await Promise.allSettled([getAccount(), getAccount(), getAccount()]);
    expect(a.auth.getSnapshot().matches({ signedIn: 'confirmingLogout' })).toBe(true);
    expect(fx.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'Your session was ended',
      durationMs: 5000,
    });
    a.auth.send({ type: 'STAY' });
    expect(a.auth.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    await Promise.allSettled([getAccount()]);
    a.auth.send({ type: 'RELOGIN' });
    await waitFor(a.auth, (s) => s.matches('signedOut'));
    expect(hits.filter((h) => h.startsWith('/platform/logout'))).toHaveLength(1);
    expect(fx.reload).toHaveBeenCalledTimes(1);
  });
});

describe('logout in another tab', () => {
  test('removing the local token elsewhere logs this tab out without a server call', async () => {
    localStorage.setItem('token', 'L');
    const a = start();
    await settled(a);
    localStorage.removeItem('token');
    storageEvents.dispatchEvent(
      new StorageEvent('storage', { key: 'token', newValue: null, storageArea: localStorage }),
    );
    expect(a.auth.getSnapshot().value).toBe('signedOut');
    expect(hits.filter((h) => h.startsWith('/platform/logout'))).toHaveLength(0);
    expect(fx.reload).not.toHaveBeenCalled();
  });

  test('a tab on its own session token keeps its session', async () => {
    sessionStorage.setItem('token', 'S');
    localStorage.setItem('token', 'L');
    const a = start();
    await settled(a);
    localStorage.removeItem('token');
    storageEvents.dispatchEvent(
      new StorageEvent('storage', { key: 'token', newValue: null, storageArea: localStorage }),
    );
    expect(a.auth.getSnapshot().hasTag('signedIn')).toBe(true);
  });
});

test('branding of the current host is loaded and applied', async () => {
  const a = start();
  await waitFor(a.branding, (s) => !s.matches('loading'));
  expect(fx.applyBranding).toHaveBeenCalledWith({ name: 'Brand of localhost' });
});
