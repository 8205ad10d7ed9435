/**
 * axe on the login page (zh-CN and en-US), the admin home, and every built page for each role
 * that may open it in both locales: nothing serious or critical.
 */
import { readFileSync } from 'node:fs';
import { ROUTES, canOpen } from '../../src/app/routes/route-table';
import {
  apiLogin,
  contextWithToken,
  enUS,
  expect,
  heading1,
  type MessageId,
  storeToken,
  test,
  zhCN,
  seriousViolations,
} from './fixtures';
import { openInApp } from './shell-fixtures';

test('login page, zh-CN, and its dialogs', async ({ page }) => {
  await page.goto('/login');
  await expect(heading1(page)).toHaveText('欢迎登录');
  expect(await seriousViolations(page)).toEqual([]);

  for (const [button, title] of [
    [zhCN['login.register'], zhCN['register.title']],
    [zhCN['login.forgot'], zhCN['forgot.title']],
  ]) {
    await page.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page), title).toEqual([]);
    await dialog.getByRole('button', { name: zhCN['form.cancel'] }).click();
    await expect(dialog).toBeHidden();
  }
});

test('login page, en-US, with validation errors shown', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(heading1(page)).toHaveText('Welcome');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Username cannot be empty')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('admin home', async ({ page, request }) => {
  await storeToken(page, await apiLogin(request, 'admin'));
  await page.goto('/home/index');
  await expect(page.getByTestId('stat-partners')).toHaveText('2');
  expect(await seriousViolations(page)).toEqual([]);
});

/**
 * The built pages: the route names src/app/routes/views.ts (login, exceptions) and page-views.ts
 * (the signed-in pages) give a view of their own (read from their source, so a page built later
 * joins this pass by itself); the others show "not built yet".
 */
function builtRouteNames(): Set<string> {
  const names = (file: string, table: string) => {
    const source = readFileSync(new URL(`../../src/app/routes/${file}`, import.meta.url), 'utf8');
    const body = source.slice(source.indexOf(table));
    return [...body.matchAll(/^\s+(\w+): /gm)].map((m) => m[1]);
  };
  return new Set([...names('views.ts', 'const FIRST'), ...names('page-views.ts', 'const VIEWS')]);
}

test.describe('axe on every built page, each role, both locales', () => {
  test.describe.configure({ mode: 'parallel' });
  const built = builtRouteNames();

  test('the built pages are found', () => {
    expect([...built]).toEqual(
      expect.arrayContaining(['home', 'property', 'cardPassword', 'resource']),
    );
  });

  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const role of ['admin', 'partner', 'merchant', 'agent'] as const) {
      test(`${role}, ${locale}`, async ({ browser, request, baseURL }) => {
        test.setTimeout(150_000);
        const t = locale === 'zh-CN' ? zhCN : enUS;
        const token = await apiLogin(request, role);
        const context = await contextWithToken(browser, baseURL!, token, locale);
        const page = await context.newPage();
        await page.goto('/user/info');
        await expect(heading1(page)).toHaveText(t['route.userInfo']);
        const pages = ROUTES.filter(
          (r) => r.requiresAuth && r.group && built.has(r.name) && canOpen(r, { role }),
        );
        expect(pages.length).toBeGreaterThan(3);
        const found: Record<string, unknown> = {};
        for (const route of pages) {
          await openInApp(page, route.path);
          await page.waitForURL(route.path);
          await expect(heading1(page)).toHaveText(t[route.titleId as MessageId]);
          // Lists and dashboards loaded (nothing marked busy), then axe.
          await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
          const violations = await seriousViolations(page, ['label-content-name-mismatch']);
          if (violations.length > 0) found[route.path] = violations;
        }
        expect(found).toEqual({});
        await context.close();
      });
    }
  }
});
