/**
 * Renders real console views over app actors for the view path tests: the machine under test is
 * the path's actor; the other app actors are idle fakes with fixed data.
 */
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createActor, fromPromise } from 'xstate';
import type { MenuItem } from '../../src/api/contract/dashboard';
import type { SystemInfo } from '../../src/api/contract/system';
import type { AppActors } from '../../src/app/actors/actors-context';
import { createAccountActors, type AccountActors } from '../../src/app/actors/account';
import { Providers } from '../../src/app/boot/providers';
import { authMachine } from '../../src/machines/auth';
import { brandingMachine } from '../../src/machines/branding';
import { menuMachine } from '../../src/machines/menu';
import { settingsMachine } from '../../src/machines/settings';
import { tabsMachine } from '../../src/machines/tabs';
import { vi } from 'vitest';

export const BRANDING = {
  name: 'Nebula',
  logo: '',
  copyright: '© Nebula',
  icp_record_number: 'ICP-1',
  police_record: '1',
  police_record_number: 'PR-1',
  money_name: 'Coins',
  register_open: '0',
} as SystemInfo;

const noop = () => {};

/** App actors around the given ones (each defaults to an idle actor of its machine). */
export function appActors(
  given: Partial<Pick<AppActors, 'auth' | 'settings' | 'tabs'>>,
): AppActors {
  const never = <T,>() => fromPromise(() => new Promise<T>(noop));
  // No stored token: the auth actor settles signed out and never calls its placeholders.
  const auth = given.auth ?? createActor(authMachine, { input: { tokenKind: null } }).start();
  const menu = createActor(
    menuMachine.provide({ actors: { fetchMenu: never<MenuItem[]>() } }),
  ).start();
  const branding = createActor(
    brandingMachine.provide({ actors: { fetchSystemInfo: fromPromise(async () => BRANDING) } }),
  ).start();
  const settings =
    given.settings ?? createActor(settingsMachine, { input: { stored: null } }).start();
  const tabs = given.tabs ?? createActor(tabsMachine, { input: { stored: null } }).start();
  // The account area's endpoints never answer here.
  const pending = () => new Promise<never>(noop);
  let account: AccountActors | null = null;
  return {
    auth,
    menu,
    branding,
    settings,
    tabs,
    setRouteListener: noop,
    loadShell: () => Promise.resolve(),
    shellLoaded: () => true,
    subscribeShell: () => noop,
    menuFromServer: () => false,
    account: () =>
      (account ??= createAccountActors({
        auth,
        api: {
          getCaptcha: pending,
          register: pending,
          resetPwd: pending,
          editProfile: pending,
          changePwd: pending,
        },
      })),
    dispose: () => {
      account?.stop();
      [auth, menu, branding, settings, tabs].forEach((a) => a.stop());
    },
  };
}

/** Renders `element` at `path` inside the providers and a data router. */
export function renderAt(actors: AppActors, element: ReactNode, path = '/home/index') {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
}

export async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

/** Chakra keeps a closing overlay in the DOM for its exit animation: count only open ones. */
export const isOpen = (el: Element) => el.getAttribute('data-state') === 'open';
