/**
 * The system init page against the real server (docs/domain.md §System init): the admin sets a
 * plain value and a secret of the mini-program group, sees the secret only as "configured ·
 * ••••last4" (the input stays empty), clears it after a confirmation, runs the AI text group's
 * connection test (the embedded provider of the demo server) and sees its result; axe in both
 * locales.
 */
import type { Locator, Page } from '@playwright/test';
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
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;
const APPID = 'wx0123456789abcdef';
const APP_SECRET = 'e2e0app0secret0abcdef0123456789';

const card = (page: Page, c: Catalogue, group: 'mini_program' | 'ai_text') =>
  page.getByRole('region', { name: c[`initConfig.group.${group}`], exact: true });
const field = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true });

test('the admin sets a plain value and a secret, sees last4, clears it, tests a connection (zh-CN)', async ({
  page,
  request,
}) => {
  const c = zhCN;
  const token = await apiLogin(request, 'admin');
  await storeToken(page, token);
  await page.goto('/account/system-init');
  await expect(heading1(page)).toHaveText(c['route.systemInit']);
  const mini = card(page, c, 'mini_program');
  await expect(mini.getByText(c['initConfig.secret.unset'])).toBeVisible();
  expect(await seriousViolations(page), 'the page').toEqual([]);

  await field(mini, c['initConfig.field.appid']).fill(APPID);
  await field(mini, c['initConfig.field.app_secret']).fill(APP_SECRET);
  await mini
    .getByRole('button', {
      name: fill(c['initConfig.save'], { group: c['initConfig.group.mini_program'] }),
    })
    .click();
  await expect(mini.getByText(new RegExp(`••••${APP_SECRET.slice(-4)}`))).toBeVisible();
  await expect(mini.getByText(/admin/)).toBeVisible();
  // Write-only: the input is empty again, and the server answers only the state.
  await expect(field(mini, c['initConfig.field.app_secret'])).toHaveValue('');
  await expect(field(mini, c['initConfig.field.appid'])).toHaveValue(APPID);
  const stored = await apiCall<Record<string, Record<string, unknown>>>(
    request,
    'GET',
    '/init_config/get_config?group=mini_program',
    { token },
  );
  expect(stored.data.mini_program).toMatchObject({
    appid: APPID,
    app_secret: { configured: true, last4: APP_SECRET.slice(-4), updated_by: 'admin' },
  });
  expect(JSON.stringify(stored)).not.toContain(APP_SECRET);

  // A bad value is refused in the form, by the contract's rule.
  await field(mini, c['initConfig.field.appid']).fill('wx-nope');
  await mini
    .getByRole('button', {
      name: fill(c['initConfig.save'], { group: c['initConfig.group.mini_program'] }),
    })
    .click();
  await expect(mini.getByText(c['validation.initConfigFormat'])).toBeVisible();
  await expect(field(mini, c['initConfig.field.appid'])).toBeFocused();

  // Clearing asks first.
  const clear = fill(c['initConfig.clear'], { field: c['initConfig.field.app_secret'] });
  await mini.getByRole('button', { name: clear }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  expect(await seriousViolations(page), 'the clear dialog').toEqual([]);
  await confirm.getByRole('button', { name: c['initConfig.clearConfirm'], exact: true }).click();
  await expect(mini.getByText(c['initConfig.secret.unset'])).toBeVisible();
  await expect(mini.getByRole('button', { name: clear })).toHaveCount(0);

  const ai = card(page, c, 'ai_text');
  await ai.getByRole('button', { name: c['initConfig.test'], exact: true }).click();
  await expect(ai.getByText(c['initConfig.testOk'])).toBeVisible();
  await expect(ai.getByText('内置演示服务已应答（未设置 AI 文本服务地址）')).toBeVisible();
});

test('the page in en-US passes axe and tests a connection', async ({ page, request }) => {
  const c = enUS;
  await storeToken(page, await apiLogin(request, 'admin'), 'en-US');
  await page.goto('/account/system-init');
  await expect(heading1(page)).toHaveText(c['route.systemInit']);
  const ai = card(page, c, 'ai_text');
  await expect(field(ai, c['initConfig.field.model'])).toBeVisible();
  await ai.getByRole('button', { name: c['initConfig.test'], exact: true }).click();
  await expect(
    ai.getByText(
      'The embedded demonstration provider answered (no AI text service address is set)',
    ),
  ).toBeVisible();
  expect(await seriousViolations(page), 'the page').toEqual([]);
});
