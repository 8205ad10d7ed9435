/**
 * The whole console as main.tsx builds it, for the path tests of the shell's machines (guard,
 * menu, branding): the real app actors (createAppActors) and the real router (createAppRouter,
 * its route table, its guard loader), with fake endpoints at the HTTP boundary that wait until a
 * step settles them, and memory storage.
 */
import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router-dom';
import type { MenuItem } from '../../src/api/contract/dashboard';
import type { SystemInfo } from '../../src/api/contract/system';
import { createAppActors, defaultDeps, type AppActors } from '../../src/app/actors/app-actors';
import { createShellActors } from '../../src/app/actors/shell-actors';
import { Providers } from '../../src/app/boot/providers';
import { createAppRouter } from '../../src/app/routes/router';
import { userFixture } from './fixtures';
import { fakeEndpoints } from './ui-paths';

export const LOCAL_TOKEN = 'local-token';
export const SESSION_TOKEN = 'session-token';

/** A user of each role (user_type 0–3). */
export const USERS = {
  admin: userFixture({ user_type: 0, nickname: 'Ada' }),
  partner: userFixture({ user_type: 1, nickname: 'Pat', username: 'pat' }),
  merchant: userFixture({ user_type: 2, nickname: 'Mona', username: 'mona' }),
  agent: userFixture({ user_type: 3, nickname: 'Agnes', username: 'agnes' }),
};

export interface WorldOptions {
  /** The token this tab starts with. */
  token: 'local' | null;
  /** The layout settings stored from an earlier visit. */
  stored?: Record<string, unknown> | null;
  /** Where the browser opens the console. */
  url: string;
  /** The branding endpoint (default: waits until a step settles it). */
  systemInfo?: (domain: string) => Promise<SystemInfo>;
  /** The server menu endpoint (default: waits until a step settles it). */
  userMenu?: () => Promise<MenuItem[]>;
  /** Before the first render (an area's endpoints). */
  prepare?: (actors: AppActors, endpoints: ReturnType<typeof fakeEndpoints>) => void;
}

export interface World {
  actors: AppActors;
  endpoints: ReturnType<typeof fakeEndpoints>;
  /** Where the console is now, as the address bar shows it. */
  url: () => string;
  dispose: () => void;
}

export function appWorld(options: WorldOptions): World {
  const endpoints = fakeEndpoints();
  const tokens = {
    local: options.token === 'local' ? LOCAL_TOKEN : null,
    session: null as string | null,
  };
  const memory = (value: unknown) => ({ read: () => value, write: () => {} });
  const never = () => new Promise<never>(() => {});
  const actors = createAppActors({
    // The shell's actors at once, as if their module had loaded with the session.
    createShellActors,
    api: {
      login: endpoints.endpoint('login'),
      logout: endpoints.endpoint('logout'),
      getUserInfo: endpoints.endpoint('getUserInfo'),
      overstepLogin: endpoints.endpoint('overstepLogin'),
      getUserMenu: options.userMenu ?? endpoints.endpoint('getUserMenu'),
      getSystemInfo: options.systemInfo ?? endpoints.endpoint('getSystemInfo'),
    },
    accountApi: {
      getCaptcha: never,
      register: never,
      resetPwd: never,
      editProfile: never,
      changePwd: never,
    },
    tokens: {
      kind: () => (tokens.session ? 'session' : tokens.local ? 'local' : null),
      setLocal: (t) => void (tokens.local = t),
      setSession: (t) => void (tokens.session = t),
      clear: (kind) => {
        if (kind !== 'session') tokens.local = null;
        if (kind !== 'local') tokens.session = null;
      },
    },
    reload: () => {},
    closeWindow: () => {},
    notify: () => {},
    locale: () => 'en-US',
    domain: () => 'console.example',
    // The page title and the tab icon, as in the browser.
    applyBranding: defaultDeps().applyBranding,
    storageEvents: null,
    wireHttp: false,
    layoutStore: memory(options.stored ?? null),
    tabStore: memory(null),
    applyTheme: () => {},
    applyColorWeak: () => {},
  });
  options.prepare?.(actors, endpoints);
  window.history.replaceState(null, '', options.url);
  const router = createAppRouter(actors);
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return {
    actors,
    endpoints,
    url: () => `${window.location.pathname}${window.location.search}`,
    dispose: () => {
      router.dispose();
      actors.dispose();
    },
  };
}

/** The lazily loaded parts of the console, loaded once up front (fake timers wait for no I/O). */
export async function preloadConsole() {
  await Promise.all([
    import('../../src/app/theme/theme-later'),
    import('../../src/app/shell/shell'),
    import('../../src/app/shell/settings-drawer'),
    import('../../src/app/shell/session-dialogs'),
    import('../../src/components/toaster-store'),
    import('../../src/components/app-toaster'),
    import('../../src/views/login/login-page'),
    import('../../src/views/home/home-page'),
    import('../../src/views/dashboard/work-bench-page'),
    import('../../src/views/user/user-info-page'),
    import('../../src/views/exception/exception-page'),
    import('../../src/views/placeholder/not-built-page'),
    import('../../src/views/creation/clip-page'),
    import('../../src/app/routes/page-views'),
    import('../../src/views/promotion/merchant-page'),
    import('../../src/views/account/property-page'),
    import('../../src/views/digital-human/digital-video-page'),
  ]);
}
