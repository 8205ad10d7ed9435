/**
 * The system init page against the real server (docs/domain.md §System init): the admin sets a
 * plain value and a secret of the mini-program group, sees the secret only as "configured ·
 * ••••last4" (the input stays empty), clears it after a confirmation, runs the AI text group's
 * connection test (the embedded provider of the demo server) and sees its result; the mini
 * program's and the SMS group's checks against fake vendors speaking WeChat's and Alibaba Cloud's
 * protocols; the page's history link; axe in both locales.
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startFakeAliyunSms } from '../server/fake-aliyun-sms';
import { startFakeWechatApi } from '../server/fake-wechat-api';
import {
  apiCall,
  apiLogin,
  dataDir,
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

/** playwright.config.ts points the servers' WECHAT_API_BASE_URL here. */
const FAKE_WECHAT_PORT = Number(process.env.E2E_PORT ?? 8181) + 2;

const card = (page: Page, c: Catalogue, group: 'mini_program' | 'ai_text' | 'sms') =>
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

test('the mini program and SMS checks against their vendors, shown in the page (en-US)', async ({
  page,
  request,
}) => {
  const c = enUS;
  const token = await apiLogin(request, 'admin');
  const wechat = await startFakeWechatApi({ appid: APPID, secret: APP_SECRET }, FAKE_WECHAT_PORT);
  const account = {
    accessKeyId: 'LTAI5tE2eSystemInit',
    accessKeySecret: 'e2e-sms-access-key-secret-0123',
    signName: 'E2E Video',
    templateCode: 'SMS_300000001',
    templateName: 'Sign-up code',
  };
  // While the SMS group is set up the server sends every code through the fake: it delivers them
  // to the inbox the other specs read (sms.log; the gateway is not told the code's purpose).
  const sms = await startFakeAliyunSms(account, ({ mobile, code }) => {
    void appendFile(
      path.join(dataDir(), 'sms.log'),
      `${mobile} register ${code}\n${mobile} reset ${code}\n`,
    );
  });
  try {
    await storeToken(page, token, 'en-US');
    await page.goto('/account/system-init');
    await expect(heading1(page)).toHaveText(c['route.systemInit']);

    const mini = card(page, c, 'mini_program');
    await field(mini, c['initConfig.field.appid']).fill(APPID);
    await field(mini, c['initConfig.field.app_secret']).fill(APP_SECRET);
    await mini
      .getByRole('button', {
        name: fill(c['initConfig.save'], { group: c['initConfig.group.mini_program'] }),
      })
      .click();
    await expect(mini.getByText(new RegExp(`••••${APP_SECRET.slice(-4)}`))).toBeVisible();
    await mini.getByRole('button', { name: c['initConfig.test'], exact: true }).click();
    await expect(mini.getByText(c['initConfig.testOk'])).toBeVisible();
    await expect(
      mini.getByText('Connected: WeChat issued the mini program an access token'),
    ).toBeVisible();
    expect(wechat.seen.map((r) => r.url)).toEqual(['POST /cgi-bin/stable_token']);

    const group = card(page, c, 'sms');
    await group.getByRole('button', { name: c['initConfig.test'], exact: true }).click();
    await expect(group.getByText(c['initConfig.testFailed'])).toBeVisible();
    await expect(
      group.getByText('Not set up yet: access_key_id, access_key_secret, sign_name, template_code'),
    ).toBeVisible();
    await field(group, c['initConfig.field.endpoint']).fill(sms.url);
    await field(group, c['initConfig.field.access_key_id']).fill(account.accessKeyId);
    await field(group, c['initConfig.field.access_key_secret']).fill(account.accessKeySecret);
    await field(group, c['initConfig.field.sign_name']).fill(account.signName);
    await field(group, c['initConfig.field.template_code']).fill(account.templateCode);
    await group
      .getByRole('button', {
        name: fill(c['initConfig.save'], { group: c['initConfig.group.sms'] }),
      })
      .click();
    await expect(
      group.getByText(new RegExp(`••••${account.accessKeySecret.slice(-4)}`)),
    ).toBeVisible();
    await group.getByRole('button', { name: c['initConfig.test'], exact: true }).click();
    await expect(group.getByText(c['initConfig.testOk'])).toBeVisible();
    await expect(
      group.getByText(
        'Connected: the signature “E2E Video” is approved and the template “Sign-up code” was found (no message was sent)',
      ),
    ).toBeVisible();
    expect(sms.seen.map((p) => p.Action)).toEqual(['GetSmsSign', 'GetSmsTemplate']);
    expect(await seriousViolations(page), 'the checks’ results').toEqual([]);

    // The page's history: the system init settings' rows, newest first.
    await page
      .getByRole('link', { name: fill(c['audit.timelineOf'], { name: c['route.systemInit'] }) })
      .click();
    await expect(heading1(page)).toHaveText(c['route.auditLog']);
    await expect(page.getByTestId('audit-timeline')).toContainText('init_config');
    const newest = page
      .getByRole('table', { name: c['audit.list'], exact: true })
      .locator(':scope > tbody > tr')
      .first();
    await expect(newest).toContainText('init_config.set');
    await newest.getByRole('button', { name: /^Show changes/ }).click();
    await expect(
      newest
        .getByTestId('audit-diff')
        .getByRole('row')
        .filter({ hasText: 'sms.access_key_secret' }),
    ).toContainText(c['audit.changed']);
  } finally {
    // The SMS group cleared: the server's codes go to sms.log again.
    const cleared = await apiCall(request, 'POST', '/init_config/set_config', {
      token,
      body: {
        group: 'sms',
        values: {},
        clear: ['endpoint', 'access_key_id', 'access_key_secret', 'sign_name', 'template_code'],
      },
    });
    expect(cleared.code, cleared.msg).toBe(1);
    await apiCall(request, 'POST', '/init_config/set_config', {
      token,
      body: { group: 'mini_program', values: {}, clear: ['appid', 'app_secret'] },
    });
    await sms.stop();
    await wechat.stop();
  }
});
