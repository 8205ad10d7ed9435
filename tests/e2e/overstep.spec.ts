/**
 * Overstep login (docs/domain.md §13): a route with `login_type=1&merchant_id=…` opened in a tab without a
 * session token logs in as that merchant; the token lives in that tab's session storage only.
 */

import {
  accountIdOf,
  apiLogin,
  apiUserInfo,
  clickClosingPage,
  expect,
  fill,
  heading1,
  openUserMenuItem,
  storedToken,
  storeToken,
  test,
  zhCN,
} from './fixtures';

const overstepUrl = (merchantId: number | string) => `/?login_type=1&merchant_id=${merchantId}`;

test('admin opens the merchant console in a second tab; its own tab stays the admin', async ({
  page,
  request,
}) => {
  // Two tabs, three reloads and a logout: ≈ 30 s on a busy 2-core machine.
  test.setTimeout(60_000);
  const adminToken = await apiLogin(request, 'admin');
  const merchantId = await accountIdOf(request, 'merchant');
  await storeToken(page, adminToken);
  await page.goto('/home/index');
  await expect(heading1(page)).toHaveText(zhCN['route.home']);

  const tab = await page.context().newPage();
  await tab.goto(overstepUrl(merchantId));
  await expect(tab).toHaveURL('/dashboard/workBench');
  await expect(heading1(tab)).toHaveText(zhCN['route.workBench']);
  await expect(tab.getByTestId('balance-money')).toHaveText('1200.50');
  await expect(tab.getByRole('status').filter({ hasText: 'merchant' })).toHaveText(
    fill(zhCN['overstep.banner'], { merchant: 'merchant', by: 'admin' }) + zhCN['overstep.end'],
  );

  // The merchant's token is in this tab's session storage only; local storage keeps the admin's.
  const sessionToken = await storedToken(tab, 'session');
  expect(sessionToken).toBeTruthy();
  expect(sessionToken).not.toBe(adminToken);
  expect(await storedToken(tab, 'local')).toBe(adminToken);
  expect(await storedToken(page, 'local')).toBe(adminToken);
  expect(await storedToken(page, 'session')).toBeNull();
  expect((await apiUserInfo(request, sessionToken!)).username).toBe('merchant');

  // The first tab is still the admin, also after a reload; the second stays the merchant.
  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
  await expect(page.getByRole('status').filter({ hasText: 'merchant' })).toHaveCount(0);
  await tab.reload();
  await expect(heading1(tab)).toHaveText(zhCN['route.workBench']);
  expect(await storedToken(tab, 'session')).toBe(sessionToken);

  // The admin logs out: the overstep tab keeps its own session (docs/decisions.md).
  await openUserMenuItem(page, zhCN['shell.logout']);
  await expect(page).toHaveURL('/login');
  await tab.getByRole('navigation').getByRole('link', { name: zhCN['route.property'] }).click();
  await expect(heading1(tab)).toHaveText(zhCN['route.property']);
  await tab.reload();
  await expect(heading1(tab)).toHaveText(zhCN['route.property']);
  expect(await storedToken(tab, 'session')).toBe(sessionToken);
});

test("a partner steps into its own merchant but not into partner2's merchant2", async ({
  page,
  request,
}) => {
  const partnerToken = await apiLogin(request, 'partner');
  const [merchantId, merchant2Id] = [
    await accountIdOf(request, 'merchant'),
    await accountIdOf(request, 'merchant2'),
  ];
  await storeToken(page, partnerToken);
  await page.goto('/dashboard/workBench');
  await expect(heading1(page)).toHaveText(zhCN['route.workBench']);

  const own = await page.context().newPage();
  await own.goto(overstepUrl(merchantId));
  await expect(own).toHaveURL('/dashboard/workBench');
  await expect(own.getByRole('status').filter({ hasText: 'merchant' })).toContainText(
    fill(zhCN['overstep.banner'], { merchant: 'merchant', by: 'partner' }),
  );

  const foreign = await page.context().newPage();
  await foreign.goto(overstepUrl(merchant2Id));
  await expect(foreign).toHaveURL(/\/login\?redirect=/);
  await expect(foreign.getByRole('main').getByRole('alert')).toHaveText('商户不存在');
  expect(await storedToken(foreign, 'session')).toBeNull();

  // The partner's own tab is still the partner.
  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.workBench']);
  await expect(page.getByTestId('balance-money')).toHaveText('98799.50');
  expect(await storedToken(page)).toBe(partnerToken);
});

test('a merchant id that is no merchant, or no session at all, ends on login', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const partnerId = await accountIdOf(request, 'partner');
  const merchantId = await accountIdOf(request, 'merchant');
  await storeToken(page, await apiLogin(request, 'admin'));
  for (const id of [999999, partnerId]) {
    const tab = await page.context().newPage();
    await tab.goto(overstepUrl(id));
    await expect(tab, `merchant_id=${id}`).toHaveURL(/\/login\?redirect=/);
    await expect(heading1(tab)).toHaveText(zhCN['login.title']);
    expect(await storedToken(tab, 'session')).toBeNull();
    await tab.close();
  }

  // Anonymous: nobody to step in from.
  const anonymous = await browser.newContext({ baseURL });
  const tab = await anonymous.newPage();
  await tab.goto(overstepUrl(merchantId));
  await expect(tab).toHaveURL(/\/login\?redirect=/);
  expect(await storedToken(tab, 'session')).toBeNull();
  await anonymous.close();
});

test("the overstep banner's End button ends the merchant session and closes its tab", async ({
  page,
  request,
}) => {
  const adminToken = await apiLogin(request, 'admin');
  const merchantId = await accountIdOf(request, 'merchant');
  await storeToken(page, adminToken);
  await page.goto('/home/index');
  await expect(heading1(page)).toHaveText(zhCN['route.home']);

  const [tab] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate((url) => window.open(url), overstepUrl(merchantId)),
  ]);
  await expect(heading1(tab)).toHaveText(zhCN['route.workBench']);
  const sessionToken = await storedToken(tab, 'session');
  expect(sessionToken).toBeTruthy();

  await clickClosingPage(tab, tab.getByRole('button', { name: zhCN['overstep.end'] }));
  // The merchant session is over on the server; the admin's tab and session are untouched.
  const refused = await request.post('/api/v1/platform/get_user_info', {
    headers: { token: sessionToken!, platform: 'pc' },
  });
  expect(refused.status()).toBe(401);
  expect((await apiUserInfo(request, adminToken)).username).toBe('admin');
  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
});
