/**
 * Defects found trying every route as each role, in both locales: each one, as a
 * person meets it on the page.
 */
import { apiLogin, contextWithToken, enUS, expect, fill, heading1, test, zhCN } from './fixtures';
import { mainMenu, openInApp } from './shell-fixtures';

test('/user/info shows the registration time as YYYY-MM-DD HH:mm', async ({
  browser,
  request,
  baseURL,
}) => {
  const context = await contextWithToken(browser, baseURL!, await apiLogin(request, 'agent'));
  const page = await context.newPage();
  await page.goto('/user/info');
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  const registered = page
    .getByRole('term')
    .filter({ hasText: zhCN['user.registrationDate'] })
    .locator('xpath=following-sibling::*[1]');
  await expect(registered).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  await context.close();
});

test('a merchant’s workbench has its balances and no “my customers” (it has none)', async ({
  browser,
  request,
  baseURL,
}) => {
  const context = await contextWithToken(browser, baseURL!, await apiLogin(request, 'merchant'));
  const page = await context.newPage();
  await page.goto('/dashboard/workBench');
  await expect(page.getByTestId('balance-money')).toContainText('1200.50');
  await expect(page.getByRole('heading', { name: zhCN['workBench.counts'] })).toHaveCount(0);
  await expect(page.getByTestId('count-merchants')).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: zhCN['route.toCreateVideo'], exact: true }),
  ).toHaveAttribute('href', '/dashboard/to-create-video');
  await context.close();
});

test('the side menu scrolls to the open page’s entry', async ({ browser, request, baseURL }) => {
  const context = await contextWithToken(browser, baseURL!, await apiLogin(request, 'admin'));
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 420 });
  // The last entry of the admin's menu, opened by its address.
  await page.goto('/ai-tool/ai-tool-index');
  await expect(heading1(page)).toHaveText(zhCN['route.aiToolIndex']);
  const current = mainMenu(page).locator('[aria-current="page"]');
  await expect(current).toHaveText(zhCN['route.aiToolIndex']);
  await expect(current).toBeInViewport();
  // And back to the first, opened from elsewhere (not by the menu).
  await openInApp(page, '/home/index');
  await expect(current).toHaveText(zhCN['route.home']);
  await expect(current).toBeInViewport();
  await context.close();
});

test('wide tables at 1440 px: the actions column stays in view while the rest scrolls', async ({
  browser,
  request,
  baseURL,
}) => {
  const context = await contextWithToken(
    browser,
    baseURL!,
    await apiLogin(request, 'admin'),
    'en-US',
  );
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const listOf = (title: string) => fill(enUS['customers.tableOf'], { title });
  for (const [path, title, table] of [
    ['/promotion/partner', enUS['route.partner'], listOf(enUS['route.partner'])],
    ['/promotion/agent', enUS['route.agent'], listOf(enUS['route.agent'])],
    ['/promotion/card-password', enUS['route.cardPassword'], enUS['cards.list']],
  ]) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(heading1(page)).toHaveText(title);
      const region = page.getByRole('region', { name: table, exact: true });
      const actions = region.getByRole('columnheader', { name: enUS['customers.actions'] });
      await expect(actions).toBeVisible();
      const box = async () => {
        const [r, a] = [await region.boundingBox(), await actions.boundingBox()];
        return { regionRight: r!.x + r!.width, actionsRight: a!.x + a!.width };
      };
      // At either end of the sideways scroll, the whole actions column is inside the table.
      for (const to of ['start', 'end'] as const) {
        await region.evaluate(
          (el, end) => (el.scrollLeft = end === 'end' ? el.scrollWidth : 0),
          to,
        );
        const { regionRight, actionsRight } = await box();
        expect(actionsRight, `${path} scrolled to the ${to}`).toBeLessThanOrEqual(regionRight + 1);
      }
      // The page itself never scrolls sideways: only the table does.
      expect(await page.locator('main').evaluate((m) => m.scrollWidth - m.clientWidth)).toBe(0);
    });
  }
  await context.close();
});

test('a partner on the partner list is told why it is empty and where its own details are', async ({
  browser,
  request,
  baseURL,
}) => {
  const context = await contextWithToken(browser, baseURL!, await apiLogin(request, 'partner'));
  const page = await context.newPage();
  await page.goto('/promotion/partner');
  await expect(heading1(page)).toHaveText(zhCN['route.partner']);
  await expect(page.getByText(zhCN['customers.partnerSelfNote'])).toBeVisible();
  await expect(page.getByText(zhCN['customers.noPartners'])).toBeVisible();
  await page.getByRole('link', { name: zhCN['customers.partnerSelfLink'] }).click();
  await expect(page).toHaveURL('/user/info');
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  await context.close();
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`date filters write YYYY-MM-DD and show a calendar in the console's language (${locale})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const t = locale === 'zh-CN' ? zhCN : enUS;
    const context = await contextWithToken(
      browser,
      baseURL!,
      await apiLogin(request, 'merchant'),
      locale,
    );
    // These browsers speak zh-CN: in an en-US console the calendar is still English.
    const page = await context.newPage();
    await page.goto('/account/property');
    // The property page loads several lists at once: slow on a busy 2-core machine.
    await expect(heading1(page)).toHaveText(t['route.property'], { timeout: 20_000 });
    const from = page.getByRole('textbox', { name: t['property.fromDate'] }).first();
    await expect(from).toHaveAttribute('placeholder', t['date.placeholder']);
    await from.fill('2026-11-05');
    await from.press('Enter');
    await expect(from).toHaveValue('2026-11-05');
    await page
      .getByRole('button', { name: fill(t['date.open'], { field: t['property.fromDate'] }) })
      .first()
      .click();
    const calendar = page.getByRole('application').or(page.getByRole('dialog')).last();
    await expect(calendar).toBeVisible();
    await expect(calendar).toContainText(locale === 'zh-CN' ? '2026年11月' : 'November 2026');
    // Picking a day writes it the same way.
    await calendar.getByRole('button', { name: /12/ }).first().click();
    await expect(from).toHaveValue('2026-11-12');
    await context.close();
  });
}
