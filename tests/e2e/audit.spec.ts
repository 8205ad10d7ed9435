/**
 * The audit log viewer against the real server (docs/domain.md §21): a partner changes a
 * merchant, opens the merchant's history from its row (the log filtered to that record), sees the
 * change's row and its diff, filters by actor and action, exports the filtered rows as CSV; the
 * admin's page in en-US; axe on both, in both locales.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  fill,
  heading1,
  seriousViolations,
  storeToken,
  test,
  textField,
  uniqueUsername,
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;

const auditTable = (page: Page, c: Catalogue) =>
  page.getByRole('table', { name: c['audit.list'], exact: true });
/** The log's own rows (an open row holds its diff's table, whose rows are not the log's). */
const rowsOf = (table: Locator) => table.locator(':scope > tbody > tr');
const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true });

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

test('a partner sees its change to a merchant, filters and exports it (zh-CN)', async ({
  page,
  request,
}, testInfo) => {
  const c = zhCN;
  const username = uniqueUsername(testInfo, 'aud');
  const token = await apiLogin(request, 'partner');
  const made = await apiCall<{ id: number }>(request, 'POST', '/provider_service/add_by_service', {
    token,
    body: { user_type: 2, username, password: 'Shop#2026', name: '审计小铺' },
  });
  expect(made.code, made.msg).toBe(1);
  await storeToken(page, token);

  // The change, made in the console: the merchant's name.
  await page.goto('/promotion/merchant');
  const filters = page.getByRole('search', { name: c['customers.filters'] });
  await filters.getByRole('textbox', { name: c['customers.keyword'], exact: true }).fill(username);
  await button(filters, c['filter.search']).click();
  const merchants = page.getByRole('table', {
    name: fill(c['customers.tableOf'], { title: c['route.merchant'] }),
    exact: true,
  });
  await expect(merchants.getByRole('row').filter({ hasText: username })).toHaveCount(1);
  await page
    .getByRole('button', { name: fill(c['customers.actionsOf'], { name: username }) })
    .click();
  await page.getByRole('menuitem', { name: c['customers.edit'], exact: true }).click();
  const form = page.getByRole('dialog');
  await textField(form, c['customers.name']).fill('审计二店');
  await button(form, c['form.save']).click();
  await expect(form).toBeHidden();

  // Its history: the log filtered to the merchant, newest first.
  await page.getByRole('link', { name: fill(c['audit.timelineOf'], { name: username }) }).click();
  await expect(heading1(page)).toHaveText(c['route.auditLog']);
  await expect(page.getByTestId('audit-timeline')).toContainText('user');
  const table = auditTable(page, c);
  await expect(rowsOf(table)).toHaveCount(2);
  const edit = rowsOf(table).filter({ hasText: 'customer.edit' });
  await expect(edit).toContainText('partner');
  await expect(edit).toContainText(c['role.partner']);
  await expect(edit).toContainText(c['audit.ok']);
  await expect(rowsOf(table).nth(1)).toContainText('customer.add');
  // The row opens to its diff: before → after.
  await edit.getByRole('button', { name: fill(c['audit.showChanges'], { count: 1 }) }).click();
  const diff = edit.getByTestId('audit-diff');
  await expect(diff.getByRole('row').filter({ hasText: 'name' })).toContainText('审计小铺');
  await expect(diff.getByRole('row').filter({ hasText: 'name' })).toContainText('审计二店');
  await expect(page).not.toHaveURL(/record=/);
  await noSeriousViolations(page, 'the audit log, a row open (zh-CN)');

  // Filters: by actor (username) and action.
  await button(page, c['audit.showAll']).click();
  const bar = page.getByRole('search', { name: c['audit.filters'] });
  await bar.getByRole('textbox', { name: c['audit.actor'], exact: true }).fill('partner');
  await bar
    .getByRole('combobox', { name: c['audit.action'], exact: true })
    .selectOption('customer.add');
  await bar
    .getByRole('textbox', { name: c['audit.resourceId'], exact: true })
    .fill(String(made.data.id));
  await button(bar, c['filter.search']).click();
  await expect(rowsOf(table)).toHaveCount(1);
  await expect(rowsOf(table).first()).toContainText('customer.add');

  // Export the filtered rows: a UTF-8 CSV with a BOM, localised, no session token in the URL.
  const downloading = page.waitForEvent('download');
  await button(page, c['audit.export']).click();
  const download = await downloading;
  await expect(page.getByTestId('export-status')).toHaveText(c['audit.exportStarted']);
  const raw = await readFile((await download.path())!, 'utf8');
  expect(raw.startsWith('\uFEFF')).toBe(true);
  const lines = raw.slice(1).trim().split(/\r\n/);
  expect(lines[0]).toMatch(/^时间\(UTC\+8\),操作人,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',partner,');
  expect(lines[1]).toContain(`,customer.add,user,${made.data.id},成功,`);
  expect(download.url()).not.toContain(token);

  // Leave the demo partner's merchants as seeded.
  const gone = await apiCall(request, 'POST', '/provider_service/delete', {
    token,
    body: { id: made.data.id },
  });
  expect(gone.code, gone.msg).toBe(1);
});

test('the admin’s log in en-US and zh-CN: every row, axe clean', async ({ page, request }) => {
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/account/audit');
  const c = enUS;
  await expect(heading1(page)).toHaveText(c['route.auditLog']);
  const table = auditTable(page, c);
  await expect(rowsOf(table).first()).toBeVisible();
  const withChanges = rowsOf(table)
    .filter({ has: page.getByRole('button', { name: /^Show changes/ }) })
    .first();
  await withChanges.getByRole('button', { name: /^Show changes/ }).click();
  await expect(table.getByTestId('audit-diff').first()).toBeVisible();
  await expect(table.getByRole('button', { name: c['audit.hideChanges'] })).toHaveCount(1);
  await noSeriousViolations(page, 'the audit log (en-US)');

  await storeToken(page, await apiLogin(request, 'admin'), 'zh-CN');
  await page.goto('/account/audit');
  await expect(heading1(page)).toHaveText(zhCN['route.auditLog']);
  await expect(rowsOf(auditTable(page, zhCN)).first()).toBeVisible();
  await noSeriousViolations(page, 'the audit log (zh-CN)');
  // A merchant is not let in.
  await storeToken(page, await apiLogin(request, 'merchant'), 'zh-CN');
  await page.goto('/account/audit');
  await expect(heading1(page)).not.toHaveText(zhCN['route.auditLog']);
});
