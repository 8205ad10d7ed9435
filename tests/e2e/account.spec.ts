/**
 * The account flows with throwaway users: sign-up through the login page's dialog (SMS code from
 * the embedded provider's sms.log), change password and edit profile on /user/setting. The
 * forgot-password dialog is in password-reset.spec.ts.
 */
import {
  expect,
  expectPasswordRefused,
  test,
  apiLogin,
  apiUserInfo,
  fill,
  heading1,
  openUserMenuItem,
  registerUser,
  signIn,
  smsCode,
  storedToken,
  storeToken,
  textField,
  uniqueMobile,
  uniqueUsername,
  zhCN,
} from './fixtures';

test('sign-up through the register dialog, then login with the new account', async ({
  page,
}, testInfo) => {
  const username = uniqueUsername(testInfo, 'reg');
  const mobile = uniqueMobile(testInfo);
  const password = 'Signup#2026';
  await page.goto('/login');
  await page.getByRole('button', { name: zhCN['login.register'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: zhCN['register.title'] });
  await expect(dialog).toBeVisible();

  // The code needs a valid mobile first.
  await textField(dialog, zhCN['form.mobile']).fill('12345');
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  await expect(dialog.getByText(zhCN['validation.mobile'])).toBeVisible();

  await textField(dialog, zhCN['form.account']).fill(username);
  await textField(dialog, zhCN['form.password']).fill(password);
  await textField(dialog, zhCN['form.mobile']).fill(mobile);
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  // Counting down before another code may be asked for.
  await expect(dialog.getByRole('button', { name: /秒后重发/ })).toBeDisabled();
  await textField(dialog, zhCN['form.smsCode']).fill(await smsCode(mobile, 'register'));
  await dialog.getByRole('button', { name: zhCN['register.submit'], exact: true }).click();

  await expect(page.getByRole('status').filter({ hasText: zhCN['register.done'] })).toBeVisible();
  await expect(dialog).toBeHidden();
  // The form holds the new account name; the password is typed again.
  await expect(textField(page, zhCN['form.account'])).toHaveValue(username);
  await expect(textField(page, zhCN['form.password'])).toHaveValue('');
  await textField(page, zhCN['form.password']).fill(password);
  await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();

  // A merchant under the partner that owns this domain, with nothing yet.
  await expect(page).toHaveURL('/dashboard/workBench');
  await expect(page.getByTestId('balance-money')).toHaveText('0.00');
  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(page.getByRole('main')).toContainText(username);
  await expect(page.getByRole('main')).toContainText(zhCN['role.merchant']);
  await expect(page.getByRole('main')).toContainText(mobile);
});

test('change password on /user/setting: asked to log in again; old refused, new works', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  const newPassword = 'Changed#2026';
  await signIn(page, user.username, user.password);
  await openUserMenuItem(page, zhCN['route.userSetting']);
  await expect(heading1(page)).toHaveText(zhCN['route.userSetting']);
  const form = page.getByRole('form', { name: zhCN['password.title'] });

  await textField(form, zhCN['form.oldPassword']).fill(user.password);
  await textField(form, zhCN['form.newPassword']).fill(newPassword);
  await textField(form, zhCN['form.confirmPassword']).fill('Other#2026');
  await form.getByRole('button', { name: zhCN['password.submit'] }).click();
  await expect(form.getByText(zhCN['validation.passwordMismatch'])).toBeVisible();
  await expect(page).toHaveURL('/user/setting');

  await textField(form, zhCN['form.confirmPassword']).fill(newPassword);
  await form.getByRole('button', { name: zhCN['password.submit'] }).click();
  await expect(
    page.getByRole('status').filter({ hasText: zhCN['password.changed'] }),
  ).toBeVisible();
  await expect(page).toHaveURL('/login');
  expect(await storedToken(page)).toBeNull();

  await expectPasswordRefused(request, user.username, user.password);
  await signIn(page, user.username, newPassword);
  await expect(page).toHaveURL('/dashboard/workBench');
});

test('edit profile on /user/setting: saved, shown in the navbar and on /user/info', async ({
  page,
  request,
}, testInfo) => {
  const user = await registerUser(request, testInfo);
  const token = await apiLogin(request, user.username, user.password);
  await storeToken(page, token);
  await page.goto('/user/setting');
  const form = page.getByRole('form', { name: zhCN['profile.title'] });
  const nickname = `昵称${user.id}`;

  await textField(form, zhCN['user.email']).fill('not-an-email');
  await form.getByRole('button', { name: zhCN['form.save'] }).click();
  await expect(form.getByText(zhCN['validation.email'])).toBeVisible();

  await textField(form, zhCN['user.nickname']).fill(nickname);
  await textField(form, zhCN['user.email']).fill(`${user.username}@example.com`);
  await textField(form, zhCN['user.job']).fill('剪辑师');
  await textField(form, zhCN['user.introduction']).fill('专注短视频。');
  await form.getByRole('button', { name: zhCN['form.save'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zhCN['profile.saved'] })).toBeVisible();
  await expect(
    page.getByRole('button', { name: fill(zhCN['shell.userMenu'], { name: nickname }) }),
  ).toBeVisible();

  const saved = await apiUserInfo(request, token);
  expect(saved).toMatchObject({
    nickname,
    email: `${user.username}@example.com`,
    job: '剪辑师',
    introduction: '专注短视频。',
  });

  await page.reload();
  await expect(textField(form, zhCN['user.nickname'])).toHaveValue(nickname);
  await expect(textField(form, zhCN['user.job'])).toHaveValue('剪辑师');
  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(page.getByRole('main')).toContainText(nickname);
  await expect(page.getByRole('main')).toContainText(`${user.username}@example.com`);
  await expect(page.getByRole('main')).toContainText('专注短视频。');
});
