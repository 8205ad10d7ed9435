/**
 * Model-based path tests of the auth machine through the real views: every shortest path runs on
 * a real actor (API calls are fakes settled by the steps) while the login page, the session
 * dialogs and the navbar's user menu are rendered; each step asserts what a person sees there.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { MenuItem } from '../../src/api/contract/dashboard';
import type { SystemInfo } from '../../src/api/contract/system';
import type { AppActors } from '../../src/app/actors/actors-context';
import { Providers } from '../../src/app/boot/providers';
import { SessionDialogs } from '../../src/app/shell/session-dialogs';
import { UserMenu } from '../../src/app/shell/user-menu';
import { removeAllNotices } from '../../src/components/toaster';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { authMachine, type AuthSnapshot, type TokenKind } from '../../src/machines/auth';
import { brandingMachine } from '../../src/machines/branding';
import { menuMachine } from '../../src/machines/menu';
import { settingsMachine } from '../../src/machines/settings';
import { tabsMachine } from '../../src/machines/tabs';
import LoginPage from '../../src/views/login/login-page';
import { AUTH_STATES, LOGIN_REFUSED, eventsFor, serialize, stateKey } from './auth-model';
import { describePath, fakeCalls, runPath, type FakeCalls } from './harness';

const text = (id: MessageId) => enUS[id];

const BRANDING = {
  name: 'Nebula',
  logo: '',
  money_name: 'Coins',
  register_open: '0',
} as SystemInfo;

function makeActors(tokenKind: TokenKind | null, calls: FakeCalls): AppActors {
  const noop = () => {};
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: calls.logic(),
        login: calls.logic(),
        overstepLogin: calls.logic(),
        logout: calls.logic(),
      },
      actions: {
        storeToken: noop,
        clearToken: noop,
        clearRouteListener: noop,
        clearServerMenu: noop,
        reload: noop,
        closeWindow: noop,
      },
    }),
    { input: { tokenKind } },
  );
  const menu = createActor(
    menuMachine.provide({
      actors: { fetchMenu: fromPromise(() => new Promise<MenuItem[]>(noop)) },
    }),
  ).start();
  const branding = createActor(
    brandingMachine.provide({ actors: { fetchSystemInfo: fromPromise(async () => BRANDING) } }),
  ).start();
  const settings = createActor(settingsMachine, { input: { stored: null } }).start();
  const tabs = createActor(tabsMachine, { input: { stored: null } }).start();
  return {
    auth,
    menu,
    branding,
    settings,
    tabs,
    setRouteListener: noop,
    menuFromServer: () => false,
    dispose: () => {
      auth.stop();
      menu.stop();
      branding.stop();
      settings.stop();
      tabs.stop();
    },
  };
}

/** What the user looks at: the login form, the session dialogs and the navbar's user menu. */
function renderScreens(actors: AppActors) {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <>
          <UserMenu />
          <LoginPage />
          <SessionDialogs />
        </>
      ),
    },
  ]);
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
}

async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function assertSees(snapshot: AuthSnapshot) {
  await flush();
  const row = AUTH_STATES[stateKey(snapshot.value)];
  expect(row, `no row for ${stateKey(snapshot.value)}`).toBeDefined();
  const { sees } = row;

  // The login button: busy while signing in, ready otherwise.
  const submit = screen.getByRole('button', {
    name: sees.busy ? text(sees.busy) : text('login.submit'),
  });
  expect(submit.getAttribute('aria-busy')).toBe(sees.busy ? 'true' : 'false');

  // A refused login says why on the form.
  const refused = snapshot.matches('signedOut') && snapshot.context.error === LOGIN_REFUSED;
  expect(screen.queryByText(LOGIN_REFUSED) !== null).toBe(refused);

  // The navbar names the signed-in user in the console; on the login page nobody is named.
  const user = snapshot.context.user;
  const userMenu = screen.getByRole('button', { name: /^User menu of/ });
  if (sees.page === 'console' && user) expect(userMenu.textContent).toContain(user.nickname);
  if (sees.page === 'login') expect(userMenu.textContent).toBe('');

  // Modal dialogs of spec §8.
  // A closing dialog stays in the DOM for its exit animation (never ending in jsdom): count open ones.
  const dialogs = screen
    .queryAllByRole('alertdialog')
    .filter((d) => d.getAttribute('data-state') === 'open');
  if (!sees.dialog) {
    expect(dialogs).toHaveLength(0);
  } else {
    expect(dialogs).toHaveLength(1);
    const dialog = within(dialogs[0]);
    dialog.getByRole('heading', { name: text(sees.dialog.title) });
    dialog.getByText(text(sees.dialog.body));
    const names = dialog.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(sees.dialog.buttons.map(text));
    if (!sees.dialog.closable) {
      // Escape does not close the expiry modal: only its one button acts.
      fireEvent.keyDown(dialogs[0], { key: 'Escape' });
      await flush();
      expect(dialogs[0].getAttribute('data-state')).toBe('open');
    }
  }

  // The 1.5 s 'login expired' message (the toaster loads with the first notice).
  if (sees.notice) {
    // A few turns without moving the clock: the message is timed.
    for (let i = 0; i < 20 && !screen.queryByText(text('http.loginExpired')); i += 1) await flush();
    expect(screen.queryByText(text('http.loginExpired'))).not.toBeNull();
  }
}

const STARTS: { stored: string; tokenKind: TokenKind | null }[] = [
  { stored: 'no token', tokenKind: null },
  { stored: 'a local-storage token', tokenKind: 'local' },
  { stored: 'a session-storage (overstep) token', tokenKind: 'session' },
];

// The toaster loads with the first notice: loaded once up front, so a notice shows within a
// few turns of the (fake) clock.
beforeAll(async () => {
  await import('../../src/components/toaster-store');
  await import('../../src/app/theme/theme-later');
  await import('../../src/components/app-toaster');
});

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

describe.each(STARTS)('auth views, starting with $stored', ({ tokenKind }) => {
  const paths = getShortestPaths(authMachine, {
    input: { tokenKind },
    events: eventsFor,
    serializeState: (state, event) => serialize(state, event),
  });

  test.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const calls = fakeCalls();
    const actors = makeActors(tokenKind, calls);
    renderScreens(actors);
    await runPath({
      path,
      actor: actors.auth,
      calls,
      serialize: (s: AuthSnapshot, e?: { type: string }) => serialize(s, e),
      check: (snapshot) => assertSees(snapshot),
    });
    actors.dispose();
  });
});
