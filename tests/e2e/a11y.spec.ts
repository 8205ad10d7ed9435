/**
 * axe on the login page (zh-CN and en-US), the admin home, and every built page in both locales
 * and for each role that may open it: nothing serious or critical.
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

const ROLES = ['admin', 'partner', 'merchant', 'agent'] as const;
type Role = (typeof ROLES)[number];
type Locale = 'zh-CN' | 'en-US';

/**
 * Where a page is checked: each role that may open it once, the roles taking the locales in
 * turn (the first zh-CN, the next en-US, …), and a page only one role opens in both. Every page
 * is so checked in both locales and as every role that sees it, in half the page loads of every
 * role in every locale (a page's markup differs by role and by language, not by their product).
 */
function checkedAs(roles: readonly Role[]): Array<[Role, Locale]> {
  const pairs = roles.map((role, i): [Role, Locale] => [role, i % 2 === 0 ? 'zh-CN' : 'en-US']);
  if (roles.length === 1) pairs.push([roles[0], 'en-US']);
  return pairs;
}

test.describe('axe on every built page, both locales, each role', () => {
  test.describe.configure({ mode: 'parallel' });
  const built = builtRouteNames();
  const pages = ROUTES.filter((r) => r.requiresAuth && r.group && built.has(r.name));
  const checks = new Map(
    pages.map((route) => [
      route,
      checkedAs(ROLES.filter((role) => canOpen(route, { role }))).map(([r, l]) => `${r} ${l}`),
    ]),
  );

  test('every built page is checked in both locales and as every role that opens it', () => {
    for (const [route, pairs] of checks) {
      const roles = ROLES.filter((role) => canOpen(route, { role }));
      expect(pairs.some((p) => p.endsWith('zh-CN')) && pairs.some((p) => p.endsWith('en-US'))).toBe(
        true,
      );
      expect(roles.every((role) => pairs.some((p) => p.startsWith(`${role} `)))).toBe(true);
    }
  });

  test('the built pages are found', () => {
    expect([...built]).toEqual(
      expect.arrayContaining(['home', 'property', 'cardPassword', 'resource']),
    );
  });

  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const role of ROLES) {
      const mine = pages.filter((route) => checks.get(route)!.includes(`${role} ${locale}`));
      if (mine.length === 0) continue;
      test(`${role}, ${locale}`, async ({ browser, request, baseURL }) => {
        test.setTimeout(150_000);
        const t = locale === 'zh-CN' ? zhCN : enUS;
        const token = await apiLogin(request, role);
        const context = await contextWithToken(browser, baseURL!, token, locale);
        const page = await context.newPage();
        await page.goto('/user/info');
        await expect(heading1(page)).toHaveText(t['route.userInfo']);
        const found: Record<string, unknown> = {};
        for (const route of mine) {
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
