/**
 * The navbar of the layout shell (docs/domain.md §13): brand logo and name, page title and tab icon
 * from get_system_info, the locale switch, the theme toggle, the settings button, the user menu,
 * and the floating settings button when the navbar is off.
 */
import { API, enUS, expect, heading1, test, zhCN } from './fixtures';
import {
  BRANDING,
  mainMenu,
  navbar,
  notice,
  openConsole,
  settingsButton,
  settingsDrawer,
  storedLayout,
  userMenuButton,
} from './shell-fixtures';

test('brand logo and name, page titles and the tab icon come from get_system_info', async ({
  page,
  request,
}) => {
  const systemInfo = page.waitForRequest(
    (r) => r.url().includes(`${API}/platform/get_system_info`) && r.method() === 'GET',
  );
  await openConsole(page, request, 'admin', '/home/index');
  expect(new URL((await systemInfo).url()).searchParams.get('domain')).toBe('127.0.0.1');

  const bar = navbar(page);
  await expect(bar.getByText(BRANDING.name, { exact: true })).toBeVisible();
  await expect(bar.locator('img')).toHaveAttribute('src', BRANDING.logo);
  await expect(page).toHaveTitle(`${zhCN['route.home']} - ${BRANDING.name}`);
  await expect(page.locator('link[rel~="icon"]')).toHaveAttribute('href', BRANDING.favicon);

  // Each route has its own title.
  await mainMenu(page).getByRole('link', { name: zhCN['route.domainList'], exact: true }).click();
  await expect(heading1(page)).toHaveText(zhCN['route.domainList']);
  await expect(page).toHaveTitle(`${zhCN['route.domainList']} - ${BRANDING.name}`);
  await mainMenu(page).getByRole('link', { name: zhCN['route.systemInit'], exact: true }).click();
  await expect(page).toHaveTitle(`${zhCN['route.systemInit']} - ${BRANDING.name}`);
});

test('another branding from get_system_info shows another name, logo, title and icon', async ({
  page,
  request,
}) => {
  // What the server answers for this domain decides them: change its answer on the way.
  await page.route(`**${API}/platform/get_system_info?*`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, string> };
    body.data = { ...body.data, name: 'Acme Video', logo: '/acme.svg', favicon: '/acme.ico' };
    await route.fulfill({ response, json: body });
  });
  await openConsole(page, request, 'admin', '/user/info', { locale: 'en-US' });
  await expect(navbar(page).getByText('Acme Video', { exact: true })).toBeVisible();
  await expect(navbar(page).locator('img')).toHaveAttribute('src', '/acme.svg');
  await expect(page).toHaveTitle(`${enUS['route.userInfo']} - Acme Video`);
  await expect(page.locator('link[rel~="icon"]')).toHaveAttribute('href', '/acme.ico');
});

test('the locale switch: success message, localStorage.locale, texts in the other language', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index');
  await expect(heading1(page)).toHaveText(zhCN['route.home']);

  await navbar(page).getByRole('combobox', { name: zhCN['locale.label'] }).selectOption('en-US');
  await expect(notice(page, enUS['locale.changed'])).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(heading1(page)).toHaveText(enUS['route.home']);
  await expect(page).toHaveTitle(`${enUS['route.home']} - ${BRANDING.name}`);
  await expect(
    mainMenu(page, enUS).getByRole('link', { name: enUS['route.domainList'], exact: true }),
  ).toBeVisible();
  await expect(
    mainMenu(page, enUS).getByRole('group', { name: enUS['menu.account'], exact: true }),
  ).toBeVisible();
  await expect(settingsButton(page, enUS)).toBeVisible();

  // Kept after a reload, and back again.
  await page.reload();
  await expect(heading1(page)).toHaveText(enUS['route.home']);
  await navbar(page).getByRole('combobox', { name: enUS['locale.label'] }).selectOption('zh-CN');
  await expect(notice(page, zhCN['locale.changed'])).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-CN');
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
  await expect(
    mainMenu(page).getByRole('link', { name: zhCN['route.domainList'], exact: true }),
  ).toBeVisible();
});

test('the theme toggle: html.dark, stored in the layout settings, restored after a reload', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index');
  const html = page.locator('html');
  await expect(html).toHaveClass(/\blight\b/);
  await expect(html).not.toHaveClass(/\bdark\b/);

  await navbar(page).getByRole('button', { name: zhCN['shell.darkTheme'], exact: true }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(html).not.toHaveClass(/\blight\b/);
  expect((await storedLayout(page))?.theme).toBe('dark');
  // The button now offers the light theme.
  const toLight = navbar(page).getByRole('button', { name: zhCN['shell.lightTheme'], exact: true });
  await expect(toLight).toBeVisible();

  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(html).toHaveCSS('color-scheme', 'dark');

  await toLight.click();
  await expect(html).toHaveClass(/\blight\b/);
  await expect(html).not.toHaveClass(/\bdark\b/);
  expect((await storedLayout(page))?.theme).toBe('light');
  await page.reload();
  await expect(heading1(page)).toBeVisible();
  await expect(html).not.toHaveClass(/\bdark\b/);
});

test('the settings button opens the drawer; it is not a route', async ({ page, request }) => {
  await openConsole(page, request, 'partner', '/dashboard/workBench', { locale: 'en-US' });
  await navbar(page).getByRole('button', { name: enUS['settings.title'], exact: true }).click();
  await expect(settingsDrawer(page, enUS)).toBeVisible();
  await expect(page).toHaveURL('/dashboard/workBench');
  await page.keyboard.press('Escape');
  await expect(settingsDrawer(page, enUS)).toBeHidden();
});

for (const [locale, t] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`the user menu (${locale}): info, settings, logout`, async ({ page, request }) => {
    await openConsole(page, request, 'merchant', '/dashboard/workBench', { locale });
    const menuButton = userMenuButton(page, t);

    await menuButton.click();
    const items = page.getByRole('menu').getByRole('menuitem');
    await expect(items).toHaveText([
      t['route.userInfo'],
      t['route.userSetting'],
      t['shell.logout'],
    ]);
    await items.filter({ hasText: t['route.userInfo'] }).click();
    await expect(page).toHaveURL('/user/info');
    await expect(heading1(page)).toHaveText(t['route.userInfo']);

    await menuButton.click();
    await page.getByRole('menuitem', { name: t['route.userSetting'], exact: true }).click();
    await expect(page).toHaveURL('/user/setting');
    await expect(heading1(page)).toHaveText(t['route.userSetting']);

    await menuButton.click();
    await page.getByRole('menuitem', { name: t['shell.logout'], exact: true }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(heading1(page)).toHaveText(t['login.title']);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
}

test('navbar off: no navbar, a floating settings button opens the drawer', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index', { layout: { navbar: false } });
  await expect(navbar(page)).toHaveCount(0);
  const floating = settingsButton(page);
  await expect(floating).toBeVisible();
  // Fixed at the bottom right of the window.
  await expect(floating).toHaveCSS('position', 'fixed');
  const box = (await floating.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width - 60);
  expect(box.y + box.height).toBeGreaterThan(viewport.height - 60);

  await floating.click();
  const drawer = settingsDrawer(page);
  await expect(drawer).toBeVisible();
  // Turning the navbar back on removes the floating button.
  await drawer.getByText(zhCN['settings.navbar'], { exact: true }).click();
  await drawer.getByRole('button', { name: zhCN['form.cancel'], exact: true }).click();
  await expect(drawer).toBeHidden();
  await expect(navbar(page)).toBeVisible();
  await expect(settingsButton(page)).toHaveCount(1);
  await expect(navbar(page).getByRole('button', { name: zhCN['settings.title'] })).toBeVisible();
});
