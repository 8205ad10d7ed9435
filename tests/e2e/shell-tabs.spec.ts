/**
 * The tab bar of the layout shell (docs/domain.md §13 "A tab bar (when on) keeps opened pages as
 * tabs with a cache list", §3 "Tab entry"): tabs named by page title and keyed by full path, never
 * /redirect/…; kept pages keep their state (no repeated calls, the same DOM); ignoreCache pages
 * come back fresh; close, close others, close right, reload, Delete and ×; kept across a reload
 * of the browser (sessionStorage.tabs) and forgotten at logout.
 */
import type { Page } from '@playwright/test';
import {
  API,
  enUS,
  expect,
  heading1,
  openUserMenuItem,
  signIn,
  test,
  textField,
  zhCN,
} from './fixtures';
import {
  type Catalogue,
  mainMenu,
  openConsole,
  openInApp,
  storedTabs,
  tab,
  tabList,
} from './shell-fixtures';

const TAB_BAR = { layout: { tabBar: true } };

/** The names of the open tabs, in order. */
const tabNames = (page: Page, t: Catalogue = zhCN) =>
  tabList(page, t).getByRole('tab').allTextContents();

async function expectTabs(page: Page, names: string[], selected: string, t: Catalogue = zhCN) {
  await expect(tabList(page, t).getByRole('tab')).toHaveText(names);
  await expect(tabList(page, t).getByRole('tab', { selected: true })).toHaveText(selected);
}

/** Counts the calls of one API path made by the page. */
function countCalls(page: Page, apiPath: string) {
  const counter = { count: 0 };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `${API}${apiPath}`) counter.count += 1;
  });
  return counter;
}

/** Opens a page from the side menu and waits for it (a click during a navigation supersedes it). */
async function openFromMenu(page: Page, name: string) {
  await mainMenu(page).getByRole('link', { name, exact: true }).click();
  await expect(heading1(page)).toHaveText(name);
}

async function tabAction(page: Page, item: string, t: Catalogue = zhCN) {
  await page.getByRole('button', { name: t['tabs.actions'], exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

test('opened pages become tabs named by their titles; the open one is selected', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index', TAB_BAR);
  await expectTabs(page, [zhCN['route.home']], zhCN['route.home']);

  await mainMenu(page).getByRole('link', { name: zhCN['route.domainList'] }).click();
  await expect(heading1(page)).toHaveText(zhCN['route.domainList']);
  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  await expectTabs(
    page,
    [zhCN['route.home'], zhCN['route.domainList'], zhCN['route.userInfo']],
    zhCN['route.userInfo'],
  );
  // Spec §3's tab entry, kept in session storage.
  expect(await storedTabs(page)).toEqual([
    { title: 'route.home', name: 'home', fullPath: '/home/index', query: {}, ignoreCache: false },
    {
      title: 'route.domainList',
      name: 'domainList',
      fullPath: '/domain/domainList',
      query: {},
      ignoreCache: false,
    },
    {
      title: 'route.userInfo',
      name: 'userInfo',
      fullPath: '/user/info',
      query: {},
      ignoreCache: false,
    },
  ]);

  // A tab opens its page.
  await tab(page, zhCN['route.home']).click();
  await expect(page).toHaveURL('/home/index');
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
  await expectTabs(
    page,
    [zhCN['route.home'], zhCN['route.domainList'], zhCN['route.userInfo']],
    zhCN['route.home'],
  );

  // The same route with another query is another tab.
  await openInApp(page, '/user/info?from=tabs');
  await expect(page).toHaveURL('/user/info?from=tabs');
  await expect(tabList(page).getByRole('tab')).toHaveCount(4);
  await expect(tabList(page).getByRole('tab', { name: zhCN['route.userInfo'] })).toHaveCount(2);
  await expect(tabList(page).getByRole('tab').nth(3)).toHaveAttribute('aria-selected', 'true');
  expect((await storedTabs(page))?.[3]).toMatchObject({
    fullPath: '/user/info?from=tabs',
    query: { from: 'tabs' },
  });

  // /redirect/… opens its target and is never a tab; nor is the not-found page.
  await page.goto(`/redirect/${encodeURIComponent('domain/domainList')}`);
  await expect(page).toHaveURL('/domain/domainList');
  await expect(heading1(page)).toHaveText(zhCN['route.domainList']);
  await expect(tabList(page).getByRole('tab')).toHaveCount(4);
  await expect(tabList(page).getByRole('tab', { selected: true })).toHaveText(
    zhCN['route.domainList'],
  );
  await openInApp(page, '/no/such/page');
  await expect(heading1(page)).toHaveText('404');
  await expect(tabList(page).getByRole('tab')).toHaveCount(4);
  const paths = (await storedTabs(page))!.map((t) => t.fullPath);
  expect(paths).toEqual([
    '/home/index',
    '/domain/domainList',
    '/user/info',
    '/user/info?from=tabs',
  ]);

  // Tab names follow the locale (once its catalogue, both parts, has arrived).
  await page.getByRole('combobox', { name: zhCN['locale.label'] }).selectOption('en-US');
  await expect
    .poll(() => tabNames(page, enUS))
    .toEqual([
      enUS['route.home'],
      enUS['route.domainList'],
      enUS['route.userInfo'],
      enUS['route.userInfo'],
    ]);
});

test('switching tabs keeps a page alive: the same DOM, no repeated dashboard call', async ({
  page,
  request,
}) => {
  const dashboard = countCalls(page, '/platform/dashboard_data');
  await openConsole(page, request, 'admin', '/home/index', TAB_BAR);
  const partners = page.getByTestId('stat-partners');
  await expect(partners).toHaveText('2');
  expect(dashboard.count).toBe(1);
  await partners.evaluate((el) => ((window as unknown as { kept: Element }).kept = el));

  await mainMenu(page).getByRole('link', { name: zhCN['route.agreement'] }).click();
  await expect(heading1(page)).toHaveText(zhCN['route.agreement']);
  // Kept, hidden, behind the open page.
  await expect(partners).toBeAttached();
  await expect(partners).toBeHidden();

  // The click itself shows it (its own render, no router transition); the URL follows.
  const atClick = await tab(page, zhCN['route.home']).evaluate(
    (el) =>
      new Promise<{ shown: boolean; path: string }>((resolve) => {
        (el as HTMLElement).click();
        queueMicrotask(() =>
          resolve({
            shown: (window as unknown as { kept: Element }).kept.checkVisibility(),
            path: location.pathname,
          }),
        );
      }),
  );
  expect(atClick).toEqual({ shown: true, path: '/protocol/agreement' });
  await expect(page).toHaveURL('/home/index');
  await expect(partners).toBeVisible();
  await expect(partners).toHaveText('2');
  expect(
    await partners.evaluate((el) => (window as unknown as { kept: Element }).kept === el),
  ).toBe(true);
  // The menu's link to it, too, shows the kept page.
  await openFromMenu(page, zhCN['route.agreement']);
  await openFromMenu(page, zhCN['route.home']);
  await expect(partners).toBeVisible();
  expect(dashboard.count).toBe(1);
});

test('tab bar off: a page left and opened again is built afresh', async ({ page, request }) => {
  const dashboard = countCalls(page, '/platform/dashboard_data');
  await openConsole(page, request, 'admin', '/home/index');
  await expect(tabList(page)).toHaveCount(0);
  const partners = page.getByTestId('stat-partners');
  await expect(partners).toHaveText('2');
  await partners.evaluate((el) => ((window as unknown as { kept: Element }).kept = el));
  await openFromMenu(page, zhCN['route.agreement']);
  await expect(partners).toHaveCount(0);
  await openFromMenu(page, zhCN['route.home']);
  await expect(partners).toHaveText('2');
  expect(
    await partners.evaluate((el) => (window as unknown as { kept: Element }).kept === el),
  ).toBe(false);
  expect(dashboard.count).toBe(2);
});

test('a page marked ignoreCache (/user/setting) renders afresh when its tab is shown again', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'merchant', '/user/setting', TAB_BAR);
  const profile = page.getByRole('form', { name: zhCN['profile.title'] });
  const nickname = textField(profile, zhCN['user.nickname']);
  const saved = await nickname.inputValue();
  await nickname.fill('typed but not saved');
  await nickname.evaluate((el) => ((window as unknown as { kept: Element }).kept = el));
  expect((await storedTabs(page))?.[0]).toMatchObject({ name: 'userSetting', ignoreCache: true });

  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  // Not kept behind the open page.
  await expect(nickname).toHaveCount(0);

  await tab(page, zhCN['route.userSetting']).click();
  await expect(nickname).toHaveValue(saved);
  expect(
    await nickname.evaluate((el) => (window as unknown as { kept: Element }).kept === el),
  ).toBe(false);
});

test('tab actions: close right, close others, close, reload; Delete, arrows and ×', async ({
  page,
  request,
}) => {
  const dashboard = countCalls(page, '/platform/dashboard_data');
  await openConsole(page, request, 'admin', '/home/index', TAB_BAR);
  const [home, domains, info, articles] = [
    zhCN['route.home'],
    zhCN['route.domainList'],
    zhCN['route.userInfo'],
    zhCN['route.article'],
  ];
  // Only one tab: nothing to close but itself.
  await page.getByRole('button', { name: zhCN['tabs.actions'] }).click();
  await expect(page.getByRole('menuitem', { name: zhCN['tabs.closeOthers'] })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: zhCN['tabs.closeRight'] })).toBeDisabled();
  await page.keyboard.press('Escape');

  await openFromMenu(page, domains);
  await openUserMenuItem(page, info);
  await expect(heading1(page)).toHaveText(info);
  await openFromMenu(page, articles);
  await expectTabs(page, [home, domains, info, articles], articles);

  await test.step('close right', async () => {
    await tab(page, domains).click();
    await expect(page).toHaveURL('/domain/domainList');
    await tabAction(page, zhCN['tabs.closeRight']);
    await expectTabs(page, [home, domains], domains);
    await expect(page).toHaveURL('/domain/domainList');
  });

  await test.step('close others', async () => {
    await openUserMenuItem(page, info);
    await expect(heading1(page)).toHaveText(info);
    await expectTabs(page, [home, domains, info], info);
    await tabAction(page, zhCN['tabs.closeOthers']);
    // Home (the default route) stays; it can still be closed on its own.
    await expectTabs(page, [home, info], info);
    await expect(page).toHaveURL('/user/info');
    await tab(page, home).getByTestId('tab-close').click();
    await expectTabs(page, [info], info);
  });

  await test.step('close: the left neighbour of the last tab opens', async () => {
    await openFromMenu(page, home);
    await expectTabs(page, [info, home], home);
    await tabAction(page, zhCN['tabs.close']);
    await expectTabs(page, [info], info);
    await expect(page).toHaveURL('/user/info');
    await expect(heading1(page)).toHaveText(info);
  });

  await test.step('reload re-requests the page and never shows /redirect as a tab', async () => {
    await openFromMenu(page, home);
    await expect(page.getByTestId('stat-partners')).toHaveText('2');
    const before = dashboard.count;
    await tabAction(page, zhCN['tabs.reload']);
    await expect.poll(() => dashboard.count).toBe(before + 1);
    await expect(page).toHaveURL('/home/index');
    await expect(page.getByTestId('stat-partners')).toHaveText('2');
    await expectTabs(page, [info, home], home);
    expect((await storedTabs(page))!.map((t) => t.fullPath)).toEqual(['/user/info', '/home/index']);
    // Reloaded once: back to being kept alive.
    await tab(page, info).click();
    await tab(page, home).click();
    await expect(page.getByTestId('stat-partners')).toBeVisible();
    expect(dashboard.count).toBe(before + 1);
  });

  await test.step('arrow keys move between tabs (focus follows); Delete closes one', async () => {
    await tab(page, home).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL('/user/info');
    await expect(tab(page, info)).toHaveAttribute('aria-selected', 'true');
    await expect(tab(page, info)).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL('/home/index');
    await expect(tab(page, home)).toBeFocused();
    // A person presses Delete on the page they see (pressed before the route follows: the next
    // test).
    await expect(page.getByTestId('stat-partners')).toBeVisible();
    await page.keyboard.press('Delete');
    await expectTabs(page, [info], info);
    await expect(page).toHaveURL('/user/info');
    await expect(tab(page, info)).toBeFocused();
  });

  await test.step('× closes a tab that is not selected; the selection stays', async () => {
    await openFromMenu(page, domains);
    await expectTabs(page, [info, domains], domains);
    await tab(page, info).getByTestId('tab-close').click();
    await expectTabs(page, [domains], domains);
    await expect(page).toHaveURL('/domain/domainList');
  });
});

test('Delete pressed right after an arrow key, before the route follows, leaves the other tab open and shown', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index', TAB_BAR);
  const [home, info] = [zhCN['route.home'], zhCN['route.userInfo']];
  await openUserMenuItem(page, info);
  await expect(heading1(page)).toHaveText(info);
  // After a reload the tabs come back but Home's page is not built: the router's way to it waits
  // for its code, held here for 2 s, long enough to press Delete while it is under way.
  await page.route('**/assets/home-page-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  await page.reload();
  await expect(heading1(page)).toHaveText(info);
  await expectTabs(page, [home, info], info);
  await tab(page, info).focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Delete');
  await expectTabs(page, [info], info);
  // Past the held code's arrival: the abandoned way to Home must not open its tab again.
  await page.waitForTimeout(3_000);
  await expectTabs(page, [info], info);
  await expect(page).toHaveURL('/user/info');
  await expect(heading1(page)).toHaveText(info);
});

test('tabs are kept across a reload of the browser and forgotten at logout', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'partner', '/dashboard/workBench', TAB_BAR);
  await openFromMenu(page, zhCN['route.resource']);
  await openFromMenu(page, zhCN['route.tree']);
  await tab(page, zhCN['route.resource']).click();
  const names = [zhCN['route.workBench'], zhCN['route.resource'], zhCN['route.tree']];
  await expectTabs(page, names, zhCN['route.resource']);
  // The tab shows its page at once; the URL follows once that frame is painted.
  await expect(page).toHaveURL('/creation/resource');
  const stored = await storedTabs(page);

  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.resource']);
  await expectTabs(page, names, zhCN['route.resource']);
  expect(await storedTabs(page)).toEqual(stored);
  await tab(page, zhCN['route.tree']).click();
  await expect(page).toHaveURL('/promotion/tree');

  await openUserMenuItem(page, zhCN['shell.logout']);
  await expect(page).toHaveURL(/\/login/);
  expect(await storedTabs(page)).toEqual([]);
  await signIn(page, 'partner');
  await expect(heading1(page)).toHaveText(zhCN['route.workBench']);
  await expectTabs(page, [zhCN['route.workBench']], zhCN['route.workBench']);
});
