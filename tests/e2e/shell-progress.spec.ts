/**
 * The progress bar (docs/domain.md §17: minimum 0.08, trickle rate 0.02, trickle speed 800 ms,
 * animation speed 200 ms) on a navigation to a lazy page and on a slow call, and the scroll reset
 * of docs/domain.md §13 ("Scroll resets to top on navigation").
 */
import type { Page } from '@playwright/test';
import { API, expect, heading1, openUserMenuItem, test, zhCN } from './fixtures';
import { mainMenu, openConsole } from './shell-fixtures';

const bar = (page: Page) => page.getByTestId('progress-bar');

/** The bar's width in per cent of the window (its style), or null while hidden. */
const shownWidth = (page: Page) =>
  bar(page).evaluate((el: HTMLElement) =>
    el.getAttribute('aria-hidden') === 'true' ? null : parseFloat(el.style.width),
  );

test('a navigation to a lazy page shows the bar from 8 %, trickling, until the page is there', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index');
  await expect(bar(page)).toHaveAttribute('aria-hidden', 'true');
  await expect(bar(page)).toHaveCSS('opacity', '0');

  // The user-info view's chunk arrives 1.8 s late.
  let held = false;
  await page.route(/\/assets\/user-info-page-[^/]*\.js$/, async (route) => {
    held = true;
    await new Promise((resolve) => setTimeout(resolve, 1800));
    await route.continue();
  });
  await openUserMenuItem(page, zhCN['route.userInfo']);
  // Shown at the minimum first…
  const progressbar = page.getByRole('progressbar', { name: zhCN['app.loading'] });
  await expect(progressbar).toBeVisible();
  await expect(progressbar).toHaveAttribute('aria-valuenow', /^\d+$/);
  expect(Number(await progressbar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(8);
  await expect(bar(page)).toHaveCSS('opacity', '1');
  expect(await bar(page).evaluate((el: HTMLElement) => el.style.transition)).toContain('200ms');
  // …then trickling forward every 800 ms while the page is still on its way.
  await expect.poll(() => shownWidth(page), { timeout: 1500 }).toBeGreaterThan(8);
  expect(held).toBe(true);
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  // Done: the bar fills, then fades out.
  await expect(bar(page)).toHaveAttribute('aria-hidden', 'true');
  await expect(bar(page)).toHaveCSS('opacity', '0');
});

test('a slow call shows the bar until it answers', async ({ page, request }) => {
  // Held until the bar has been seen: the call goes with the document (index.html's first
  // calls), so a fixed delay could be over before a slow machine has rendered the page.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route(`**${API}/platform/dashboard_data`, async (route) => {
    await answered;
    await route.continue();
  });
  await openConsole(page, request, 'admin', '/home/index');
  // The page is there; its data call is still running.
  await expect(page.getByTestId('stat-partners')).not.toHaveText('2');
  await expect(page.getByRole('progressbar', { name: zhCN['app.loading'] })).toBeVisible();
  answer();
  await expect(page.getByTestId('stat-partners')).toHaveText('2');
  await expect(bar(page)).toHaveAttribute('aria-hidden', 'true');
});

test('scroll resets to the top on navigation', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 360 });
  await openConsole(page, request, 'admin', '/user/info');
  const main = page.getByRole('main');
  const scrollTop = () => main.evaluate((el) => el.scrollTop);
  await main.evaluate((el) => el.scrollTo({ top: 200 }));
  await expect.poll(scrollTop).toBeGreaterThan(100);

  await mainMenu(page).getByRole('link', { name: zhCN['route.agreement'] }).click();
  await expect(heading1(page)).toHaveText(zhCN['route.agreement']);
  expect(await scrollTop()).toBe(0);

  // And back to a long page: at its top, not where it was left.
  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
  await main.evaluate((el) => el.scrollTo({ top: 150 }));
  await expect.poll(scrollTop).toBeGreaterThan(100);
  await openUserMenuItem(page, zhCN['route.userSetting']);
  await expect(heading1(page)).toHaveText(zhCN['route.userSetting']);
  expect(await scrollTop()).toBe(0);
});
