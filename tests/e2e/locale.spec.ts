/** Locales (docs/domain.md §13): zh-CN by default, en-US by choice, kept under localStorage.locale. */

import { apiLogin, enUS, expect, heading1, storeToken, test, uniqueMobile, zhCN } from './fixtures';

test('zh-CN is the default', async ({ page }) => {
  await page.goto('/login');
  await expect(heading1(page)).toHaveText('欢迎登录');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: zhCN['login.submit'], exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBeNull();
});

test('the language switch shows English with a success message, kept after reload', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('combobox', { name: zhCN['locale.label'] }).selectOption('en-US');
  await expect(page.getByRole('status').filter({ hasText: 'Language switched' })).toBeVisible();
  await expect(heading1(page)).toHaveText('Welcome');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');

  await page.reload();
  await expect(heading1(page)).toHaveText('Welcome');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');

  // And back.
  await page.getByRole('combobox', { name: enUS['locale.label'] }).selectOption('zh-CN');
  await expect(page.getByRole('status').filter({ hasText: zhCN['locale.changed'] })).toBeVisible();
  await expect(heading1(page)).toHaveText('欢迎登录');
});

test('a page downloads only the shown language: the other catalogue loads on a switch', async ({
  page,
}) => {
  const catalogues: string[] = [];
  page.on('request', (r) => {
    // Each catalogue is two parts (src/i18n/messages.ts); signed out, only the first is loaded.
    const name = /\/assets\/(signed-(?:out|in)-(?:en-US|zh-CN))-[^/]*\.js$/.exec(r.url());
    if (name) catalogues.push(name[1]);
  });
  await page.goto('/login');
  await expect(page.getByRole('combobox', { name: zhCN['locale.label'] })).toBeEnabled();
  await expect.poll(() => catalogues).toEqual(['signed-out-zh-CN']);

  // A catalogue that cannot load leaves the language as it is, with a message.
  await page.route(/\/assets\/signed-out-en-US-[^/]*\.js$/, (route) => route.abort());
  await page.getByRole('combobox', { name: zhCN['locale.label'] }).selectOption('en-US');
  await expect(
    page.getByRole('alert').filter({ hasText: zhCN['locale.loadFailed'] }),
  ).toBeVisible();
  await expect(heading1(page)).toHaveText('欢迎登录');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await page.unroute(/\/assets\/signed-out-en-US-[^/]*\.js$/);
  await page.getByRole('combobox', { name: zhCN['locale.label'] }).selectOption('en-US');
  await expect(heading1(page)).toHaveText('Welcome');
  expect(catalogues.filter((c) => c === 'signed-out-en-US').length).toBeGreaterThan(0);
  expect(catalogues.filter((c) => c.startsWith('signed-in'))).toEqual([]);
});

test('localStorage.locale = en-US shows the console in English', async ({ page, request }) => {
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/home/index');
  await expect(heading1(page)).toHaveText('Home');
  await expect(
    page.getByRole('navigation').getByRole('link', { name: 'Domain list' }),
  ).toBeVisible();
  await expect(
    page.getByRole('main').getByText(enUS['stats.partners'], { exact: true }),
  ).toBeVisible();
  await page.goto('/exception/404');
  await expect(page.getByText('Whoops, this page is gone')).toBeVisible();

  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  await page.reload();
  await expect(page.getByText(zhCN['exception.404'])).toBeVisible();
});

test("the server's sentences follow the console's locale", async ({ page }, testInfo) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: enUS['register.title'] });
  // No code was sent to this mobile: the server refuses it in the console's language.
  await dialog.getByRole('textbox', { name: 'Account', exact: true }).fill('admin');
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('Start#2026');
  await dialog.getByRole('textbox', { name: 'Mobile', exact: true }).fill(uniqueMobile(testInfo));
  await dialog.getByRole('textbox', { name: 'SMS code', exact: true }).fill('000000');
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The code is wrong or has expired' }),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
});
