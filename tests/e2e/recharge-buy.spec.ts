/**
 * Buying a recharge package from /account/property against the real server and its sandbox
 * payment provider. A merchant (signed up under `partner`) chooses a package, creates the order,
 * opens the payment page from the dialog's "Go to pay" link in a new tab and pays there; the
 * console, polling the order, shows it paid, and the balance and the ledger show money + gift
 * (zh-CN). Another merchant leaves its order unpaid and closes the dialog: nothing is credited
 * and the order stays pending on the server (en-US). axe on the open dialog at each step.
 */
import type { APIRequestContext, Page } from '@playwright/test';
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
/** Demo packages (server/modules/demo/seed.ts) that the admin page's spec leaves alone. */
const STANDARD = '标准套餐';
const TRIAL = '体验套餐';
/** The sandbox checkout page speaks the browser's language (server/platform/i18n.ts, zh-CN here). */
const SANDBOX_PAY = '支付';
const SANDBOX_PAID = '支付成功，可以关闭此页面。';

interface Package {
  id: number;
  name: string;
  price: string;
  money: string;
  gift_money: string;
}

interface Order {
  order_no: string;
  pay_status: string;
  money: string;
  gift_money: string;
}

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

/** A package on sale, as the buyer's own list shows it. */
async function onSale(request: APIRequestContext, token: string, name: string): Promise<Package> {
  const reply = await apiCall<{ list: Package[] }>(request, 'GET', '/recharge_package/list', {
    token,
  });
  expect(reply.code, reply.msg).toBe(1);
  const pkg = reply.data.list.find((p) => p.name === name);
  expect(pkg, `${name} on sale`).toBeDefined();
  return pkg!;
}

async function balance(request: APIRequestContext, token: string): Promise<string> {
  const reply = await apiCall<{ money: string }>(request, 'GET', '/platform/get_account', {
    token,
  });
  expect(reply.code, reply.msg).toBe(1);
  return reply.data.money;
}

async function order(request: APIRequestContext, token: string, orderNo: string): Promise<Order> {
  const reply = await apiCall<Order>(request, 'GET', `/recharge_order/detail?order_no=${orderNo}`, {
    token,
  });
  expect(reply.code, reply.msg).toBe(1);
  return reply.data;
}

/** Money + gift, in cents. */
const plus = (a: string, b: string) =>
  ((Math.round(Number(a) * 100) + Math.round(Number(b) * 100)) / 100).toFixed(2);

// Sign-up, several axe runs and a payment in a second tab: more than the default 30 s on a busy
// 2-core machine.
test.describe.configure({ timeout: 90_000 });

test('a merchant buys a package, pays it in the sandbox tab and sees the credit (zh-CN)', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  const token = await apiLogin(request, user.username, user.password);
  const pkg = await onSale(request, token, STANDARD);
  const total = plus(pkg.money, pkg.gift_money);
  await storeToken(page, token, 'zh-CN');
  await page.goto('/account/property');
  await expect(heading1(page)).toHaveText(zhCN['route.property']);
  await expect(page.getByTestId('balance-money')).toHaveText('0.00');

  await page.getByRole('button', { name: zhCN['buy.open'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: zhCN['buy.title'] });
  const packages = dialog.getByRole('group', { name: zhCN['buy.packages'] });
  const standard = packages.getByRole('radio', { name: STANDARD, exact: true });
  await expect(standard).toBeVisible();
  await noSeriousViolations(page, 'package choice');

  // Nothing chosen: the dialog says so and stays.
  await dialog.getByRole('button', { name: zhCN['property.next'], exact: true }).click();
  await expect(dialog.getByText(zhCN['buy.choosePackage'])).toBeVisible();
  await standard.check();
  await dialog.getByRole('button', { name: zhCN['property.next'], exact: true }).click();
  const summary = dialog.getByRole('group', { name: zhCN['buy.package'] });
  await expect(summary.getByRole('definition')).toHaveText([
    STANDARD,
    `¥${pkg.price}`,
    `${pkg.money} ${MONEY}`,
    `${pkg.gift_money} ${MONEY}`,
    `${total} ${MONEY}`,
  ]);
  await noSeriousViolations(page, 'confirmation');
  await dialog.getByRole('button', { name: zhCN['buy.confirm'], exact: true }).click();

  // The order, and a real link to its payment page on this server.
  const details = dialog.getByRole('group', { name: zhCN['buy.order'] }).getByRole('definition');
  await expect(details.first()).toHaveText(/^RC\d{14}$/);
  const orderNo = (await details.first().textContent())!;
  await expect(details.nth(2)).toHaveText(`¥${pkg.price}`);
  const pay = dialog.getByRole('link', { name: zhCN['buy.goPay'], exact: true });
  await expect(pay).toHaveAttribute(
    'href',
    // With the console's language and zone, which the checkout page follows.
    new RegExp(
      `^${baseURL}/api/v1/pay/sandbox/checkout\\?order_no=${orderNo}&sign=[0-9a-f]+&lang=zh-CN&tz=[^&]+$`,
    ),
  );
  await expect(pay).toHaveAttribute('target', '_blank');
  await expect(pay).toHaveAttribute('rel', 'noopener');
  await noSeriousViolations(page, 'awaiting payment');
  expect((await order(request, token, orderNo)).pay_status).toBe('pending');

  const [checkout] = await Promise.all([page.waitForEvent('popup'), pay.click()]);
  await checkout.getByRole('button', { name: SANDBOX_PAY, exact: true }).click();
  await expect(checkout.getByRole('status')).toHaveText(SANDBOX_PAID);
  await checkout.close();

  // The console finds out by itself (it checks the order every few seconds).
  await expect(dialog.getByRole('status')).toHaveText(zhCN['buy.paid'], { timeout: 15_000 });
  await expect(
    dialog.getByRole('group', { name: zhCN['buy.paid'] }).getByRole('definition'),
  ).toHaveText([
    orderNo,
    STANDARD,
    `¥${pkg.price}`,
    `${pkg.money} ${MONEY}`,
    `${pkg.gift_money} ${MONEY}`,
    `${total} ${MONEY}`,
  ]);
  await noSeriousViolations(page, 'paid');
  await dialog.getByRole('button', { name: zhCN['form.close'], exact: true }).first().click();
  await expect(dialog).toBeHidden();

  // The page reloaded: the new balance and the ledger's credit (money + gift, the package's name).
  await expect(page.getByTestId('balance-money')).toHaveText(total);
  const ledger = page.getByRole('table', { name: zhCN['property.ledger'], exact: true });
  await expect(
    ledger
      .getByRole('row')
      .filter({ hasText: zhCN['ledgerType.recharge'] })
      .filter({ hasText: `+${total}` })
      .filter({ hasText: STANDARD }),
  ).toHaveCount(1);
  expect(await balance(request, token)).toBe(total);
  expect(await order(request, token, orderNo)).toMatchObject({
    pay_status: 'paid',
    money: pkg.money,
    gift_money: pkg.gift_money,
  });

  // The merchant's own orders (DOMAIN §11): the paid order, listed on the property page.
  await page.getByRole('tab', { name: zhCN['property.myOrders'], exact: true }).click();
  const mine = page.getByRole('table', { name: zhCN['property.myOrders'], exact: true });
  const row = mine.getByRole('row').filter({ hasText: orderNo });
  await expect(row).toContainText(zhCN['orders.statusPaid']);
  await expect(row).toContainText(STANDARD);
  await expect(mine.getByRole('row')).toHaveCount(2);
  await noSeriousViolations(page, 'my recharge orders');
});

test('a merchant leaves an order unpaid and closes the dialog: nothing credited (en-US)', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  const token = await apiLogin(request, user.username, user.password);
  const pkg = await onSale(request, token, TRIAL);
  await storeToken(page, token, 'en-US');
  await page.goto('/account/property');
  await expect(heading1(page)).toHaveText(enUS['route.property']);

  await page.getByRole('button', { name: enUS['buy.open'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: enUS['buy.title'] });
  const trial = dialog.getByRole('radio', { name: TRIAL, exact: true });
  await trial.check();
  // What it costs and what it credits, as the radio's description.
  await expect(trial).toHaveAccessibleDescription(
    fill(enUS[Number(pkg.gift_money) > 0 ? 'buy.optionTextGift' : 'buy.optionText'], {
      price: pkg.price,
      money: pkg.money,
      gift: pkg.gift_money,
      total: plus(pkg.money, pkg.gift_money),
      moneyName: MONEY,
    }),
  );
  await noSeriousViolations(page, 'package choice, en-US');
  await dialog.getByRole('button', { name: enUS['property.next'], exact: true }).click();
  // Checks of the order start once it exists.
  const polled = page.waitForRequest(/\/api\/v1\/recharge_order\/detail\?order_no=RC\d+/);
  await dialog.getByRole('button', { name: enUS['buy.confirm'], exact: true }).click();

  const details = dialog.getByRole('group', { name: enUS['buy.order'] }).getByRole('definition');
  await expect(details.first()).toHaveText(/^RC\d{14}$/);
  const orderNo = (await details.first().textContent())!;
  await polled;
  // The dialog says that closing it keeps the order watched, and what happens to the order.
  await expect(dialog.getByText(enUS['buy.closeNote'].split('{time}')[0])).toBeVisible();
  await noSeriousViolations(page, 'awaiting payment, en-US');

  // "I have paid" while nothing was paid: the server says pending, and the dialog says so.
  await dialog.getByRole('button', { name: enUS['buy.checkNow'], exact: true }).click();
  await expect(dialog.getByText(enUS['buy.notPaidYet'])).toBeVisible();

  await dialog.getByRole('button', { name: enUS['form.close'], exact: true }).first().click();
  await expect(dialog).toBeHidden();
  expect((await order(request, token, orderNo)).pay_status).toBe('pending');
  expect(await balance(request, token)).toBe('0.00');
  await expect(page.getByTestId('balance-money')).toHaveText('0.00');
  const log = await apiCall<{ total: number }>(request, 'GET', '/platform/user_money_log', {
    token,
  });
  expect(log.data.total).toBe(0);

  // Opened again, the dialog shows the order, still watched; another package leaves it to close.
  await page.getByRole('button', { name: enUS['buy.open'], exact: true }).click();
  await expect(details.first()).toHaveText(orderNo);
  await dialog.getByRole('button', { name: enUS['buy.otherPackage'], exact: true }).click();
  await expect(dialog.getByRole('radio', { name: TRIAL, exact: true })).not.toBeChecked();
  await dialog.getByRole('button', { name: enUS['form.cancel'], exact: true }).click();
  await expect(dialog).toBeHidden();
});
