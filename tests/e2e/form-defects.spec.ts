/**
 * Forms as a new user meets them, in the browser: the clip editor keeps a name typed the moment
 * it first shows (nothing initialised late resets it), and a refused "Create clip" at the
 * bottom of the page takes the person to the name field at the top, focused and in view.
 */
import { expect, test, zhCN } from './fixtures';
import { signInMerchant } from './media';

const t = zhCN;

test('a name typed the moment the clip editor first shows is kept', async ({ page }) => {
  await signInMerchant(page, 'zh-CN');
  await page.goto('/creation/mixedshear');
  const editor = page.getByRole('region', { name: t['route.mixedshear'] });
  const name = editor.getByRole('textbox', { name: t['taskForm.name'] });
  await name.waitFor();
  // At once: the first keystrokes land while the page is still settling.
  await name.pressSequentially('早到的名字');
  await page.waitForTimeout(1500);
  await expect(name).toHaveValue('早到的名字');
});

test('a refused Create clip focuses the first invalid field and scrolls it into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 500 });
  await signInMerchant(page, 'zh-CN');
  await page.goto('/creation/mixedshear');
  const editor = page.getByRole('region', { name: t['route.mixedshear'] });
  const name = editor.getByRole('textbox', { name: t['taskForm.name'] });
  await expect(name).toBeVisible();
  const submit = editor.getByRole('button', { name: t['clipEditor.submit'] });
  await submit.scrollIntoViewIfNeeded();
  await expect(name).not.toBeInViewport();
  await submit.click();
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
  await expect(editor.getByText(t['validation.taskName'])).toBeInViewport();
});
