/**
 * /account/recharge and /account/recharge-order against the real server. The admin creates a
 * package (refused by the form first), edits it, moves it up with the keyboard, takes it off sale
 * and deletes it (zh-CN). A merchant of its own (signed up under `partner`) buys two packages and
 * pays one through the sandbox's checkout form; the admin finds them by number, buyer and status
 * (en-US); `partner` sees them, `partner2` does not (zh-CN). axe on both pages and the dialogs.
 */
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import {
  API,
  apiCall,
  apiLogin,
  contextWithToken,
  enUS,
  expect,
  fill,
  heading1,
  registerUser,
  seriousViolations,
  storeToken,
  test,
  zhCN,
  type MessageId,
  MONEY,
} from './fixtures';

type Catalogue = Record<MessageId, string>;

interface Package {
  id: number;
  name: string;
  price: string;
  money: string;
  gift_money: string;
  sort: number;
  status: number;
}

interface Order {
  order_no: string;
  amount: string;
  money: string;
  gift_money: string;
  pay_status: string;
  pay_url: string;
  transaction_id: string | null;
}

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true });
const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });
const bodyRows = (scope: Locator) => scope.locator('tbody tr');

/** Every package the admin sees, in the list's order. */
async function adminPackages(request: APIRequestContext, token: string): Promise<Package[]> {
  const reply = await apiCall<{ list: Package[] }>(
    request,
    'GET',
    '/recharge_package/list?limit=100',
    { token },
  );
  expect(reply.code, reply.msg).toBe(1);
  return reply.data.list;
}

test.describe.configure({ timeout: 120_000 });

test('the admin creates, edits, moves up, takes off sale and deletes a package (zh-CN)', async ({
  page,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  await storeToken(page, admin, 'zh-CN');
  await page.goto('/account/recharge');
  await expect(heading1(page)).toHaveText(zhCN['route.recharge']);
  const packages = table(page, zhCN['packages.list']);
  const rows = bodyRows(packages);
  // The demo data's packages, the one off sale included.
  await expect(rows.filter({ hasText: '限时特惠' })).toContainText(zhCN['packages.offSale']);
  await noSeriousViolations(page, 'package page');

  // Refused by the form with the contract's messages: nothing is sent.
  const name = `E2E套餐${Date.now() % 1e7}`;
  await button(page, zhCN['packages.add']).click();
  const dialog = page.getByRole('dialog', { name: zhCN['packages.addTitle'] });
  await expect(dialog).toBeVisible();
  await noSeriousViolations(page, 'package dialog');
  await dialog.getByRole('textbox', { name: zhCN['packages.name'] }).fill(name);
  const price = dialog.getByRole('textbox', { name: zhCN['packages.priceCny'] });
  await price.fill('12.345');
  await button(dialog, zhCN['packages.create']).click();
  await expect(dialog.getByText(zhCN['validation.price'])).toBeVisible();
  await expect(dialog.getByText(zhCN['validation.packageMoney'])).toBeVisible();
  await noSeriousViolations(page, 'package dialog with errors');
  expect((await adminPackages(request, admin)).map((p) => p.name)).not.toContain(name);

  await price.fill('12.5');
  await dialog
    .getByRole('textbox', { name: fill(zhCN['packages.moneyOf'], { moneyName: MONEY }) })
    .fill('100');
  await dialog
    .getByRole('textbox', { name: fill(zhCN['packages.giftOf'], { moneyName: MONEY }) })
    .fill('5');
  // Sort 2: after the demo's second package, so that it has one above it to pass.
  await dialog.getByRole('textbox', { name: zhCN['packages.sort'] }).fill('2');
  await dialog.getByRole('textbox', { name: zhCN['packages.description'] }).fill('端到端测试');
  await button(dialog, zhCN['packages.create']).click();
  await expect(dialog).toBeHidden();
  const row = (packageName: string) =>
    rows.filter({ has: page.getByRole('cell', { name: packageName, exact: true }) });
  await expect(row(name)).toHaveCount(1);
  await expect(row(name).getByRole('cell')).toContainText([
    '',
    name,
    '12.50',
    '100.00',
    '5.00',
    '2',
    zhCN['packages.onSale'],
    '端到端测试',
  ]);

  // Edit: saving nothing changed is refused; a new name and price are saved.
  await button(page, fill(zhCN['packages.editOf'], { name })).click();
  const edit = page.getByRole('dialog', { name: fill(zhCN['packages.editTitle'], { name }) });
  await expect(edit.getByRole('textbox', { name: zhCN['packages.priceCny'] })).toHaveValue('12.50');
  await button(edit, zhCN['form.save']).click();
  await expect(edit.getByRole('alert')).toHaveText(zhCN['validation.nothingToChange']);
  const renamed = `${name}改`;
  await edit.getByRole('textbox', { name: zhCN['packages.name'] }).fill(renamed);
  await edit.getByRole('textbox', { name: zhCN['packages.priceCny'] }).fill('15');
  await button(edit, zhCN['form.save']).click();
  await expect(edit).toBeHidden();
  await expect(row(renamed).getByRole('cell').nth(2)).toHaveText('15.00');
  await expect(row(name)).toHaveCount(0);

  // Move it up with the keyboard: it trades places with the package above it, the whole order is
  // saved (sort 1, 2, …), and the focus stays on its button.
  const names = () => rows.locator('td:nth-child(2)').allTextContents();
  const before = await names();
  const at = before.indexOf(renamed);
  expect(at).toBeGreaterThan(0);
  const expected = [...before];
  [expected[at - 1], expected[at]] = [expected[at], expected[at - 1]];
  const up = button(page, fill(zhCN['packages.moveUp'], { name: renamed }));
  await up.focus();
  await page.keyboard.press('Enter');
  await expect.poll(names).toEqual(expected);
  // First now, its "up" button waits: the focus is on "down".
  const down = button(page, fill(zhCN['packages.moveDown'], { name: renamed }));
  await expect(at - 1 > 0 ? up : down).toBeFocused();
  const saved = await adminPackages(request, admin);
  expect(saved.map((p) => p.name).slice(0, expected.length)).toEqual(expected);
  expect(saved.find((p) => p.name === renamed)?.sort).toBe(at);

  // With a filter the order cannot change: the buttons wait and the note says why.
  const filters = page.getByRole('search', { name: zhCN['packages.filters'] });
  await filters
    .getByRole('combobox', { name: zhCN['packages.status'] })
    .selectOption({ label: zhCN['packages.onSale'] });
  await button(filters, zhCN['filter.search']).click();
  await expect(page.getByTestId('sort-note')).toHaveText(zhCN['packages.sortFiltered']);
  await expect(rows.filter({ hasText: '限时特惠' })).toHaveCount(0);
  await expect(up).toBeDisabled();
  await button(filters, zhCN['filter.reset']).click();
  await expect(page.getByTestId('sort-note')).toHaveText(zhCN['packages.sortHelpList']);

  // Off sale, then deleted after a confirmation.
  await button(page, fill(zhCN['packages.takeOffSaleOf'], { name: renamed })).click();
  await expect(row(renamed).getByTestId('package-status')).toHaveText(zhCN['packages.offSale']);
  await expect(button(page, fill(zhCN['packages.putOnSaleOf'], { name: renamed }))).toBeVisible();
  expect((await adminPackages(request, admin)).find((p) => p.name === renamed)?.status).toBe(0);

  await button(page, fill(zhCN['packages.deleteOf'], { name: renamed })).click();
  const remove = page.getByRole('dialog', {
    name: fill(zhCN['packages.deleteTitle'], { name: renamed }),
  });
  await expect(remove).toContainText(zhCN['packages.deleteText']);
  await noSeriousViolations(page, 'delete confirmation');
  await button(remove, zhCN['packages.delete']).click();
  await expect(remove).toBeHidden();
  await expect(row(renamed)).toHaveCount(0);
  expect((await adminPackages(request, admin)).map((p) => p.name)).not.toContain(renamed);
});

/**
 * A merchant of its own under `partner` orders the first package on sale twice and pays the first
 * order through the sandbox's checkout page (its form: order_no and the link's sign).
 */
async function merchantWithOrders(request: APIRequestContext, testInfo: TestInfo) {
  const user = await registerUser(request, testInfo);
  const token = await apiLogin(request, user.username, user.password);
  const onSale = await apiCall<{ list: Package[] }>(request, 'GET', '/recharge_package/list', {
    token,
  });
  expect(onSale.code, onSale.msg).toBe(1);
  const pkg = onSale.data.list[0];
  const order = async () => {
    const reply = await apiCall<Order>(request, 'POST', '/recharge_order/create', {
      token,
      body: { package_id: pkg.id, pay_way: 'sandbox' },
    });
    expect(reply.code, reply.msg).toBe(1);
    return reply.data;
  };
  const paid = await order();
  const pending = await order();

  const checkout = await request.get(paid.pay_url);
  expect(checkout.status()).toBe(200);
  const html = await checkout.text();
  const field = (fieldName: string) =>
    new RegExp(`name="${fieldName}" value="([^"]+)"`).exec(html)?.[1];
  expect(html).toContain(`action="${API}/pay/sandbox/pay"`);
  const payment = await request.post(`${API}/pay/sandbox/pay`, {
    form: { order_no: field('order_no')!, sign: field('sign')! },
  });
  expect(payment.status()).toBe(200);
  const detail = await apiCall<Order>(
    request,
    'GET',
    `/recharge_order/detail?order_no=${paid.order_no}`,
    { token },
  );
  expect(detail.data).toMatchObject({ order_no: paid.order_no, pay_status: 'paid' });
  expect(detail.data.transaction_id).toBeTruthy();
  return { user, pkg, paid: detail.data, pending };
}

const orderRows = (page: Page, locale: Catalogue) =>
  bodyRows(table(page, locale['orders.list'])).filter({ has: page.getByTestId('order-no') });

async function search(page: Page, locale: Catalogue, fields: Partial<Record<MessageId, string>>) {
  const filters = page.getByRole('search', { name: locale['orders.filters'] });
  await button(filters, locale['filter.reset']).click();
  for (const [id, value] of Object.entries(fields) as [MessageId, string][]) {
    if (id === 'orders.payStatus') {
      await filters
        .getByRole('combobox', { name: locale[id], exact: true })
        .selectOption({ label: value });
    } else {
      await filters.getByRole('textbox', { name: locale[id], exact: true }).fill(value);
    }
  }
  await button(filters, locale['filter.search']).click();
}

test('the admin finds orders by number, buyer and status (en-US)', async ({
  page,
  request,
  context,
}, testInfo) => {
  const { user, pkg, paid, pending } = await merchantWithOrders(request, testInfo);
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/account/recharge-order');
  await expect(heading1(page)).toHaveText(enUS['route.rechargeOrder']);
  await expect(orderRows(page, enUS).first()).toBeVisible();
  await noSeriousViolations(page, 'order page');

  // By number: the paid order, with what was paid and credited.
  await search(page, enUS, { 'orders.orderNo': paid.order_no });
  await expect(orderRows(page, enUS)).toHaveCount(1);
  const cells = orderRows(page, enUS).first().getByRole('cell');
  await expect(cells).toContainText([
    paid.order_no,
    user.username,
    pkg.name,
    paid.amount,
    fill(enUS['orders.moneyPlusGift'], { money: paid.money, gift: paid.gift_money }),
    enUS['orders.paySandbox'],
    enUS['orders.statusPaid'],
    paid.transaction_id!,
  ]);
  await expect(cells.nth(9)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  // The number's copy button puts it on the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await button(page, fill(enUS['orders.copyOrderNo'], { orderNo: paid.order_no })).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(paid.order_no);

  // By buyer and status.
  await search(page, enUS, {
    'orders.buyerKeyword': user.username,
    'orders.payStatus': enUS['orders.statusPending'],
  });
  await expect(orderRows(page, enUS)).toHaveCount(1);
  await expect(orderRows(page, enUS).getByTestId('order-no')).toHaveText(pending.order_no);
  await expect(orderRows(page, enUS).getByTestId('order-status')).toHaveText(
    enUS['orders.statusPending'],
  );
  await expect(orderRows(page, enUS).getByRole('cell').nth(7)).toHaveText('—');
  await search(page, enUS, { 'orders.buyerKeyword': user.username });
  await expect(orderRows(page, enUS).getByTestId('order-no')).toHaveText([
    pending.order_no,
    paid.order_no,
  ]);
  await search(page, enUS, {
    'orders.buyerKeyword': user.username,
    'orders.payStatus': enUS['orders.statusClosed'],
  });
  await expect(page.getByText(enUS['orders.empty'])).toBeVisible();
  await expect(orderRows(page, enUS)).toHaveCount(0);
  await noSeriousViolations(page, 'order page, empty');

  // Not an order number: the contract's message, and the list stays as it was.
  await search(page, enUS, { 'orders.orderNo': 'RC-1' });
  await expect(page.getByRole('alert')).toHaveText(enUS['validation.orderNo']);
});

test('a partner sees the orders of its merchants; partner2 does not (zh-CN)', async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  const { user, paid, pending } = await merchantWithOrders(request, testInfo);
  await storeToken(page, await apiLogin(request, 'partner'), 'zh-CN');
  await page.goto('/account/recharge-order');
  await expect(heading1(page)).toHaveText(zhCN['route.rechargeOrder']);
  await search(page, zhCN, { 'orders.buyerKeyword': user.username });
  await expect(orderRows(page, zhCN).getByTestId('order-no')).toHaveText([
    pending.order_no,
    paid.order_no,
  ]);
  await expect(orderRows(page, zhCN).getByTestId('order-status')).toHaveText([
    zhCN['orders.statusPending'],
    zhCN['orders.statusPaid'],
  ]);
  await search(page, zhCN, {
    'orders.buyerKeyword': user.username,
    'orders.payStatus': zhCN['orders.statusPaid'],
  });
  await expect(orderRows(page, zhCN).getByTestId('order-no')).toHaveText([paid.order_no]);
  await noSeriousViolations(page, 'order page of a partner');

  // Another partner's console: neither by buyer nor by number.
  const other = await contextWithToken(
    browser,
    baseURL!,
    await apiLogin(request, 'partner2'),
    'zh-CN',
  );
  const otherPage = await other.newPage();
  await otherPage.goto('/account/recharge-order');
  await expect(heading1(otherPage)).toHaveText(zhCN['route.rechargeOrder']);
  await search(otherPage, zhCN, { 'orders.buyerKeyword': user.username });
  await expect(otherPage.getByText(zhCN['orders.empty'])).toBeVisible();
  await search(otherPage, zhCN, { 'orders.orderNo': paid.order_no });
  await expect(otherPage.getByText(zhCN['orders.empty'])).toBeVisible();
  await expect(orderRows(otherPage, zhCN)).toHaveCount(0);
  await other.close();
});
