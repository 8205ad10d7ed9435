/**
 * /account/settings against the real server (docs/domain.md §12 "Settings and prices"): the admin
 * changes a price and sees it after a reload; a partner sets an override within the admin's
 * limits and is refused beyond them (by the form, and by the server); axe in both locales. Every
 * test puts the platform's values back, so the other specs see the demo's prices.
 */
import type { APIRequestContext, Page } from '@playwright/test';
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

test.describe.configure({ timeout: 90_000, mode: 'serial' });

type Catalogue = typeof zhCN;
const DEMO_VALUES = {
  video_output_cost: '0.10',
  partner_override_keys: '',
  video_output_cost_floor: '0.00',
  video_output_cost_ceiling: '10000.00',
};

async function restore(request: APIRequestContext) {
  const partner = await apiLogin(request, 'partner');
  const admin = await apiLogin(request, 'admin');
  // The override first (while the key is still allowed), then the platform's values.
  await apiCall(request, 'POST', '/platform/set_config', {
    token: partner,
    body: { values: { video_output_cost: '' } },
  });
  const reply = await apiCall(request, 'POST', '/platform/set_config', {
    token: admin,
    body: { values: DEMO_VALUES },
  });
  expect(reply.code, reply.msg).toBe(1);
}

const priceField = (page: Page, c: Catalogue) =>
  page.getByRole('textbox', { name: c['platformSettings.key.video_output_cost'], exact: true });

test.afterEach(async ({ request }) => {
  await restore(request);
});

test('the admin changes a price and sees it (zh-CN), axe', async ({ page, request }) => {
  const c = zhCN;
  await storeToken(page, await apiLogin(request, 'admin'), 'zh-CN');
  await page.goto('/account/settings');
  await expect(heading1(page)).toHaveText(c['route.accountSettings']);
  for (const group of ['price', 'quota', 'exchange', 'limit', 'show', 'override'] as const) {
    await expect(
      page.getByRole('heading', {
        level: 2,
        name: c[`platformSettings.group.${group}`],
        exact: true,
      }),
    ).toBeVisible();
  }
  await expect(priceField(page, c)).toHaveValue('0.10');
  expect(await seriousViolations(page)).toEqual([]);

  // Out of range: the form says so and nothing is sent.
  await priceField(page, c).fill('20000');
  await page.getByRole('button', { name: c['platformSettings.save'] }).click();
  await expect(
    page.getByText(fill(c['platformSettings.outOfRange'], { min: '0.00', max: '10000.00' })),
  ).toBeVisible();
  await expect(priceField(page, c)).toBeFocused();

  await priceField(page, c).fill('0.12');
  await page.getByRole('button', { name: c['platformSettings.save'] }).click();
  await expect(page.getByText(c['platformSettings.saved']).first()).toBeVisible();
  await expect(priceField(page, c)).toHaveValue('0.12');
  await page.reload();
  await expect(priceField(page, c)).toHaveValue('0.12');

  // The settings' history (docs/domain.md §21): the log of the platform's settings, newest first.
  await page
    .getByRole('link', { name: fill(c['audit.timelineOf'], { name: c['route.accountSettings'] }) })
    .click();
  await expect(heading1(page)).toHaveText(c['route.auditLog']);
  await expect(page.getByTestId('audit-timeline')).toContainText('platform_config');
  const log = page.getByRole('table', { name: c['audit.list'], exact: true });
  const newest = log.locator(':scope > tbody > tr').first();
  await expect(newest).toContainText('settings.set');
  await newest.getByRole('button', { name: fill(c['audit.showChanges'], { count: 1 }) }).click();
  await expect(
    newest.getByTestId('audit-diff').getByRole('row').filter({ hasText: 'video_output_cost' }),
  ).toContainText('0.12');
  expect(await seriousViolations(page)).toEqual([]);

  const merchant = await apiLogin(request, 'merchant');
  const reply = await apiCall<{ name: string; value: string }>(
    request,
    'GET',
    '/platform/get_single_config?key=video_output_cost',
    { token: merchant },
  );
  expect(reply.data).toEqual({ name: 'video_output_cost', value: '0.12' });
});

test('a partner overrides a price within the limits and is refused beyond them (en-US), axe', async ({
  page,
  request,
}) => {
  const c = enUS;
  const admin = await apiLogin(request, 'admin');
  const allowed = await apiCall(request, 'POST', '/platform/set_config', {
    token: admin,
    body: {
      values: {
        partner_override_keys: 'video_output_cost',
        video_output_cost_floor: '0.05',
        video_output_cost_ceiling: '0.50',
      },
    },
  });
  expect(allowed.code, allowed.msg).toBe(1);
  const partner = await apiLogin(request, 'partner');
  await storeToken(page, partner, 'en-US');
  await page.goto('/account/settings');
  await expect(heading1(page)).toHaveText(c['route.accountSettings']);
  await expect(page.getByText(c['platformSettings.partnerIntro'])).toBeVisible();
  const field = priceField(page, c);
  await expect(field).toHaveValue('');
  // A price the admin does not allow cannot be edited.
  await expect(
    page.getByRole('textbox', { name: c['platformSettings.key.digital_man_cost'], exact: true }),
  ).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);

  await field.fill('0.80');
  await page.getByRole('button', { name: c['platformSettings.save'] }).click();
  await expect(
    page.getByText(fill(c['platformSettings.outOfRange'], { min: '0.05', max: '0.50' })),
  ).toBeVisible();
  // The server refuses it too.
  const refused = await apiCall(request, 'POST', '/platform/set_config', {
    token: partner,
    lang: 'en-US',
    body: { values: { video_output_cost: '0.80' } },
  });
  expect(refused).toMatchObject({
    code: 0,
    msg: 'video_output_cost must be between 0.05 and 0.50',
  });

  await field.fill('0.30');
  await page.getByRole('button', { name: c['platformSettings.save'] }).click();
  await expect(page.getByText(c['platformSettings.saved']).first()).toBeVisible();
  await expect(
    page.getByText(fill(c['platformSettings.applies'], { value: '0.30' }), { exact: false }),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const merchant = await apiLogin(request, 'merchant');
  const merchant2 = await apiLogin(request, 'merchant2');
  const price = async (token: string) =>
    (
      await apiCall<{ value: string }>(
        request,
        'GET',
        '/platform/get_single_config?key=video_output_cost',
        { token },
      )
    ).data.value;
  expect(await price(merchant)).toBe('0.30');
  expect(await price(merchant2)).toBe('0.10');
});

test('a merchant turns a notification off and sets its default ratio on /user/setting (en-US), axe', async ({
  page,
  request,
}) => {
  const c = enUS;
  const merchant = await apiLogin(request, 'merchant');
  try {
    await storeToken(page, merchant, 'en-US');
    await page.goto('/user/setting');
    const card = page.getByRole('form', { name: c['userConfig.title'] });
    const matrix = card.getByRole('checkbox', { name: c['userConfig.notifyMatrix'] });
    await expect(matrix).toBeChecked();
    // Only an OEM partner has the mini-program appid field.
    await expect(card.getByRole('textbox', { name: c['userConfig.miniAppid'] })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByText(c['userConfig.notifyMatrix']).click();
    await card.getByRole('combobox', { name: c['userConfig.defaultRatio'] }).selectOption('16:9');
    await card.getByRole('button', { name: c['userConfig.save'] }).click();
    await expect(page.getByText(c['userConfig.saved']).first()).toBeVisible();
    await page.reload();
    await expect(
      page
        .getByRole('form', { name: c['userConfig.title'] })
        .getByRole('checkbox', { name: c['userConfig.notifyMatrix'] }),
    ).not.toBeChecked();
    await expect(page.getByRole('combobox', { name: c['userConfig.defaultRatio'] })).toHaveValue(
      '16:9',
    );
  } finally {
    await apiCall(request, 'POST', '/user_config/edit', {
      token: merchant,
      body: { notify_matrix: '1', default_ratio: '9:16' },
    });
  }
});

test('the OEM partner sets its mini-program appid (zh-CN), axe', async ({ page, request }) => {
  const c = zhCN;
  const partner = await apiLogin(request, 'partner');
  try {
    await storeToken(page, partner, 'zh-CN');
    await page.goto('/user/setting');
    const card = page.getByRole('form', { name: c['userConfig.title'] });
    const appid = card.getByRole('textbox', { name: c['userConfig.miniAppid'] });
    await appid.fill('not-an-appid');
    await card.getByRole('button', { name: c['userConfig.save'] }).click();
    await expect(appid).toHaveAttribute('aria-invalid', 'true');
    expect(await seriousViolations(page)).toEqual([]);
    await appid.fill('wx0123456789abcdef');
    await card.getByRole('button', { name: c['userConfig.save'] }).click();
    await expect(page.getByText(c['userConfig.saved']).first()).toBeVisible();
    const info = await apiCall<{ mini_appid: string }>(request, 'GET', '/user_config/info', {
      token: partner,
    });
    expect(info.data.mini_appid).toBe('wx0123456789abcdef');
  } finally {
    await apiCall(request, 'POST', '/user_config/edit', {
      token: partner,
      body: { mini_appid: '' },
    });
  }
});
