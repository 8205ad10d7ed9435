import type { Page } from '@playwright/test';
import {
  apiLogin,
  DEMO_PASSWORD,
  enUS,
  expect,
  heading1,
  openUserMenuItem,
  registerUser,
  signIn,
  storageValues,
  storedToken,
  storeToken,
  test,
  zhCN,
  MONEY,
} from './fixtures';

const stat = (page: Page, id: string) => page.getByTestId(id);

test.describe('login per role', () => {
  test('admin lands on /home/index with the platform totals', async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page).toHaveURL('/home/index');
    await expect(heading1(page)).toHaveText(zhCN['route.home']);
    // Seeded: partners 100 000 + 50 000 of money, 100 h + 50 h of digital-human time, 70 voice
    // and 30 image clones; registering merchants (other tests) adds users with nothing.
    await expect(stat(page, 'stat-partners')).toHaveText('2');
    await expect(stat(page, 'stat-agents')).toHaveText('1');
    await expect(stat(page, 'stat-money')).toHaveText('150000.00');
    await expect(stat(page, 'stat-minutes')).toHaveText('9000 分钟');
    await expect(stat(page, 'stat-voices')).toHaveText('70');
    await expect(stat(page, 'stat-images')).toHaveText('30');
    expect(Number(await stat(page, 'stat-merchants').textContent())).toBeGreaterThanOrEqual(2);
    // The money label is the branding's money name.
    await expect(page.getByText(MONEY, { exact: true })).toBeVisible();
  });

  test('partner lands on the workbench with its own balances', async ({ page }) => {
    await signIn(page, 'partner');
    await expect(page).toHaveURL('/dashboard/workBench');
    await expect(heading1(page)).toHaveText(zhCN['route.workBench']);
    await expect(page.getByRole('heading', { name: zhCN['workBench.balances'] })).toBeVisible();
    // 100 000 less 1 200.50 to merchant; 100 h less 2 h; 50 − 2 voices; 20 − 1 images.
    await expect(stat(page, 'balance-money')).toHaveText('98799.50');
    await expect(stat(page, 'balance-minutes')).toHaveText('5880 分钟');
    await expect(stat(page, 'balance-voices')).toHaveText('48');
    await expect(stat(page, 'balance-images')).toHaveText('19');
    await expect(stat(page, 'count-agents')).toHaveText('1');
  });

  test('merchant lands on the workbench with its own balances', async ({ page }) => {
    await signIn(page, 'merchant');
    await expect(page).toHaveURL('/dashboard/workBench');
    await expect(heading1(page)).toHaveText(zhCN['route.workBench']);
    await expect(stat(page, 'balance-money')).toHaveText('1200.50');
    await expect(stat(page, 'balance-minutes')).toHaveText('120 分钟');
    await expect(stat(page, 'balance-voices')).toHaveText('2');
    await expect(stat(page, 'balance-images')).toHaveText('1');
  });

  test('agent lands on its first allowed route, /user/info', async ({ page }) => {
    await signIn(page, 'agent');
    await expect(page).toHaveURL('/user/info');
    await expect(heading1(page)).toHaveText(zhCN['route.userInfo']);
    await expect(page.getByText(zhCN['role.agent']).first()).toBeVisible();
    // Its menu lists its own pages, none of the other roles' sections.
    const links = page.getByRole('navigation').getByRole('link');
    await expect(links).toHaveCount(2);
    expect(await links.evaluateAll((a) => a.map((l) => l.getAttribute('href')))).toEqual([
      '/user/info',
      '/user/setting',
    ]);
  });
});

test.describe('login form', () => {
  test('empty fields show the validation texts of docs/domain.md §15 (en-US)', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
    await page.reload();
    await expect(heading1(page)).toHaveText('Welcome');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Username cannot be empty')).toBeVisible();
    await expect(page.getByText(enUS['validation.passwordRequired'])).toBeVisible();
    await expect(page.getByLabel('Account', { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await page.getByLabel('Account', { exact: true }).fill('someone');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Username cannot be empty')).toBeHidden();
    await expect(page.getByText(enUS['validation.passwordRequired'])).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test('empty fields show the zh-CN validation texts', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page.getByText(zhCN['validation.usernameRequired'])).toBeVisible();
    await expect(page.getByText(zhCN['validation.passwordRequired'])).toBeVisible();
    // Spaces only are empty too.
    await page.getByLabel(zhCN['form.account'], { exact: true }).fill('   ');
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill('x');
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page.getByText(zhCN['validation.usernameRequired'])).toBeVisible();
    await expect(page.getByText(zhCN['validation.passwordRequired'])).toBeHidden();
  });

  test('a wrong password shows the server message and stays on login', async ({
    page,
    request,
  }, testInfo) => {
    const user = await registerUser(request, testInfo);
    await page.goto('/login');
    await page.getByLabel(zhCN['form.account'], { exact: true }).fill(user.username);
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill('Wrong#2026');
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    // The server's sentence (in the console's locale), once: in the form, no toast as well.
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('账号或密码错误');
    await expect(page).toHaveURL('/login');
    expect(await storedToken(page)).toBeNull();
    // The right password still works afterwards.
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill(user.password);
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page).toHaveURL('/dashboard/workBench');
  });

  test('remember account keeps the account name, never the password', async ({ page }) => {
    await page.goto('/login');
    const remember = page.getByRole('checkbox', { name: zhCN['login.remember'] });
    await expect(remember).not.toBeChecked();
    await page.getByLabel(zhCN['form.account'], { exact: true }).fill('merchant');
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill(DEMO_PASSWORD);
    await page.getByText(zhCN['login.remember'], { exact: true }).click();
    await expect(remember).toBeChecked();
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page).toHaveURL('/dashboard/workBench');
    for (const value of await storageValues(page)) expect(value).not.toContain(DEMO_PASSWORD);

    await openUserMenuItem(page, zhCN['shell.logout']);
    await expect(page).toHaveURL('/login');
    await expect(page.getByLabel(zhCN['form.account'], { exact: true })).toHaveValue('merchant');
    await expect(page.getByLabel(zhCN['form.password'], { exact: true })).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: zhCN['login.remember'] })).toBeChecked();
    for (const value of await storageValues(page)) expect(value).not.toContain(DEMO_PASSWORD);

    // Unticked, the next login forgets the account name.
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill(DEMO_PASSWORD);
    await page.getByText(zhCN['login.remember'], { exact: true }).click();
    await expect(page.getByRole('checkbox', { name: zhCN['login.remember'] })).not.toBeChecked();
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page).toHaveURL('/dashboard/workBench');
    await openUserMenuItem(page, zhCN['shell.logout']);
    await expect(page).toHaveURL('/login');
    await expect(page.getByLabel(zhCN['form.account'], { exact: true })).toHaveValue('');
  });
});

test.describe('login guards', () => {
  test('a signed-in user who opens /login goes to the default route', async ({ page, request }) => {
    await storeToken(page, await apiLogin(request, 'admin'));
    await page.goto('/login');
    await expect(page).toHaveURL('/home/index');
    await expect(heading1(page)).toHaveText(zhCN['route.home']);

    await storeToken(page, await apiLogin(request, 'partner'));
    await page.goto('/login');
    await expect(page).toHaveURL('/dashboard/workBench');
  });

  test('an anonymous visitor of a protected route logs in and returns there', async ({ page }) => {
    await page.goto('/user/setting?tab=password');
    await expect(page).toHaveURL(
      `/login?redirect=${encodeURIComponent('/user/setting?tab=password')}`,
    );
    await expect(heading1(page)).toHaveText(zhCN['login.title']);
    await page.getByLabel(zhCN['form.account'], { exact: true }).fill('merchant');
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page).toHaveURL('/user/setting?tab=password');
    await expect(heading1(page)).toHaveText(zhCN['route.userSetting']);
  });

  test('a redirect to a route the role may not open ends on its first allowed route', async ({
    page,
  }) => {
    await page.goto('/home/index');
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/home/index')}`);
    await page.getByLabel(zhCN['form.account'], { exact: true }).fill('agent');
    await page.getByLabel(zhCN['form.password'], { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
    await expect(page).toHaveURL('/user/info');
  });

  test('only login and batchAuthorization are open to anonymous visitors', async ({ page }) => {
    await page.goto('/batchAuthorization');
    await expect(page).toHaveURL('/batchAuthorization');
    for (const path of ['/', '/dashboard/workBench', '/exception/404', '/no/such/page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login\?redirect=/);
    }
  });
});
