/** axe on the login page (zh-CN and en-US) and the admin home: nothing serious or critical. */
import { apiLogin, expect, heading1, storeToken, test, zhCN, seriousViolations } from './fixtures';

test('login page, zh-CN, and its dialogs', async ({ page }) => {
  await page.goto('/login');
  await expect(heading1(page)).toHaveText('欢迎登录');
  expect(await seriousViolations(page)).toEqual([]);

  for (const [button, title] of [
    [zhCN['login.register'], zhCN['register.title']],
    [zhCN['login.forgot'], zhCN['forgot.title']],
  ]) {
    await page.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page), title).toEqual([]);
    await dialog.getByRole('button', { name: zhCN['form.cancel'] }).click();
    await expect(dialog).toBeHidden();
  }
});

test('login page, en-US, with validation errors shown', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(heading1(page)).toHaveText('Welcome');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Username cannot be empty')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('admin home', async ({ page, request }) => {
  await storeToken(page, await apiLogin(request, 'admin'));
  await page.goto('/home/index');
  await expect(page.getByTestId('stat-partners')).toHaveText('2');
  expect(await seriousViolations(page)).toEqual([]);
});
