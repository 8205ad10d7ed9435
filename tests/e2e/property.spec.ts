/**
 * /account/property against the real server: a merchant's balances, ledger and an exchange of
 * money for digital-human minutes (zh-CN); a partner's transfer to its merchant and a take-back,
 * the records, a refusal with the server's message (en-US); axe on the page and the open dialogs.
 * Each test makes its own merchant (signed up under `partner`), so demo balances stay as seeded.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  fill,
  heading1,
  registerUser,
  seriousViolations,
  storeToken,
  test,
  zhCN,
  MONEY,
} from './fixtures';

async function account(request: APIRequestContext, token: string) {
  const reply = await apiCall<{
    money: string;
    digital_man_seconds: number;
  }>(request, 'GET', '/platform/get_account', { token });
  expect(reply.code, reply.msg).toBe(1);
  return reply.data;
}

async function partnerGives(request: APIRequestContext, userId: number, amount: string) {
  const token = await apiLogin(request, 'partner');
  const reply = await apiCall(request, 'POST', '/platform/transfer', {
    token,
    body: { to_user_id: userId, asset: 'money', amount, remark: 'e2e opening' },
  });
  expect(reply.code, reply.msg).toBe(1);
  await apiCall(request, 'POST', '/platform/logout', { token });
}

const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });
const rowWith = (scope: Locator, ...texts: string[]) => {
  let rows = scope.getByRole('row');
  for (const text of texts) rows = rows.filter({ hasText: text });
  return rows;
};

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

// Each test opens several dialogs and runs axe on each: more than the default 30 s on a busy
// 2-core machine.
test.describe.configure({ timeout: 90_000 });

test('a merchant sees its balances and ledger and exchanges money for minutes (zh-CN)', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  await partnerGives(request, user.id, '100');
  const token = await apiLogin(request, user.username, user.password);
  await storeToken(page, token);
  await page.goto('/account/property');
  await expect(heading1(page)).toHaveText(zhCN['route.property']);

  await expect(page.getByTestId('balance-money')).toHaveText('100.00');
  await expect(page.getByTestId('balance-minutes')).toHaveText('0 秒');
  const ledger = table(page, zhCN['property.ledger']);
  await expect(rowWith(ledger, zhCN['ledgerType.transfer_in'], '+100.00')).toHaveCount(1);
  // A merchant exchanges, but does not transfer.
  await expect(
    page.getByRole('button', { name: zhCN['property.transfer'], exact: true }),
  ).toHaveCount(0);
  await noSeriousViolations(page, 'property page');

  await page.getByRole('button', { name: zhCN['property.exchange'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: zhCN['property.exchange'] });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole('combobox', { name: zhCN['property.exchangeTarget'], exact: true }),
  ).toHaveValue('digital_man');
  // Not a whole number: the contract's message, nothing sent.
  await dialog.getByRole('textbox', { name: zhCN['property.quantityMinutes'] }).fill('1.5');
  await dialog.getByRole('button', { name: zhCN['property.next'] }).click();
  await expect(dialog.getByText(zhCN['validation.quantity'])).toBeVisible();

  await dialog.getByRole('textbox', { name: zhCN['property.quantityMinutes'] }).fill('5');
  // The demo price is 1.00 a minute: the cost shows before confirming.
  await expect(dialog.getByTestId('exchange-cost')).toHaveText(`5.00 ${MONEY}`);
  await noSeriousViolations(page, 'exchange form');
  await dialog.getByRole('button', { name: zhCN['property.next'] }).click();
  await expect(dialog.getByText(zhCN['property.confirmExchangeText'])).toBeVisible();
  await noSeriousViolations(page, 'exchange confirmation');
  await dialog.getByRole('button', { name: zhCN['property.confirmExchange'] }).click();
  await expect(dialog.getByRole('status')).toHaveText(zhCN['property.exchangeDone']);
  await dialog.getByRole('button', { name: zhCN['form.close'] }).last().click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId('balance-money')).toHaveText('95.00');
  await expect(page.getByTestId('balance-minutes')).toHaveText('5 分钟');
  await expect(rowWith(ledger, zhCN['ledgerType.exchange'], '-5.00')).toHaveCount(1);
  await expect(rowWith(ledger, zhCN['ledgerType.exchange'], '+5 分钟')).toHaveCount(1);
  // Filtered to digital-human time: only the minutes' row.
  const filters = page.getByRole('search', { name: zhCN['property.ledgerFilters'] });
  await filters
    .getByRole('combobox', { name: zhCN['property.asset'], exact: true })
    .selectOption('digital_man');
  await filters.getByRole('button', { name: zhCN['filter.search'] }).click();
  await expect(ledger.getByRole('row')).toHaveCount(2);
  await expect(rowWith(ledger, zhCN['ledgerType.exchange'], '+5 分钟', '0 秒')).toHaveCount(1);
  expect(await account(request, token)).toMatchObject({ money: '95.00', digital_man_seconds: 300 });
});

test('a partner gives money to its merchant and takes some back; a refusal shows why (en-US)', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  await storeToken(page, await apiLogin(request, 'partner'), 'en-US');
  await page.goto('/account/property');
  await expect(heading1(page)).toHaveText(enUS['route.property']);
  await noSeriousViolations(page, 'property page, en-US');

  const open = page.getByRole('button', { name: enUS['property.transfer'], exact: true });
  await open.click();
  const dialog = page.getByRole('dialog', { name: enUS['property.transfer'] });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('searchbox', { name: enUS['property.searchUser'] }).fill(user.username);
  await dialog
    .getByRole('combobox', { name: enUS['property.recipient'], exact: true })
    .selectOption(String(user.id));
  await expect(
    dialog.getByRole('combobox', { name: enUS['property.asset'], exact: true }),
  ).toHaveValue('money');
  const amount = dialog.getByRole('textbox', {
    name: fill(enUS['property.amountIn'], { unit: MONEY }),
  });
  // More than 2 decimals: refused by the shared contract before anything is sent.
  await amount.fill('1.234');
  await dialog.getByRole('button', { name: enUS['property.next'] }).click();
  await expect(dialog.getByText(enUS['validation.amount'])).toBeVisible();
  await amount.fill('12.5');
  await dialog.getByRole('textbox', { name: enUS['property.remark'] }).fill('e2e give');
  await noSeriousViolations(page, 'transfer form');
  await dialog.getByRole('button', { name: enUS['property.next'] }).click();

  const summary = dialog.getByRole('group', { name: enUS['property.confirmTransfer'] });
  await expect(summary).toContainText(user.username);
  await expect(summary).toContainText(`12.50 ${MONEY}`);
  await noSeriousViolations(page, 'transfer confirmation');
  await dialog.getByRole('button', { name: enUS['property.confirmTransfer'] }).click();
  await expect(dialog.getByRole('status')).toHaveText(enUS['property.transferDone']);
  await expect(dialog).toContainText(/TR\d+/);

  // Another one: take 2.50 back.
  await dialog.getByRole('button', { name: enUS['property.again'] }).click();
  await dialog.getByRole('searchbox', { name: enUS['property.searchUser'] }).fill(user.username);
  await dialog
    .getByRole('combobox', { name: enUS['property.recipient'], exact: true })
    .selectOption(String(user.id));
  await dialog
    .getByRole('combobox', { name: enUS['property.direction'], exact: true })
    .selectOption('take');
  await amount.fill('2.50');
  await dialog.getByRole('button', { name: enUS['property.next'] }).click();
  await expect(dialog.getByRole('group', { name: enUS['property.confirmTransfer'] })).toContainText(
    user.username,
  );
  await dialog.getByRole('button', { name: enUS['property.confirmTransfer'] }).click();
  await expect(dialog.getByRole('status')).toHaveText(enUS['property.transferDone']);

  // More than the merchant holds: the server refuses, in the viewer's language; nothing moved,
  // so the draft may be edited again (but not sent again as it was).
  await dialog.getByRole('button', { name: enUS['property.again'] }).click();
  await dialog.getByRole('searchbox', { name: enUS['property.searchUser'] }).fill(user.username);
  await dialog
    .getByRole('combobox', { name: enUS['property.recipient'], exact: true })
    .selectOption(String(user.id));
  await dialog
    .getByRole('combobox', { name: enUS['property.direction'], exact: true })
    .selectOption('take');
  await amount.fill('1000');
  await dialog.getByRole('button', { name: enUS['property.next'] }).click();
  await dialog.getByRole('button', { name: enUS['property.confirmTransfer'] }).click();
  await expect(dialog.getByRole('alert')).toContainText('Insufficient balance');
  // A refusal would only be refused again: no Retry, back to the form.
  await expect(dialog.getByRole('button', { name: enUS['property.retry'] })).toHaveCount(0);
  await noSeriousViolations(page, 'transfer refused');
  await dialog.getByRole('button', { name: enUS['property.back'] }).click();
  await expect(amount).toHaveValue('1000');
  await dialog.getByRole('button', { name: enUS['form.cancel'] }).click();
  await expect(dialog).toBeHidden();

  // The records show both transfers; the merchant holds 10.00.
  await page.getByRole('tab', { name: enUS['property.transfers'] }).click();
  const records = table(page, enUS['property.transfers']);
  const amountCell = (amount: string) => page.getByRole('cell', { name: amount, exact: true });
  // Given: from the partner (its balance before → after) to the merchant (0.00 → 12.50).
  await expect(
    rowWith(records, user.username, 'e2e give', '0.00 → 12.50').filter({
      has: amountCell('12.50'),
    }),
  ).toHaveCount(1);
  // Taken back: from the merchant (12.50 → 10.00).
  await expect(
    rowWith(records, user.username, '12.50 → 10.00').filter({ has: amountCell('2.50') }),
  ).toHaveCount(1);
  await noSeriousViolations(page, 'transfer records');
  const merchant = await apiLogin(request, user.username, user.password);
  expect((await account(request, merchant)).money).toBe('10.00');
  // The merchant sees the same two transfers as received and sent.
  const seen = await apiCall<{ total: number }>(request, 'GET', '/platform/transfer_record', {
    token: merchant,
  });
  expect(seen.data.total).toBe(2);
});

test('a transfer whose reply is lost is retried with the same key and applied once', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  await storeToken(page, await apiLogin(request, 'partner'), 'en-US');
  // The first transfer reaches the server, but its reply never reaches the console.
  const keys: string[] = [];
  let lose = true;
  await page.route('**/api/v1/platform/transfer', async (route) => {
    keys.push((await route.request().headerValue('idempotency-key')) ?? '');
    if (!lose) return route.continue();
    lose = false;
    await route.fetch();
    await route.abort('failed');
  });
  await page.goto('/account/property');
  await page.getByRole('button', { name: enUS['property.transfer'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: enUS['property.transfer'] });
  await dialog.getByRole('searchbox', { name: enUS['property.searchUser'] }).fill(user.username);
  await dialog
    .getByRole('combobox', { name: enUS['property.recipient'], exact: true })
    .selectOption(String(user.id));
  await dialog
    .getByRole('textbox', { name: fill(enUS['property.amountIn'], { unit: MONEY }) })
    .fill('5');
  await dialog.getByRole('button', { name: enUS['property.next'] }).click();
  await dialog.getByRole('button', { name: enUS['property.confirmTransfer'] }).click();

  // Not known whether it went through: retry or close, but no editing into a second transfer.
  await expect(dialog.getByRole('alert')).toContainText(enUS['property.uncertain']);
  await expect(dialog.getByRole('button', { name: enUS['property.back'] })).toHaveCount(0);
  await noSeriousViolations(page, 'transfer, reply lost');
  await dialog.getByRole('button', { name: enUS['property.retry'] }).click();
  await expect(dialog.getByRole('status')).toHaveText(enUS['property.transferDone']);

  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
  expect(keys[1]).toBe(keys[0]);
  const merchant = await apiLogin(request, user.username, user.password);
  expect((await account(request, merchant)).money).toBe('5.00');
});
