/**
 * Forgot password through the login page's dialog, with the SMS code from the embedded provider's
 * sms.log. Its user is the worker's `resetUser` (see fixtures.ts: the server's one-code-per-mobile
 * -per-minute rule counts that user's sign-up code).
 */
import { expect, expectPasswordRefused, signIn, smsCode, test, textField, zhCN } from './fixtures';

test('forgot password through the dialog: reset by SMS code, old refused, new works', async ({
  page,
  request,
  resetUser,
}) => {
  test.setTimeout(120_000);
  const user = resetUser;
  const newPassword = 'Reset#2026';
  await page.goto('/login');
  await page.getByRole('button', { name: zhCN['login.forgot'] }).click();
  const dialog = page.getByRole('dialog', { name: zhCN['forgot.title'] });
  await expect(dialog).toBeVisible();
  await textField(dialog, zhCN['form.mobile']).fill(user.mobile);

  // The server's resend rule (one code per mobile per 60 s) counts the sign-up code too.
  const wait = user.codeSentAt + 61_000 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  await dialog.getByRole('button', { name: zhCN['sms.send'] }).click();
  const code = await smsCode(user.mobile, 'reset');

  // A wrong code is refused with the server's message.
  await textField(dialog, zhCN['form.smsCode']).fill(code === '000000' ? '111111' : '000000');
  await textField(dialog, zhCN['form.newPassword']).fill(newPassword);
  await textField(dialog, zhCN['form.confirmPassword']).fill(newPassword);
  await dialog.getByRole('button', { name: zhCN['forgot.submit'] }).click();
  await expect(page.getByRole('alert').filter({ hasText: '验证码错误或已过期' })).toBeVisible();
  await expect(dialog).toBeVisible();

  await textField(dialog, zhCN['form.smsCode']).fill(code);
  await dialog.getByRole('button', { name: zhCN['forgot.submit'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zhCN['forgot.done'] })).toBeVisible();
  await expect(dialog).toBeHidden();

  await expectPasswordRefused(request, user.username, user.password);
  await signIn(page, user.username, newPassword);
  await expect(page).toHaveURL('/dashboard/workBench');
});
