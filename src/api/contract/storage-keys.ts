/**
 * What the console keeps in the browser's storage, by key (contract decision: `localStorage.token`,
 * `sessionStorage.token` for an overstep session, `localStorage.locale`). One list for the console
 * and the login page's inline script (src/app/boot/prerender-inline.ts), which must read the same.
 */
export const STORAGE_KEYS = {
  /** The session token: localStorage, or sessionStorage for a "login as merchant" session. */
  token: 'token',
  /** localStorage: the chosen locale. */
  locale: 'locale',
  /** localStorage: the account name "remember account" keeps (never the password). */
  rememberedAccount: 'rememberedAccount',
  /** localStorage: the layout settings (JSON), theme and colour weak among them. */
  layoutSettings: 'layoutSettings',
  /** sessionStorage: the open tabs (JSON). */
  tabs: 'tabs',
  /**
   * localStorage: the unfinished uploads (JSON: name, size, grant, progress) shown after a reload,
   * and the prefix of tus-js-client's fingerprints of their upload URLs.
   */
  uploads: 'uploads',
} as const;
