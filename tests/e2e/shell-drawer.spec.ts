/**
 * The settings drawer of the layout shell (docs/domain.md §13 "Global settings drawer", §4, §9):
 * 300 px wide and not routed; every switch does what it says; the menu width field (80 px wide);
 * close and cancel; copy settings (the layout as JSON on the clipboard); the info alert; settings
 * kept across a reload. Also the colour-weak filter and the footer's branding.
 */
import type { Locator, Page, Request } from '@playwright/test';
import { API, enUS, expect, heading1, test, zhCN } from './fixtures';
import {
  BRANDING,
  type Catalogue,
  DEFAULT_LAYOUT,
  notice,
  openConsole,
  settingsButton,
  settingsDrawer,
  storedLayout,
  widthOf,
} from './shell-fixtures';

/** Turns a switch of the drawer on or off by its label, as a person clicks it. */
async function setSwitch(drawer: Locator, label: string, on: boolean) {
  const box = drawer.getByRole('checkbox', { name: label, exact: true });
  if ((await box.isChecked()) !== on) await drawer.getByText(label, { exact: true }).click();
  await expect(box).toBeChecked({ checked: on });
}

async function openDrawer(page: Page, t: Catalogue = zhCN) {
  await settingsButton(page, t).first().click();
  const drawer = settingsDrawer(page, t);
  await expect(drawer).toBeVisible();
  return drawer;
}

// While the drawer is open the page behind it is hidden from assistive technology (a modal), so
// the shell's parts are found by element and test id here.
const header = (page: Page) => page.locator('header');
const footer = (page: Page) => page.locator('footer');
const bodyFilter = (page: Page) =>
  page.evaluate(() => [document.body.style.filter, getComputedStyle(document.body).filter]);

for (const [locale, t] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`the drawer (${locale}): 300 px at the right, its controls in order, close and cancel`, async ({
    page,
    request,
  }) => {
    await openConsole(page, request, 'admin', '/home/index', { locale });
    const drawer = await openDrawer(page, t);
    await expect(page).toHaveURL('/home/index');
    // At the right edge once it has slid in.
    await expect
      .poll(async () => {
        const box = await drawer.boundingBox();
        return box && [box.width, box.x + box.width];
      })
      .toEqual([300, page.viewportSize()!.width]);
    await expect(drawer.getByRole('heading', { name: t['settings.title'] })).toBeVisible();
    await expect(drawer.getByText(t['settings.info'], { exact: true })).toBeVisible();

    // The switches and the width field, in spec order, at the default layout.
    const controls = drawer.locator('input[role="spinbutton"], input[type="checkbox"]');
    const names = await controls.evaluateAll((inputs) =>
      inputs.map((input) =>
        input.getAttribute('role') === 'spinbutton'
          ? 'width'
          : `${(input as HTMLInputElement).labels?.[0]?.textContent}:${(input as HTMLInputElement).checked}`,
      ),
    );
    expect(names).toEqual([
      `${t['settings.navbar']}:true`,
      `${t['settings.menu']}:true`,
      `${t['settings.topMenu']}:false`,
      `${t['settings.footer']}:false`,
      `${t['settings.tabBar']}:false`,
      `${t['settings.menuFromServer']}:false`,
      'width',
      `${t['settings.colorWeak']}:false`,
    ]);
    const width = drawer.getByRole('spinbutton', { name: t['settings.menuWidth'] });
    await expect(width).toHaveValue('220');
    expect(await widthOf(width)).toBe(80);
    await expect(drawer.getByRole('button', { name: t['settings.copy'] })).toBeVisible();

    await drawer.getByRole('button', { name: t['form.close'], exact: true }).click();
    await expect(drawer).toBeHidden();
    await openDrawer(page, t);
    await drawer.getByRole('button', { name: t['form.cancel'], exact: true }).click();
    await expect(drawer).toBeHidden();
    await openDrawer(page, t);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL('/home/index');
  });
}

test('every switch of the drawer does what it says, and is stored', async ({ page, request }) => {
  const menuCalls: Request[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith(`${API}/api/user/menu`)) menuCalls.push(r);
  });
  await openConsole(page, request, 'admin', '/home/index');
  const drawer = await openDrawer(page);
  const stored = async (expected: Record<string, unknown>) =>
    expect(await storedLayout(page)).toMatchObject(expected);

  await test.step('navbar', async () => {
    await setSwitch(drawer, zhCN['settings.navbar'], false);
    await expect(header(page)).toHaveCount(0);
    // The floating settings button takes its place.
    await expect(page.locator(`button[aria-label="${zhCN['settings.title']}"]`)).toHaveCSS(
      'position',
      'fixed',
    );
    await stored({ navbar: false });
    await setSwitch(drawer, zhCN['settings.navbar'], true);
    await expect(header(page)).toBeVisible();
    await expect(page.locator(`button[aria-label="${zhCN['settings.title']}"]`)).toHaveCount(1);
    await stored({ navbar: true });
  });

  await test.step('menu', async () => {
    await setSwitch(drawer, zhCN['settings.menu'], false);
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    await stored({ menu: false });
    await setSwitch(drawer, zhCN['settings.menu'], true);
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await stored({ menu: true });
  });

  await test.step('top menu', async () => {
    await setSwitch(drawer, zhCN['settings.topMenu'], true);
    await expect(page.getByTestId('top-menu')).toBeVisible();
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    await stored({ topMenu: true, menuCollapse: false });
    await setSwitch(drawer, zhCN['settings.topMenu'], false);
    await expect(page.getByTestId('top-menu')).toHaveCount(0);
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await stored({ topMenu: false });
  });

  await test.step('footer', async () => {
    await setSwitch(drawer, zhCN['settings.footer'], true);
    await expect(footer(page)).toContainText(BRANDING.copyright);
    await stored({ footer: true });
    await setSwitch(drawer, zhCN['settings.footer'], false);
    await expect(footer(page)).toHaveCount(0);
    await stored({ footer: false });
  });

  await test.step('tab bar', async () => {
    await setSwitch(drawer, zhCN['settings.tabBar'], true);
    await expect(page.getByTestId('tab-bar').locator('[role="tab"]')).toHaveText([
      zhCN['route.home'],
    ]);
    await stored({ tabBar: true });
    await setSwitch(drawer, zhCN['settings.tabBar'], false);
    await expect(page.getByTestId('tab-bar')).toHaveCount(0);
    await stored({ tabBar: false });
  });

  await test.step('menu from server', async () => {
    expect(menuCalls).toHaveLength(0);
    await setSwitch(drawer, zhCN['settings.menuFromServer'], true);
    await expect(notice(page, zhCN['menuLoad.success'])).toBeVisible();
    expect(menuCalls).toHaveLength(1);
    expect(menuCalls[0].method()).toBe('POST');
    await stored({ menuFromServer: true });
    await setSwitch(drawer, zhCN['settings.menuFromServer'], false);
    await stored({ menuFromServer: false });
    expect(menuCalls).toHaveLength(1);
  });

  await test.step('menu width', async () => {
    const width = drawer.getByRole('spinbutton', { name: zhCN['settings.menuWidth'] });
    await width.fill('240');
    await width.press('Enter');
    await expect.poll(() => widthOf(page.getByTestId('side-menu'))).toBe(240);
    await stored({ menuWidth: 240 });
  });

  await test.step('colour weak', async () => {
    await setSwitch(drawer, zhCN['settings.colorWeak'], true);
    expect(await bodyFilter(page)).toEqual(['invert(80%)', 'invert(0.8)']);
    await stored({ colorWeak: true });
    await setSwitch(drawer, zhCN['settings.colorWeak'], false);
    expect(await bodyFilter(page)).toEqual(['', 'none']);
    await stored({ colorWeak: false });
  });
});

test('the settings are kept across a reload', async ({ page, request }) => {
  await openConsole(page, request, 'partner', '/dashboard/workBench');
  let drawer = await openDrawer(page);
  await setSwitch(drawer, zhCN['settings.footer'], true);
  await setSwitch(drawer, zhCN['settings.tabBar'], true);
  await setSwitch(drawer, zhCN['settings.colorWeak'], true);
  const width = drawer.getByRole('spinbutton', { name: zhCN['settings.menuWidth'] });
  await width.fill('300');
  await width.press('Enter');
  await expect.poll(() => widthOf(page.getByTestId('side-menu'))).toBe(300);
  await drawer.getByRole('button', { name: zhCN['form.cancel'] }).click();
  const expected = {
    ...DEFAULT_LAYOUT,
    footer: true,
    tabBar: true,
    colorWeak: true,
    menuWidth: 300,
  };
  expect(await storedLayout(page)).toEqual(expected);

  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.workBench']);
  // The drawer starts closed.
  await expect(settingsDrawer(page)).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toContainText(BRANDING.copyright);
  await expect(page.getByRole('tablist', { name: zhCN['tabs.label'] })).toBeVisible();
  expect(await bodyFilter(page)).toEqual(['invert(80%)', 'invert(0.8)']);
  expect(await widthOf(page.getByTestId('side-menu'))).toBe(300);
  drawer = await openDrawer(page);
  await expect(drawer.getByRole('checkbox', { name: zhCN['settings.footer'] })).toBeChecked();
  await expect(drawer.getByRole('checkbox', { name: zhCN['settings.tabBar'] })).toBeChecked();
  await expect(drawer.getByRole('checkbox', { name: zhCN['settings.colorWeak'] })).toBeChecked();
  await expect(drawer.getByRole('checkbox', { name: zhCN['settings.topMenu'] })).not.toBeChecked();
  await expect(drawer.getByRole('spinbutton', { name: zhCN['settings.menuWidth'] })).toHaveValue(
    '300',
  );
  expect(await storedLayout(page)).toEqual(expected);
});

for (const [locale, t] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`copy settings (${locale}): the layout as JSON on the clipboard`, async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await openConsole(page, request, 'admin', '/home/index', {
      locale,
      layout: { footer: true, menuWidth: 250, theme: 'dark' },
    });
    const drawer = await openDrawer(page, t);
    await drawer.getByRole('button', { name: t['settings.copy'], exact: true }).click();
    await expect(notice(page, t['settings.copied'])).toBeVisible();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as object;
    // The layout settings, without the drawer's own visibility.
    expect(copied).toEqual({ ...DEFAULT_LAYOUT, footer: true, menuWidth: 250, theme: 'dark' });
    expect(copied).toEqual(await storedLayout(page));
    expect(copied).not.toHaveProperty('globalSettings');
  });
}

test('copy settings when the clipboard refuses: an error message', async ({ page, request }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
  });
  await openConsole(page, request, 'admin', '/home/index');
  const drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: zhCN['settings.copy'], exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: zhCN['settings.copyFailed'] }),
  ).toBeVisible();
});

test('colour weak: the page inverted by 80 % when on, restored when off', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'merchant', '/dashboard/workBench', {
    layout: { colorWeak: true },
  });
  expect(await bodyFilter(page)).toEqual(['invert(80%)', 'invert(0.8)']);
  const drawer = await openDrawer(page);
  await setSwitch(drawer, zhCN['settings.colorWeak'], false);
  expect(await bodyFilter(page)).toEqual(['', 'none']);
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(heading1(page)).toBeVisible();
  expect(await bodyFilter(page)).toEqual(['', 'none']);
});

for (const [locale, t] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`footer on (${locale}): copyright, ICP and police record numbers from the branding`, async ({
    page,
    request,
  }) => {
    await openConsole(page, request, 'partner', '/dashboard/workBench', {
      locale,
      layout: { footer: true },
    });
    const foot = page.getByRole('contentinfo');
    await expect(foot.getByText(BRANDING.copyright, { exact: true })).toBeVisible();
    await expect(foot.getByRole('link', { name: BRANDING.icp, exact: true })).toHaveAttribute(
      'href',
      'https://beian.miit.gov.cn/',
    );
    await expect(foot.getByText(BRANDING.police, { exact: true })).toBeVisible();
    await expect(heading1(page)).toHaveText(t['route.workBench']);
  });
}

test('footer: the values are those of get_system_info; off by default', async ({
  page,
  request,
}) => {
  await page.route(`**${API}/platform/get_system_info?*`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, string> };
    body.data = {
      ...body.data,
      copyright: '© Acme',
      icp_record_number: 'ICP-42',
      police_record_number: 'Police-7',
    };
    await route.fulfill({ response, json: body });
  });
  await openConsole(page, request, 'admin', '/home/index');
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  const drawer = await openDrawer(page);
  await setSwitch(drawer, zhCN['settings.footer'], true);
  await page.keyboard.press('Escape');
  const foot = page.getByRole('contentinfo');
  await expect(foot.getByText('© Acme', { exact: true })).toBeVisible();
  await expect(foot.getByRole('link', { name: 'ICP-42', exact: true })).toBeVisible();
  await expect(foot.getByText('Police-7', { exact: true })).toBeVisible();
});
