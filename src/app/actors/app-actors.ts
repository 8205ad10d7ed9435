/**
 * The app-level actors (docs/architecture.md rule 2): created once in main.tsx, outside React, with
 * the real API calls, storage and window effects injected into the pure machines. Also wires the
 * HTTP layer's callbacks to the auth actor and the cross-tab logout. Lives in src/app because it
 * imports http.ts, which src/machines may not.
 */
import { createActor, fromPromise, toPromise, waitFor, type ActorRefFrom } from 'xstate';
import * as authApi from '../../api/auth';
import type { SystemInfo } from '../../api/contract/system';
import { configureHttp, tokenStore, type Notice } from '../../api/http';
import { localeStore } from '../../i18n/locale-store';
import { STORAGE_KEYS } from '../../api/contract/storage-keys';
import { applyColorWeakToDocument, applyThemeToDocument } from '../theme/document-theme';
import { inspection } from './inspection';
import * as systemApi from '../../api/system';
import { authMachine, summarizeAuth, type TokenKind } from '../../machines/auth';
import { brandingMachine } from '../../machines/branding';
import { guardMachine, type GuardDecision } from '../../machines/guard';
import type { Theme } from '../../machines/settings';
import { progress } from '../shell/progress';
import { accountApi, createAccountActors, type AccountActors, type AccountApi } from './account';
import type { KeyValueStore, ShellActors, ShellActorsFactory } from './shell-actors';
import { applyBrandColour } from '../theme/brand-colour';

export interface AppApi {
  login: typeof authApi.login;
  logout: typeof authApi.logout;
  getUserInfo: typeof authApi.getUserInfo;
  overstepLogin: typeof authApi.overstepLogin;
  getUserMenu: typeof authApi.getUserMenu;
  getSystemInfo: typeof systemApi.getSystemInfo;
}

export interface TokenStorage {
  kind(): TokenKind | null;
  setLocal(token: string): void;
  setSession(token: string): void;
  clear(kind?: TokenKind): void;
}

export interface AppActorDeps {
  api: AppApi;
  tokens: TokenStorage;
  /** `location.reload()` after Re-Login and after the 401 expiry message. */
  reload: () => void;
  /** `window.close()` from the overstep tab's expiry dialog. */
  closeWindow: () => void;
  /** Error toasts of the HTTP layer (`text` is a message id or a server sentence). */
  notify: (notice: Notice) => void;
  /** The current locale for the `lang` header. */
  locale: () => string | undefined;
  /** Whether "menu from server" is on (the settings drawer); read at each navigation. */
  menuFromServer: () => boolean;
  /** The host whose branding is loaded (docs/domain.md §13: the current origin). */
  domain: () => string;
  /** Page title and tab icon from the branding. */
  applyBranding: (info: SystemInfo) => void;
  /** Where `storage` events arrive (another tab removed the token); none in tests. */
  storageEvents: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  /** Set false to leave http.ts unconfigured (tests of the actors alone). */
  wireHttp: boolean;
  /** Where the layout settings and the open tabs are kept (local / session storage). */
  layoutStore: KeyValueStore;
  tabStore: KeyValueStore;
  /** Page effects of the settings: theme classes and the colour-weak filter. */
  applyTheme: (theme: Theme) => void;
  applyColorWeak: (on: boolean) => void;
  /** The account area's endpoints (SMS codes, sign-up, password, profile). */
  accountApi: AccountApi;
  /** Where the shell's actors come from: loaded with the session (see `loadShell`). */
  loadShellModule: () => Promise<{ createShellActors: ShellActorsFactory }>;
  /** Tests: create the shell's actors at once with this, as if already loaded. */
  createShellActors?: ShellActorsFactory;
}

export type { KeyValueStore };

const LAYOUT_SETTINGS_KEY = STORAGE_KEYS.layoutSettings;
const TABS_KEY = STORAGE_KEYS.tabs;

/** A JSON value under `key` of a Storage; failures (private mode, quota) keep the app working. */
function storageStore(storage: () => Storage | undefined, key: string): KeyValueStore {
  return {
    read() {
      try {
        const raw = storage()?.getItem(key);
        return raw ? JSON.parse(raw) : null;
      } catch {
        return null;
      }
    },
    write(value) {
      try {
        storage()?.setItem(key, JSON.stringify(value));
      } catch {
        /* not persisted: the setting still applies to this page */
      }
    },
  };
}

function applyBrandingToDocument(info: SystemInfo): void {
  if (info.name) document.title = info.name;
  // The domain's theme colour as the primary palette ('' : the console's default).
  applyBrandColour(info.theme_color);
  const icon = info.favicon || info.logo;
  if (!icon) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = icon;
}

/** The shell's actors' module (a chunk of its own: they come with the session). */
export const loadShellModule = () => import('./shell-actors');

export function defaultDeps(): Omit<AppActorDeps, 'notify'> {
  return {
    api: { ...authApi, getSystemInfo: systemApi.getSystemInfo },
    tokens: tokenStore,
    reload: () => window.location.reload(),
    closeWindow: () => window.close(),
    locale: () => localeStore.get(),
    menuFromServer: () => false,
    domain: () => window.location.hostname,
    applyBranding: applyBrandingToDocument,
    storageEvents: typeof window === 'undefined' ? null : window,
    wireHttp: true,
    layoutStore: storageStore(() => globalThis.localStorage, LAYOUT_SETTINGS_KEY),
    tabStore: storageStore(() => globalThis.sessionStorage, TABS_KEY),
    applyTheme: applyThemeToDocument,
    applyColorWeak: applyColorWeakToDocument,
    accountApi,
    loadShellModule,
  };
}

export interface AppActors {
  auth: ActorRefFrom<typeof authMachine>;
  branding: ActorRefFrom<typeof brandingMachine>;
  /**
   * The shell's actors (menu, settings, tabs) exist once `loadShell` has settled: the router
   * loads them before any page but a signed-out visitor's login page, main.tsx at start-up when a
   * session is stored. Reading one earlier throws (tests/unit/app-actors.test.ts).
   */
  menu: ShellActors['menu'];
  settings: ShellActors['settings'];
  tabs: ShellActors['tabs'];
  loadShell(): Promise<void>;
  /** Whether the shell's actors exist, and a way to hear when they come (React stores). */
  shellLoaded(): boolean;
  subscribeShell(listener: () => void): () => void;
  /** The shell registers how to stop following route changes; logout calls it (docs/domain.md §14). */
  setRouteListener(stop: (() => void) | null): void;
  menuFromServer(): boolean;
  /** The account area's actors, created on first use. */
  account(): AccountActors;
  /** Stops the actors and removes the listeners (tests, hot reload). */
  dispose(): void;
}

/** `notify` is required: without it the HTTP layer's error toasts would go nowhere. */
export function createAppActors(
  overrides: Partial<AppActorDeps> & Pick<AppActorDeps, 'notify'>,
): AppActors {
  const deps: AppActorDeps = { ...defaultDeps(), ...overrides };
  const { api, tokens } = deps;
  let stopRouteListener: (() => void) | null = null;

  let shell: ShellActors | null = null;
  const shellListeners = new Set<() => void>();
  const attachShell = (create: ShellActorsFactory) => {
    shell ??= create({
      getUserMenu: () => api.getUserMenu(),
      layoutStore: deps.layoutStore,
      tabStore: deps.tabStore,
      applyTheme: deps.applyTheme,
      applyColorWeak: deps.applyColorWeak,
    });
    shellListeners.forEach((listener) => listener());
  };
  if (deps.createShellActors) attachShell(deps.createShellActors);
  let shellLoading: Promise<void> | null = null;
  const needShell = (): ShellActors => {
    if (!shell) throw new Error('The shell actors are not loaded yet: await loadShell() first.');
    return shell;
  };

  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(() => api.getUserInfo()),
        // The login form says why a login failed (the auth error): no toast as well.
        login: fromPromise(({ input }) => api.login(input, { quiet: true })),
        overstepLogin: fromPromise(({ input }) =>
          api.overstepLogin({ merchant_id: input.merchantId }),
        ),
        logout: fromPromise(() => api.logout()),
      },
      actions: {
        storeToken: (_, params) =>
          params.kind === 'session'
            ? tokens.setSession(params.token)
            : tokens.setLocal(params.token),
        clearToken: (_, params) => tokens.clear(params.kind ?? undefined),
        // The tab bar's route listener (docs/domain.md §14): stop following routes and forget the tabs.
        clearRouteListener: () => {
          stopRouteListener?.();
          stopRouteListener = null;
          // No shell actors: no session was shown in this page, so no tabs to forget.
          shell?.tabs.send({ type: 'RESET' });
        },
        clearServerMenu: () => shell?.menu.send({ type: 'CLEAR' }),
        reload: () => deps.reload(),
        closeWindow: () => deps.closeWindow(),
      },
    }),
    { ...inspection(), systemId: 'auth', input: { tokenKind: tokens.kind() } },
  );

  const branding = createActor(
    brandingMachine.provide({
      actors: { fetchSystemInfo: fromPromise(() => api.getSystemInfo(deps.domain())) },
      actions: {
        applyToDocument: ({ context }) => {
          if (context.info) deps.applyBranding(context.info);
        },
      },
    }),
    { ...inspection(), systemId: 'branding' },
  );

  if (deps.wireHttp) {
    configureHttp({
      notify: deps.notify,
      locale: deps.locale,
      serverLogout: (code) => auth.send({ type: 'SERVER_LOGOUT', code }),
      unauthorized: ({ hadSessionToken }) =>
        auth.send({ type: 'SESSION_EXPIRED', hadSessionToken }),
      track: (work) => progress.track(work),
    });
  }

  // Logout in another tab removes the shared local-storage token (the auth machine ignores this
  // in a tab running on its own session-storage token).
  const onStorage = (event: Event) => {
    const { key, newValue, storageArea } = event as StorageEvent;
    if (storageArea && storageArea !== globalThis.localStorage) return;
    if (key === null || (key === 'token' && !newValue)) auth.send({ type: 'EXTERNAL_LOGOUT' });
  };
  deps.storageEvents?.addEventListener('storage', onStorage);

  let account: AccountActors | null = null;

  auth.start();
  branding.start();

  return {
    auth,
    branding,
    get menu() {
      return needShell().menu;
    },
    get settings() {
      return needShell().settings;
    },
    get tabs() {
      return needShell().tabs;
    },
    loadShell() {
      shellLoading ??= shell
        ? Promise.resolve()
        : deps.loadShellModule().then((module) => attachShell(module.createShellActors));
      return shellLoading;
    },
    shellLoaded: () => shell !== null,
    subscribeShell(listener) {
      shellListeners.add(listener);
      return () => void shellListeners.delete(listener);
    },
    setRouteListener(stop) {
      stopRouteListener = stop;
    },
    // "Menu from server" is the settings drawer's switch unless a test overrides it.
    menuFromServer: () =>
      overrides.menuFromServer
        ? overrides.menuFromServer()
        : (shell?.settings.getSnapshot().context.menuFromServer ?? false),
    account() {
      account ??= createAccountActors({ api: deps.accountApi, auth });
      return account;
    },
    dispose() {
      account?.stop();
      deps.storageEvents?.removeEventListener('storage', onStorage);
      branding.stop();
      auth.stop();
      shell?.stop();
    },
  };
}

/**
 * Runs the route guard for one navigation (router loaders call this) and resolves with its
 * decision: `{type: 'allow'}` or `{type: 'redirect', to}`.
 */
export function guardNavigation(
  actors: Pick<AppActors, 'auth' | 'menu' | 'menuFromServer'>,
  location: { pathname: string; search: string },
  options: { menuFromServer?: boolean } = {},
): Promise<GuardDecision> {
  const { auth } = actors;
  const settled = () => waitFor(auth, (s) => !s.hasTag('authPending')).then(summarizeAuth);
  const guard = createActor(
    guardMachine.provide({
      actors: {
        waitForAuth: fromPromise(settled),
        overstep: fromPromise(async ({ input }) => {
          auth.send({ type: 'OVERSTEP', merchantId: input.merchantId });
          return settled();
        }),
        waitForMenu: fromPromise(async () => {
          // Only for a session, so after loadShell (the router's guard loader).
          const { menu } = actors;
          if (menu.getSnapshot().matches('idle')) menu.send({ type: 'LOAD' });
          // Back to idle means CLEAR (a logout) while waiting: no menu.
          const snapshot = await waitFor(menu, (s) => s.hasTag('menuSettled') || s.matches('idle'));
          return snapshot.context.names;
        }),
      },
    }),
    {
      ...inspection(),
      input: {
        pathname: location.pathname,
        search: location.search,
        tokenKind: auth.getSnapshot().context.tokenKind,
        menuFromServer: options.menuFromServer ?? actors.menuFromServer(),
      },
    },
  );
  guard.start();
  return toPromise(guard);
}
