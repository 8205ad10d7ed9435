/**
 * The app-level actors (ARCHITECTURE.md rule 2): created once in main.tsx, outside React, with
 * the real API calls, storage and window effects injected into the pure machines. Also wires the
 * HTTP layer's callbacks to the auth actor and the cross-tab logout. Lives in src/app because it
 * imports http.ts, which src/machines may not.
 */
import { createActor, fromPromise, toPromise, waitFor, type ActorRefFrom } from 'xstate';
import * as authApi from '../api/auth';
import type { SystemInfo } from '../api/contract/system';
import { configureHttp, tokenStore, type Notice } from '../api/http';
import { localeStore } from '../i18n/locale-store';
import * as systemApi from '../api/system';
import { authMachine, summarizeAuth, type TokenKind } from '../machines/auth';
import { brandingMachine } from '../machines/branding';
import { guardMachine, type GuardDecision } from '../machines/guard';
import { menuMachine } from '../machines/menu';

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
  /** The host whose branding is loaded (spec §2: the current origin). */
  domain: () => string;
  /** Page title and tab icon from the branding. */
  applyBranding: (info: SystemInfo) => void;
  /** Where `storage` events arrive (another tab removed the token); none in tests. */
  storageEvents: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  /** Set false to leave http.ts unconfigured (tests of the actors alone). */
  wireHttp: boolean;
}

function applyBrandingToDocument(info: SystemInfo): void {
  if (info.name) document.title = info.name;
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
  };
}

export interface AppActors {
  auth: ActorRefFrom<typeof authMachine>;
  menu: ActorRefFrom<typeof menuMachine>;
  branding: ActorRefFrom<typeof brandingMachine>;
  /** The shell registers how to stop following route changes; logout calls it (spec §4). */
  setRouteListener(stop: (() => void) | null): void;
  menuFromServer(): boolean;
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

  const menu = createActor(
    menuMachine.provide({
      actors: { fetchMenu: fromPromise(() => api.getUserMenu()) },
    }),
    { systemId: 'menu' },
  );

  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(() => api.getUserInfo()),
        login: fromPromise(({ input }) => api.login(input)),
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
        clearRouteListener: () => {
          stopRouteListener?.();
          stopRouteListener = null;
        },
        clearServerMenu: () => menu.send({ type: 'CLEAR' }),
        reload: () => deps.reload(),
        closeWindow: () => deps.closeWindow(),
      },
    }),
    { systemId: 'auth', input: { tokenKind: tokens.kind() } },
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
    { systemId: 'branding' },
  );

  if (deps.wireHttp) {
    configureHttp({
      notify: deps.notify,
      locale: deps.locale,
      serverLogout: (code) => auth.send({ type: 'SERVER_LOGOUT', code }),
      unauthorized: ({ hadSessionToken }) =>
        auth.send({ type: 'SESSION_EXPIRED', hadSessionToken }),
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

  menu.start();
  auth.start();
  branding.start();

  return {
    auth,
    menu,
    branding,
    setRouteListener(stop) {
      stopRouteListener = stop;
    },
    menuFromServer: () => deps.menuFromServer(),
    dispose() {
      deps.storageEvents?.removeEventListener('storage', onStorage);
      branding.stop();
      auth.stop();
      menu.stop();
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
  const { auth, menu } = actors;
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
          if (menu.getSnapshot().matches('idle')) menu.send({ type: 'LOAD' });
          // Back to idle means CLEAR (a logout) while waiting: no menu.
          const snapshot = await waitFor(menu, (s) => s.hasTag('menuSettled') || s.matches('idle'));
          return snapshot.context.names;
        }),
      },
    }),
    {
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
