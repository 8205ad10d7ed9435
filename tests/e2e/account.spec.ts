/**
 * The account flows with throwaway users: sign-up and forgot password through the login page's
 * dialogs (SMS codes from the embedded provider's sms.log), change password and edit profile on
 * /user/setting.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  apiCall,
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
  uniqueMobile,
  uniqueUsername,
  zhCN,
  type TestUser,
} from './fixtures';

/** A text field by its label (required fields carry a decorative '*' outside the name). */
const field = (scope: Page | ReturnType<Page['getByRole']>, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

const WRONG_CREDENTIALS = '账号或密码错误';

async function expectPasswordRefused(
  request: Parameters<typeof apiCall>[0],
  account: string,
  password: string,
) {
  const reply = await apiCall(request, 'POST', '/platform/login', {
    body: { account, password },
  });
  expect(reply.code).toBe(0);
  expect(reply.msg).toBe(WRONG_CREDENTIALS);
}

/*
 * The forgot-password user is signed up when this file starts: the server sends one code per
 * mobile per 60 s, so its reset code can be asked for only a minute after its sign-up code. The
 * other tests of the file run in between; the forgot-password test waits out the rest.
 */
let forgotUser: TestUser;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  forgotUser = await registerUser(request, testInfo);
  await request.dispose();
});

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
  await field(dialog, zhCN['form.mobile']).fill('12345');
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  await expect(dialog.getByText(zhCN['validation.mobile'])).toBeVisible();

  await field(dialog, zhCN['form.account']).fill(username);
  await field(dialog, zhCN['form.password']).fill(password);
  await field(dialog, zhCN['form.mobile']).fill(mobile);
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  // Counting down before another code may be asked for.
  await expect(dialog.getByRole('button', { name: /秒后重发/ })).toBeDisabled();
  await field(dialog, zhCN['form.smsCode']).fill(await smsCode(mobile, 'register'));
  await dialog.getByRole('button', { name: zhCN['register.submit'], exact: true }).click();

  await expect(page.getByRole('status').filter({ hasText: zhCN['register.done'] })).toBeVisible();
  await expect(dialog).toBeHidden();
  // The form holds the new account name; the password is typed again.
  await expect(field(page, zhCN['form.account'])).toHaveValue(username);
  await expect(field(page, zhCN['form.password'])).toHaveValue('');
  await field(page, zhCN['form.password']).fill(password);
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

  await field(form, zhCN['form.oldPassword']).fill(user.password);
  await field(form, zhCN['form.newPassword']).fill(newPassword);
  await field(form, zhCN['form.confirmPassword']).fill('Other#2026');
  await form.getByRole('button', { name: zhCN['password.submit'] }).click();
  await expect(form.getByText(zhCN['validation.passwordMismatch'])).toBeVisible();
  await expect(page).toHaveURL('/user/setting');

  await field(form, zhCN['form.confirmPassword']).fill(newPassword);
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

  await field(form, zhCN['user.email']).fill('not-an-email');
  await form.getByRole('button', { name: zhCN['form.save'] }).click();
  await expect(form.getByText(zhCN['validation.email'])).toBeVisible();

  await field(form, zhCN['user.nickname']).fill(nickname);
  await field(form, zhCN['user.email']).fill(`${user.username}@example.com`);
  await field(form, zhCN['user.job']).fill('剪辑师');
  await field(form, zhCN['user.introduction']).fill('专注短视频。');
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
  await expect(field(form, zhCN['user.nickname'])).toHaveValue(nickname);
  await expect(field(form, zhCN['user.job'])).toHaveValue('剪辑师');
  await openUserMenuItem(page, zhCN['route.userInfo']);
  await expect(page.getByRole('main')).toContainText(nickname);
  await expect(page.getByRole('main')).toContainText(`${user.username}@example.com`);
  await expect(page.getByRole('main')).toContainText('专注短视频。');
});

test('forgot password through the dialog: reset by SMS code, old refused, new works', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = forgotUser;
  const newPassword = 'Reset#2026';
  await page.goto('/login');
  await page.getByRole('button', { name: zhCN['login.forgot'] }).click();
  const dialog = page.getByRole('dialog', { name: zhCN['forgot.title'] });
  await expect(dialog).toBeVisible();
  await field(dialog, zhCN['form.mobile']).fill(user.mobile);

  // The server's resend rule (one code per mobile per 60 s) counts the sign-up code too.
  const wait = user.codeSentAt + 61_000 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  const code = await smsCode(user.mobile, 'reset');

  // A wrong code is refused with the server's message.
  await field(dialog, zhCN['form.smsCode']).fill(code === '000000' ? '111111' : '000000');
  await field(dialog, zhCN['form.newPassword']).fill(newPassword);
  await field(dialog, zhCN['form.confirmPassword']).fill(newPassword);
  await dialog.getByRole('button', { name: zhCN['forgot.submit'] }).click();
  await expect(page.getByRole('alert').filter({ hasText: '验证码错误或已过期' })).toBeVisible();
  await expect(dialog).toBeVisible();

  await field(dialog, zhCN['form.smsCode']).fill(code);
  await dialog.getByRole('button', { name: zhCN['forgot.submit'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zhCN['forgot.done'] })).toBeVisible();
  await expect(dialog).toBeHidden();

  await expectPasswordRefused(request, user.username, user.password);
  await signIn(page, user.username, newPassword);
  await expect(page).toHaveURL('/dashboard/workBench');
});
