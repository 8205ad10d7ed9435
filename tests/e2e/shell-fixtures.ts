/**
 * Helpers of the layout-shell browser tests: a console opened for a role with the
 * layout settings, the locale and the open tabs put into storage before the app runs, and the
 * shell's landmarks found by role and accessible name.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEFAULT_SETTINGS, type LayoutSettings } from '../../src/machines/settings';
import type { TabEntry } from '../../src/machines/tabs';
import { apiLogin, enUS, expect, fill, heading1, zhCN } from './fixtures';

export type Role = 'admin' | 'partner' | 'merchant' | 'agent';
export type Catalogue = typeof zhCN | typeof enUS;
export type Layout = Partial<Omit<LayoutSettings, 'globalSettings'>>;

/** The default layout of docs/domain.md §13, as it is stored under localStorage.layoutSettings. */
export const DEFAULT_LAYOUT: Omit<LayoutSettings, 'globalSettings'> = (() => {
  const { globalSettings: _drawer, ...rest } = DEFAULT_SETTINGS;
  return rest;
})();

/** The demo branding of 127.0.0.1 (server/modules/demo/seed.ts). */
export const BRANDING = {
  name: '星云智剪',
  logo: '/logo.svg',
  favicon: '/favicon.svg',
  copyright: '© 2026 星云智剪 版权所有',
  icp: '沪ICP备2026000001号-1',
  police: '沪公网安备31010402000001号',
};

export interface Seed {
  token?: string;
  locale?: 'zh-CN' | 'en-US';
  /** Merged over the default layout and stored as JSON. */
  layout?: Layout;
  /** Stored under sessionStorage.tabs. */
  tabs?: TabEntry[];
}

/**
 * Puts a token, a locale, layout settings and tabs into storage before the console's first
 * script runs. Only once per page: a reload sees what the console itself stored since.
 */
export async function seed(page: Page, values: Seed) {
  await page.addInitScript(
    ({ token, locale, layout, tabs }) => {
      if (location.pathname.startsWith('/api/')) return;
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      if (token) localStorage.setItem('token', token);
      if (locale) localStorage.setItem('locale', locale);
      if (layout) localStorage.setItem('layoutSettings', JSON.stringify(layout));
      if (tabs) sessionStorage.setItem('tabs', JSON.stringify(tabs));
    },
    {
      ...values,
      layout: values.layout ? { ...DEFAULT_LAYOUT, ...values.layout } : undefined,
    },
  );
}

/** Logs `role` in through the API and opens `path` in the console with that session. */
export async function openConsole(
  page: Page,
  request: APIRequestContext,
  role: Role,
  path: string,
  options: Omit<Seed, 'token'> = {},
) {
  await seed(page, { ...options, token: await apiLogin(request, role) });
  await page.goto(path);
  await expect(heading1(page)).toBeVisible();
}

/** The catalogue of a locale. */
export const catalogue = (locale: 'zh-CN' | 'en-US' = 'zh-CN'): Catalogue =>
  locale === 'en-US' ? enUS : zhCN;

/** The navbar (a banner landmark). */
export const navbar = (page: Page) => page.getByRole('banner');

/** The main menu: the side menu or the top menu bar. */
export const mainMenu = (page: Page, t: Catalogue = zhCN) =>
  page.getByRole('navigation', { name: t['shell.menu'], exact: true });

export const settingsDrawer = (page: Page, t: Catalogue = zhCN) =>
  page.getByRole('dialog', { name: t['settings.title'], exact: true });

/** The button that opens the settings drawer (in the navbar, or floating when it is off). */
export const settingsButton = (page: Page, t: Catalogue = zhCN) =>
  page.getByRole('button', { name: t['settings.title'], exact: true });

export const drawerSwitch = (drawer: Locator, label: string) =>
  drawer.getByRole('checkbox', { name: label, exact: true });

export const tabList = (page: Page, t: Catalogue = zhCN) =>
  page.getByRole('tablist', { name: t['tabs.label'], exact: true });

export const tab = (page: Page, name: string, t: Catalogue = zhCN) =>
  tabList(page, t).getByRole('tab', { name, exact: true });

export const userMenuButton = (page: Page, t: Catalogue = zhCN) =>
  page.getByRole('button', { name: new RegExp(fill(t['shell.userMenu'], { name: '.*' })) });

/** What the console stored under localStorage.layoutSettings. */
export const storedLayout = (page: Page) =>
  page.evaluate(
    () => JSON.parse(localStorage.getItem('layoutSettings') ?? 'null') as Layout | null,
  );

/** What the console stored under sessionStorage.tabs. */
export const storedTabs = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('tabs') ?? 'null') as TabEntry[] | null);

/** The rendered width of an element in CSS pixels. */
export const widthOf = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0;

/** A toast (success/info notices are status, errors alert) with this text. */
export const notice = (page: Page, text: string) =>
  page.getByRole('status').filter({ hasText: text });

/**
 * Opens a path inside the running console (history push + popstate, as the router's own links
 * do): no full page load.
 */
export async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}
