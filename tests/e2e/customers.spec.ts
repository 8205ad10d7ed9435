/**
 * The customer pages against the real server: a partner creates, edits, disables and re-enables
 * a merchant (its login follows), partner2 does not see partner's merchants, the admin creates a
 * partner (en-US), "log in as" opens the merchant's console in a new tab with the banner and its
 * End button, and the relationship tree opens with the keyboard; axe on the pages and dialogs.
 */
import type { Locator, Page, TestInfo } from '@playwright/test';
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
  MONEY,
} from './fixtures';

// Several axe runs per test, on a machine shared with other work: more time than the default.
test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;
const PASSWORD = 'Shop#2026';

const table = (page: Page, c: Catalogue, title: string) =>
  page.getByRole('table', { name: fill(c['customers.tableOf'], { title }), exact: true });
const rowOf = (scope: Locator, text: string) => scope.getByRole('row').filter({ hasText: text });
const dialog = (page: Page) => page.getByRole('dialog');
/** A password box by its label (a required field's '*' follows the label's text). */
const passwordField = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

async function loginCode(request: Parameters<typeof apiLogin>[0], account: string) {
  const reply = await apiCall(request, 'POST', '/platform/login', {
    body: { account, password: PASSWORD },
  });
  return reply.code;
}

async function rowAction(page: Page, c: Catalogue, username: string, action: string) {
  await page
    .getByRole('button', { name: fill(c['customers.actionsOf'], { name: username }) })
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

async function search(page: Page, c: Catalogue, keyword: string) {
  const filters = page.getByRole('search', { name: c['customers.filters'] });
  await filters.getByRole('textbox', { name: c['customers.keyword'], exact: true }).fill(keyword);
  await filters.getByRole('button', { name: c['filter.search'], exact: true }).click();
}

async function idOf(request: Parameters<typeof apiLogin>[0], token: string, username: string) {
  const listed = await apiCall<{ list: { id: number; username: string }[] }>(
    request,
    'GET',
    `/provider_service?user_type=2&keyword=${username}`,
    { token },
  );
  const id = listed.data.list.find((r) => r.username === username)?.id;
  expect(id, `the id of ${username}`).toBeTruthy();
  return id!;
}

const uniquePrefix = (testInfo: TestInfo) => `Q${uniqueUsername(testInfo).slice(-5)}`.toUpperCase();

test('a partner creates a merchant that can log in, then edits it (zh-CN)', async ({
  page,
  request,
}, testInfo) => {
  const c = zhCN;
  const username = uniqueUsername(testInfo, 'shop');
  await storeToken(page, await apiLogin(request, 'partner'));
  await page.goto('/promotion/merchant');
  await expect(heading1(page)).toHaveText(c['route.merchant']);
  const list = table(page, c, c['route.merchant']);
  await expect(rowOf(list, '晨光小店')).toHaveCount(1);
  await noSeriousViolations(page, 'the merchant list');

  // Create: the form checks like the server, then the new merchant is in the list.
  await page.getByRole('button', { name: c['customers.addMerchant'], exact: true }).click();
  const form = dialog(page);
  await expect(form).toBeVisible();
  await expect(form.getByRole('combobox', { name: c['customers.agent'] })).toBeVisible();
  await expect(
    textField(form, fill(c['customers.trialMoney'], { moneyName: MONEY })),
  ).toBeVisible();
  await form.getByRole('button', { name: c['customers.create'], exact: true }).click();
  await expect(form.getByText(c['validation.usernameRequired'])).toBeVisible();
  await textField(form, c['customers.username']).fill(username);
  await passwordField(form, c['form.password']).fill(PASSWORD);
  await textField(form, c['customers.name']).fill('测试小铺');
  await noSeriousViolations(page, 'the create dialog');
  await form.getByRole('button', { name: c['customers.create'], exact: true }).click();
  await expect(form).toBeHidden();
  await search(page, c, username);
  await expect(rowOf(list, username)).toContainText('测试小铺');
  expect(await loginCode(request, username)).toBe(1);

  // Edit the name.
  await rowAction(page, c, username, c['customers.edit']);
  await expect(form).toBeVisible();
  await textField(form, c['customers.name']).fill('测试二店');
  await form.getByRole('button', { name: c['form.save'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(rowOf(list, username)).toContainText('测试二店');

  // Leave the demo partner's merchants as seeded (the delete itself is tested below).
  const token = await apiLogin(request, 'partner');
  const id = await idOf(request, token, username);
  const gone = await apiCall(request, 'POST', '/provider_service/delete', { token, body: { id } });
  expect(gone.code, gone.msg).toBe(1);
});

test('a partner disables, re-enables, resets, grants and deletes a merchant (zh-CN)', async ({
  page,
  request,
}, testInfo) => {
  const c = zhCN;
  const username = uniqueUsername(testInfo, 'shop');
  const token = await apiLogin(request, 'partner');
  const made = await apiCall(request, 'POST', '/provider_service/add_by_service', {
    token,
    body: { user_type: 2, username, password: PASSWORD, name: '测试二店' },
  });
  expect(made.code, made.msg).toBe(1);
  await storeToken(page, token);
  await page.goto('/promotion/merchant');
  const list = table(page, c, c['route.merchant']);
  await search(page, c, username);
  await expect(rowOf(list, username)).toContainText('测试二店');
  const form = dialog(page);

  // Disable (after a confirmation): its login is refused; enable again: it logs in.
  const enabled = page.getByRole('checkbox', {
    name: fill(c['customers.enabledOf'], { name: `测试二店 (${username})` }),
  });
  await expect(enabled).toBeChecked();
  await enabled.click({ force: true });
  await expect(form).toBeVisible();
  await noSeriousViolations(page, 'the disable dialog');
  await form.getByRole('button', { name: c['customers.disable'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(enabled).not.toBeChecked();
  expect(await loginCode(request, username)).toBe(0);
  // The first dialog's backdrop may still be fading out on a busy machine and take the click.
  await expect(async () => {
    await enabled.click({ force: true });
    await expect(form).toBeVisible({ timeout: 5_000 });
  }).toPass();
  await form.getByRole('button', { name: c['customers.enable'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(enabled).toBeChecked();
  expect(await loginCode(request, username)).toBe(1);

  // Reset the password, then delete (zero balances, nobody under it).
  await rowAction(page, c, username, c['customers.resetPassword']);
  await passwordField(form, c['form.newPassword']).fill('abc');
  await form.getByRole('button', { name: c['customers.resetPassword'], exact: true }).click();
  await expect(form.getByText(c['validation.passwordRule'])).toBeVisible();
  await passwordField(form, c['form.newPassword']).fill(PASSWORD);
  await form.getByRole('button', { name: c['customers.resetPassword'], exact: true }).click();
  await expect(form).toBeHidden();
  // Transfer permissions: the partner holds all three, so it may grant money transfers.
  await rowAction(page, c, username, c['customers.transferPermissions']);
  const money = form.getByRole('checkbox', {
    name: fill(c['customers.canMoney'], { moneyName: MONEY }),
  });
  await expect(money).not.toBeChecked();
  // The switch's label toggles it (its checkbox is visually hidden).
  await form
    .getByText(fill(c['customers.canMoney'], { moneyName: MONEY }), { exact: true })
    .click();
  await expect(money).toBeChecked();
  await noSeriousViolations(page, 'the permissions dialog');
  await form.getByRole('button', { name: c['form.save'], exact: true }).click();
  await expect(form).toBeHidden();
  const listed = await apiCall<{ list: { can_transfer_money: number }[] }>(
    request,
    'GET',
    `/provider_service?user_type=2&keyword=${username}`,
    { token },
  );
  expect(listed.data.list[0]?.can_transfer_money).toBe(1);
  // A merchant that has been granted a flag may still be deleted: its balances are zero.
  await rowAction(page, c, username, c['customers.delete']);
  await noSeriousViolations(page, 'the delete dialog');
  await form.getByRole('button', { name: c['customers.delete'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(rowOf(list, username)).toHaveCount(0);
});

test("a merchant row's Transfer opens the transfer dialog for that merchant (en-US)", async ({
  page,
  request,
}, testInfo) => {
  const c = enUS;
  const username = uniqueUsername(testInfo, 'give');
  const token = await apiLogin(request, 'partner');
  const made = await apiCall(request, 'POST', '/provider_service/add_by_service', {
    token,
    body: { user_type: 2, username, password: PASSWORD, name: 'Row Shop' },
  });
  expect(made.code, made.msg).toBe(1);
  await storeToken(page, token, 'en-US');
  await page.goto('/promotion/merchant');
  const list = table(page, c, c['route.merchant']);
  await search(page, c, username);
  await expect(rowOf(list, username)).toContainText('Row Shop');

  await rowAction(page, c, username, c['customers.transfer']);
  const form = page.getByRole('dialog', { name: c['property.transfer'] });
  // The recipient is the row's merchant, already chosen.
  const recipient = form.getByRole('combobox', { name: c['property.recipient'], exact: true });
  await expect(recipient.locator('option:checked')).toContainText(`Row Shop (${username})`);
  await form
    .getByRole('textbox', { name: fill(c['property.amountIn'], { unit: MONEY }) })
    .fill('3.5');
  await form.getByRole('button', { name: c['property.next'] }).click();
  await expect(form.getByRole('group', { name: c['property.confirmTransfer'] })).toContainText(
    username,
  );
  await noSeriousViolations(page, 'transfer from a customer row');
  await form.getByRole('button', { name: c['property.confirmTransfer'] }).click();
  await expect(form.getByRole('status')).toHaveText(c['property.transferDone']);
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  // The list loads afresh: the row shows the new balance, as the server holds it.
  await expect(rowOf(list, username)).toContainText('3.50');
  const listed = await apiCall<{ list: { money: string }[] }>(
    request,
    'GET',
    `/provider_service?user_type=2&keyword=${username}`,
    { token },
  );
  expect(listed.data.list[0]?.money).toBe('3.50');
});

test("partner2 does not see partner's merchants; a refused delete says why", async ({
  page,
  request,
}) => {
  const c = zhCN;
  await storeToken(page, await apiLogin(request, 'partner2'));
  await page.goto('/promotion/merchant');
  const list = table(page, c, c['route.merchant']);
  await expect(list.getByRole('cell', { name: 'merchant2', exact: true })).toHaveCount(1);
  await expect(list.getByRole('cell', { name: 'merchant', exact: true })).toHaveCount(0);

  // merchant2 has balances: the server refuses, the dialog shows its sentence and stays.
  await rowAction(page, c, 'merchant2', c['customers.delete']);
  const form = dialog(page);
  await form.getByRole('button', { name: c['customers.delete'], exact: true }).click();
  await expect(form.getByRole('alert')).toBeVisible();
  await expect(form.getByRole('button', { name: c['customers.retry'] })).toBeVisible();
  await form.getByRole('button', { name: c['form.close'] }).click();
  await expect(form).toBeHidden();
  await expect(list.getByRole('cell', { name: 'merchant2', exact: true })).toHaveCount(1);
});

test('the admin creates a partner (en-US)', async ({ page, request }, testInfo) => {
  const c = enUS;
  const username = uniqueUsername(testInfo, 'oem');
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/promotion/partner');
  await expect(heading1(page)).toHaveText(c['route.partner']);
  const list = table(page, c, c['route.partner']);
  await expect(rowOf(list, 'partner2')).toHaveCount(1);
  await noSeriousViolations(page, 'the partner list');

  await page.getByRole('button', { name: c['customers.addPartner'], exact: true }).click();
  const form = dialog(page);
  await textField(form, c['customers.username']).fill(username);
  await passwordField(form, c['form.password']).fill(PASSWORD);
  const prefix = textField(form, c['customers.prefix']);
  await prefix.fill('pa');
  await expect(form.getByText(c['customers.prefixUsed'])).toBeVisible();
  await prefix.fill(uniquePrefix(testInfo));
  await expect(form.getByText(c['customers.prefixUsed'])).toHaveCount(0);
  await expect(textField(form, c['customers.merchantLimit'])).toHaveValue('-1');
  await noSeriousViolations(page, 'the partner form');
  await form.getByRole('button', { name: c['customers.create'], exact: true }).click();
  await expect(form).toBeHidden();
  await search(page, c, username);
  await expect(rowOf(list, username)).toContainText(fill(c['customers.ofUnlimited'], { count: 0 }));
  expect(await loginCode(request, username)).toBe(1);

  // Deleted again at once: other specs count the demo partners.
  await rowAction(page, c, username, c['customers.delete']);
  await form.getByRole('button', { name: c['customers.delete'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(rowOf(list, username)).toHaveCount(0);
  expect(await loginCode(request, username)).toBe(0);
});

test('the admin creates a merchant under a chosen partner and deletes it (zh-CN)', async ({
  page,
  request,
}, testInfo) => {
  const c = zhCN;
  const username = uniqueUsername(testInfo, 'adm');
  await storeToken(page, await apiLogin(request, 'admin'));
  await page.goto('/promotion/merchant');
  const list = table(page, c, c['route.merchant']);
  await expect(list.getByRole('cell', { name: 'merchant2', exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: c['customers.addMerchant'], exact: true }).click();
  const form = dialog(page);
  await textField(form, c['customers.username']).fill(username);
  await passwordField(form, c['form.password']).fill(PASSWORD);
  // The partner is required; the agents offered are the chosen partner's (partner2 has none).
  await form.getByRole('button', { name: c['customers.create'], exact: true }).click();
  const partner = form.getByRole('combobox', { name: c['customers.partner'] });
  await expect(partner).toHaveAccessibleErrorMessage(c['validation.partnerRequired']);
  await partner.selectOption({ label: '极光文化 (partner2)' });
  const agent = form.getByRole('combobox', { name: c['customers.agent'] });
  await expect(agent.getByRole('option')).toHaveText([c['customers.noAgent']]);
  await partner.selectOption({ label: '星云传媒 (partner)' });
  await expect(agent.getByRole('option')).toHaveText([c['customers.noAgent'], '销售小王 (agent)']);
  await partner.selectOption({ label: '极光文化 (partner2)' });
  await form.getByRole('button', { name: c['customers.create'], exact: true }).click();
  await expect(form).toBeHidden();
  await search(page, c, username);
  await expect(rowOf(list, username)).toContainText('极光文化');
  await rowAction(page, c, username, c['customers.delete']);
  await form.getByRole('button', { name: c['customers.delete'], exact: true }).click();
  await expect(form).toBeHidden();
  await expect(rowOf(list, username)).toHaveCount(0);
});

test('the admin sees every merchant, filters by partner and sorts; a partner sees its agents', async ({
  page,
  request,
}) => {
  const c = zhCN;
  await storeToken(page, await apiLogin(request, 'admin'));
  await page.goto('/promotion/all-merchant');
  await expect(heading1(page)).toHaveText(c['route.allMerchant']);
  const list = table(page, c, c['route.allMerchant']);
  await expect(list.getByRole('cell', { name: 'merchant', exact: true })).toHaveCount(1);
  await expect(list.getByRole('cell', { name: 'merchant2', exact: true })).toHaveCount(1);
  const filters = page.getByRole('search', { name: c['customers.filters'] });
  await filters
    .getByRole('combobox', { name: c['customers.partner'] })
    .selectOption({ label: '极光文化 (partner2)' });
  await filters.getByRole('button', { name: c['filter.search'], exact: true }).click();
  await expect(list.getByRole('cell', { name: 'merchant', exact: true })).toHaveCount(0);
  await expect(list.getByRole('cell', { name: 'merchant2', exact: true })).toHaveCount(1);
  // Sorting is the server's: the header tells the order.
  await list.getByRole('button', { name: c['customers.id'], exact: true }).click();
  await expect(list.getByRole('columnheader', { name: c['customers.id'] })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );

  await storeToken(page, await apiLogin(request, 'partner'));
  await page.goto('/promotion/agent');
  const agents = table(page, c, c['route.agent']);
  await expect(rowOf(agents, '销售小王')).toContainText('星云传媒');
  await noSeriousViolations(page, 'the agent list');
});

test('"log in as" opens the merchant console in a new tab with the banner and End', async ({
  page,
  request,
}) => {
  const c = zhCN;
  await storeToken(page, await apiLogin(request, 'partner'));
  await page.goto('/promotion/merchant');
  await expect(rowOf(table(page, c, c['route.merchant']), '晨光小店')).toHaveCount(1);
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    rowAction(page, c, 'merchant', c['customers.loginAs']),
  ]);
  await expect(tab).toHaveURL('/dashboard/workBench');
  const banner = tab.getByRole('status').filter({ hasText: 'merchant' });
  await expect(banner).toContainText(
    fill(c['overstep.banner'], { merchant: 'merchant', by: 'partner' }),
  );
  const end = banner.getByRole('button', { name: c['overstep.end'], exact: true });
  await expect(end).toBeVisible();
  // This tab stays the partner's.
  await expect(heading1(page)).toHaveText(c['route.merchant']);
  await end.click();
  await expect.poll(() => tab.isClosed() || new URL(tab.url()).pathname === '/login').toBe(true);
});

test('the relationship tree opens level by level with the keyboard (en-US)', async ({
  page,
  request,
}) => {
  const c = enUS;
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/promotion/tree');
  await expect(heading1(page)).toHaveText(c['route.tree']);
  const tree = page.getByRole('tree', { name: c['customers.treeLabel'] });
  const partner = tree.getByRole('treeitem', { name: '星云传媒 (partner)', exact: true });
  await expect(partner).toHaveAttribute('aria-expanded', 'false');
  await partner.focus();
  await page.keyboard.press('ArrowRight');
  await expect(partner).toHaveAttribute('aria-expanded', 'true');
  const agent = tree.getByRole('treeitem', { name: '销售小王 (agent)', exact: true });
  await expect(agent).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(agent).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const merchant = tree.getByRole('treeitem', { name: '晨光小店 (merchant)', exact: true });
  await expect(merchant).toBeVisible();
  await expect(merchant).toHaveAttribute('aria-level', '3');
  // Three levels open: each item's name is still its visible text (WCAG 2.5.3).
  expect(await seriousViolations(page, ['label-content-name-mismatch']), 'the tree').toEqual([]);
  await page.keyboard.press('ArrowLeft');
  await expect(merchant).toHaveCount(0);
  await page.keyboard.press('ArrowLeft');
  await expect(partner).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(partner).toHaveAttribute('aria-expanded', 'false');

  // A partner's tree starts at its own agents (and merchants without an agent).
  await storeToken(page, await apiLogin(request, 'partner'), 'en-US');
  await page.goto('/promotion/tree');
  const own = page.getByRole('tree', { name: c['customers.treeLabel'] });
  await expect(
    own.getByRole('treeitem', { name: '销售小王 (agent)', exact: true }),
  ).toHaveAttribute('aria-level', '1');
  await expect(own.getByRole('treeitem', { name: '星云传媒 (partner)', exact: true })).toHaveCount(
    0,
  );
});
