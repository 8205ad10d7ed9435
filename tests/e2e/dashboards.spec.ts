/**
 * The dashboards' charts (docs/domain.md §21): on the admin home and a merchant's work bench, in
 * both locales, each chart a figure named by its title with a text summary and a table of its
 * days; the 7/30-day switch; axe clean. The worker's sign-up (fixtures.ts `resetUser`) is today's
 * new user the admin sees.
 */
import type { Page } from '@playwright/test';
import {
  apiLogin,
  enUS,
  expect,
  fill,
  seriousViolations,
  storeToken,
  test,
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;

const chart = (page: Page, title: string) => page.getByRole('figure', { name: title, exact: true });
const dayTable = (page: Page, c: Catalogue, title: string) =>
  page.getByRole('table', { name: fill(c['charts.tableOf'], { title }), exact: true });

for (const [locale, c] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`the admin home's charts in ${locale}: data, the range switch, axe`, async ({
    page,
    request,
  }) => {
    await storeToken(page, await apiLogin(request, 'admin'), locale);
    await page.goto('/home/index');
    const charts = page.getByRole('region', { name: c['charts.title'] });
    await expect(charts).toBeVisible();
    const newUsers = chart(page, c['charts.newUsers']);
    await expect(newUsers).toBeVisible();
    const bars = newUsers.locator('svg rect[data-bar]');
    await expect(bars).toHaveCount(7);
    // Seven days, today last; today counts at least the worker's sign-up.
    const table = dayTable(page, c, c['charts.newUsers']);
    await expect(table.getByRole('row')).toHaveCount(8);
    const today = Number(await table.getByRole('row').last().getByRole('cell').last().innerText());
    expect(today).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('chart-new_users-summary')).toContainText(String(today));
    // Today's bar is the tallest or as tall as its value says; under the pointer, its tooltip.
    expect(Number(await bars.last().getAttribute('height'))).toBeGreaterThan(0);
    await bars.last().hover({ force: true });
    await expect(newUsers.getByTestId('chart-tooltip')).toContainText(String(today));
    // Every figure has its chart.
    for (const id of ['charts.videos', 'charts.posts', 'charts.spendClones'] as const) {
      await expect(chart(page, c[id])).toBeVisible();
    }
    expect(await seriousViolations(page), 'home, 7 days').toEqual([]);

    const range = page.getByRole('group', { name: c['charts.range'] });
    const days30 = range.getByRole('button', { name: c['charts.days30'] });
    await days30.click();
    await expect(days30).toHaveAttribute('aria-pressed', 'true');
    await expect(table.getByRole('row')).toHaveCount(31);
    await expect(bars).toHaveCount(30);
    expect(await seriousViolations(page), 'home, 30 days').toEqual([]);
    await range.getByRole('button', { name: c['charts.days7'] }).click();
    await expect(table.getByRole('row')).toHaveCount(8);
  });
}

test("a merchant's work bench: its charts without new users, axe clean", async ({
  page,
  request,
}) => {
  const c = enUS;
  await storeToken(page, await apiLogin(request, 'merchant'), 'en-US');
  await page.goto('/dashboard/workBench');
  await expect(page.getByRole('region', { name: c['charts.title'] })).toBeVisible();
  await expect(chart(page, c['charts.videos'])).toBeVisible();
  await expect(dayTable(page, c, c['charts.videos']).getByRole('row')).toHaveCount(8);
  await expect(chart(page, c['charts.newUsers'])).toHaveCount(0);
  expect(await seriousViolations(page), 'work bench').toEqual([]);
});
