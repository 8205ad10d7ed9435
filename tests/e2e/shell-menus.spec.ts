/**
 * The menus of the layout shell (docs/domain.md §13 and §14): the side menu's width, the width field,
 * collapse and expand; the top menu in its place (turning it on expands a collapsed menu); the
 * sections and their order per role; hidden routes never listed; the clip entry lit on
 * /creation/mixedshear; the section names in both locales; the menu from the server.
 */
import type { Page, Request } from '@playwright/test';
import { API, enUS, expect, heading1, type MessageId, test, zhCN } from './fixtures';
import {
  type Catalogue,
  mainMenu,
  notice,
  openConsole,
  openInApp,
  settingsButton,
  settingsDrawer,
  storedLayout,
  widthOf,
} from './shell-fixtures';

/** The menu of docs/domain.md §13 per role, written out here (not read from the route table). */
const MENUS: Record<'admin' | 'partner', [MessageId, MessageId[]][]> = {
  admin: [
    ['menu.home', ['route.home']],
    ['menu.digitalHuman', ['route.videoTemplate']],
    [
      'menu.promotion',
      ['route.merchant', 'route.partner', 'route.agent', 'route.tree', 'route.cardPassword'],
    ],
    [
      'menu.account',
      [
        'route.accountSettings',
        'route.property',
        'route.voiceRecord',
        'route.recharge',
        'route.rechargeOrder',
        'route.systemInit',
        'route.auditLog',
      ],
    ],
    ['menu.domain', ['route.domainList']],
    ['menu.protocol', ['route.article', 'route.agreement']],
    ['menu.aiTool', ['route.aiToolIndex']],
  ],
  partner: [
    ['menu.dashboard', ['route.workBench']],
    ['menu.creation', ['route.resource', 'route.clip', 'route.mixedTask']],
    [
      'menu.digitalHuman',
      ['route.imageClone', 'route.soundClone', 'route.digitalVideo', 'route.videoTemplate'],
    ],
    ['menu.matrix', ['route.authorization', 'route.releasePlan', 'route.videoData']],
    [
      'menu.promotion',
      ['route.merchant', 'route.partner', 'route.agent', 'route.tree', 'route.cardPassword'],
    ],
    [
      'menu.account',
      ['route.accountSettings', 'route.property', 'route.rechargeOrder', 'route.auditLog'],
    ],
    ['menu.protocol', ['route.article', 'route.agreement']],
  ],
};

/** Routes that are never listed in a menu (docs/domain.md §13 "hidden"). */
const HIDDEN_PATHS = [
  '/dashboard/to-create-video',
  '/creation/mixedshear',
  '/digital-human/create-video',
  '/digital-human/my-creation',
  '/promotion/all-merchant',
  '/redirect/home',
  '/login',
];

/** The side menu as [section name, [entry names]], in the order shown. */
async function sideMenuOf(page: Page, t: Catalogue) {
  const menu = mainMenu(page, t);
  const groups = menu.getByRole('group');
  const out: [string, string[]][] = [];
  for (const group of await groups.all()) {
    const name = (await group.getAttribute('aria-label')) ?? '';
    out.push([name, await group.getByRole('link').allTextContents()]);
  }
  return out;
}

const named = (t: Catalogue, menu: [MessageId, MessageId[]][]) =>
  menu.map(([group, routes]) => [t[group], routes.map((id) => t[id])]);

test('side menu: 220 px by default, collapses to icons with names and expands again', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index');
  const menu = mainMenu(page);
  expect(await widthOf(menu)).toBe(220);
  const collapse = menu.getByRole('button', { name: zhCN['shell.collapseMenu'], exact: true });
  await expect(collapse).toHaveAttribute('aria-expanded', 'true');

  await collapse.click();
  const expand = menu.getByRole('button', { name: zhCN['shell.expandMenu'], exact: true });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(() => widthOf(menu)).toBe(56);
  // The entries keep their names (as labels of the icons).
  await expect(
    menu.getByRole('link', { name: zhCN['route.domainList'], exact: true }),
  ).toBeVisible();
  expect((await storedLayout(page))?.menuCollapse).toBe(true);

  // Kept after a reload.
  await page.reload();
  await expect(heading1(page)).toBeVisible();
  await expect.poll(() => widthOf(menu)).toBe(56);

  await expand.click();
  await expect.poll(() => widthOf(menu)).toBe(220);
  await expect(collapse).toBeVisible();
  expect((await storedLayout(page))?.menuCollapse).toBe(false);
});

test("the drawer's menu width field sets the side menu's width", async ({ page, request }) => {
  await openConsole(page, request, 'partner', '/dashboard/workBench', { locale: 'en-US' });
  const menu = mainMenu(page, enUS);
  await settingsButton(page, enUS).click();
  const field = settingsDrawer(page, enUS).getByRole('spinbutton', {
    name: enUS['settings.menuWidth'],
  });
  await expect(field).toHaveValue('220');

  await field.fill('300');
  await field.press('Enter');
  await expect.poll(() => widthOf(page.getByTestId('side-menu'))).toBe(300);
  expect((await storedLayout(page))?.menuWidth).toBe(300);

  // Typed key by key, as a person does.
  await field.selectText();
  await field.pressSequentially('260', { delay: 30 });
  await field.press('Tab');
  await expect(field).toHaveValue('260');
  await expect.poll(() => widthOf(page.getByTestId('side-menu'))).toBe(260);

  await page.keyboard.press('Escape');
  await expect(settingsDrawer(page, enUS)).toBeHidden();
  expect(await widthOf(menu)).toBe(260);
  await page.reload();
  await expect(heading1(page)).toBeVisible();
  expect(await widthOf(menu)).toBe(260);
  expect((await storedLayout(page))?.menuWidth).toBe(260);
});

test('top menu on: a bar of sections replaces the side menu; turning it on expands the menu', async ({
  page,
  request,
}) => {
  // A collapsed side menu to begin with.
  await openConsole(page, request, 'partner', '/dashboard/workBench', {
    layout: { menuCollapse: true },
  });
  await expect.poll(() => widthOf(mainMenu(page))).toBe(56);

  await settingsButton(page).click();
  const drawer = settingsDrawer(page);
  await drawer.getByText(zhCN['settings.topMenu'], { exact: true }).click();
  await expect(drawer.getByRole('checkbox', { name: zhCN['settings.topMenu'] })).toBeChecked();
  // Spec §4: turning on topMenu sets menuCollapse to false.
  expect(await storedLayout(page)).toMatchObject({ topMenu: true, menuCollapse: false });
  await page.keyboard.press('Escape');

  await expect(page.getByTestId('side-menu')).toHaveCount(0);
  const bar = page.getByTestId('top-menu');
  await expect(bar).toBeVisible();
  await expect(mainMenu(page)).toHaveCount(1);
  // Under the navbar, across the page.
  const barBox = (await bar.boundingBox())!;
  expect(barBox.y).toBe(60);
  expect(barBox.width).toBe(page.viewportSize()!.width);
  // One dropdown per section, in the order of the side menu.
  await expect(bar.getByRole('button')).toHaveText(MENUS.partner.map(([g]) => zhCN[g]));
  await bar.getByRole('button', { name: zhCN['menu.digitalHuman'] }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(
    MENUS.partner[2][1].map((id) => zhCN[id]),
  );
  await page.getByRole('menuitem', { name: zhCN['route.soundClone'], exact: true }).click();
  await expect(page).toHaveURL('/digital-human/sound-clone');
  await expect(heading1(page)).toHaveText(zhCN['route.soundClone']);

  // Top menu off: the side menu is back, expanded.
  await settingsButton(page).click();
  await drawer.getByText(zhCN['settings.topMenu'], { exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('top-menu')).toHaveCount(0);
  await expect.poll(() => widthOf(mainMenu(page))).toBe(220);
});

test('menu off hides the side menu', async ({ page, request }) => {
  await openConsole(page, request, 'admin', '/home/index', { layout: { menu: false } });
  await expect(mainMenu(page)).toHaveCount(0);
  await expect(heading1(page)).toHaveText(zhCN['route.home']);
});

for (const role of ['admin', 'partner'] as const) {
  for (const [locale, t] of [
    ['zh-CN', zhCN],
    ['en-US', enUS],
  ] as const) {
    test(`${role}'s side menu (${locale}): sections and entries in route-table order, no hidden routes`, async ({
      page,
      request,
    }) => {
      await openConsole(page, request, role, '/user/info', { locale });
      expect(await sideMenuOf(page, t)).toEqual(named(t, MENUS[role]));
      const hrefs = await mainMenu(page, t)
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      for (const hidden of HIDDEN_PATHS) expect(hrefs).not.toContain(hidden);
      // The user centre and exception pages are for the developer role only.
      expect(hrefs).not.toContain('/user/info');
      expect(hrefs).not.toContain('/exception/404');
    });
  }
}

test('docs/domain.md §13 section names in both locales: settings centre and init config (admin)', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index');
  const account = mainMenu(page).getByRole('group', { name: zhCN['menu.account'], exact: true });
  await expect(account.getByRole('link', { name: '设置中心', exact: true })).toBeVisible();
  await expect(account.getByRole('link', { name: '初始化配置', exact: true })).toBeVisible();
  await account.getByRole('link', { name: '初始化配置', exact: true }).click();
  await expect(heading1(page)).toHaveText('初始化配置');

  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  const accountEn = mainMenu(page, enUS).getByRole('group', { name: 'Account centre' });
  await expect(accountEn.getByRole('link', { name: 'Settings centre', exact: true })).toBeVisible();
  await expect(accountEn.getByRole('link', { name: 'Init config', exact: true })).toBeVisible();
  await expect(heading1(page)).toHaveText('Init config');
});

test('docs/domain.md §13 section names in both locales: my new works (merchant)', async ({
  page,
  request,
}) => {
  // A hidden digital-human page; it lights the digital-human videos entry.
  await openConsole(page, request, 'merchant', '/digital-human/my-creation', { locale: 'en-US' });
  await expect(heading1(page)).toHaveText('My new works');
  // A notification of the merchant's (another test's finished video) leads the title: "(1) …".
  await expect(page).toHaveTitle(/^(\(\d+\) )?My new works - /);
  await expect(
    mainMenu(page, enUS).getByRole('link', { name: enUS['route.digitalVideo'], exact: true }),
  ).toHaveAttribute('aria-current', 'page');
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  await page.reload();
  await expect(heading1(page)).toHaveText('我的新作品');
});

test('/creation/mixedshear (hidden) lights the smart clipping entry', async ({ page, request }) => {
  await openConsole(page, request, 'merchant', '/creation/mixedshear');
  await expect(heading1(page)).toHaveText(zhCN['route.mixedshear']);
  const menu = mainMenu(page);
  await expect(menu.getByRole('link', { name: zhCN['route.clip'], exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(menu.locator('[aria-current]')).toHaveCount(1);
  await expect(menu.getByRole('link', { name: zhCN['route.mixedshear'], exact: true })).toHaveCount(
    0,
  );

  // The open page's own entry elsewhere.
  await menu.getByRole('link', { name: zhCN['route.resource'], exact: true }).click();
  await expect(menu.getByRole('link', { name: zhCN['route.resource'] })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(menu.locator('[aria-current]')).toHaveCount(1);
});

test('/creation/mixedshear in the top menu: the clip item is lit', async ({ page, request }) => {
  await openConsole(page, request, 'partner', '/creation/mixedshear', {
    layout: { topMenu: true },
  });
  const bar = page.getByTestId('top-menu');
  await bar.getByRole('button', { name: zhCN['menu.creation'] }).click();
  await expect(
    page.getByRole('menuitem', { name: zhCN['route.clip'], exact: true }),
  ).toHaveAttribute('aria-current', 'page');
});

test('without the show_clip_menu flag the clip entries are not listed', async ({
  page,
  request,
}) => {
  await page.route(`**${API}/platform/get_user_info`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown> };
    body.data.show_clip_menu = 0;
    await route.fulfill({ response, json: body });
  });
  await openConsole(page, request, 'merchant', '/creation/resource');
  const creation = mainMenu(page).getByRole('group', { name: zhCN['menu.creation'] });
  await expect(creation.getByRole('link')).toHaveText([
    zhCN['route.resource'],
    zhCN['route.mixedTask'],
  ]);
  // And the page itself is not open to this user.
  await openInApp(page, '/creation/clip');
  await expect(page).toHaveURL('/dashboard/workBench');
});

/** Requests of the server menu. */
const isMenuCall = (r: Request) =>
  r.url().endsWith(`${API}/api/user/menu`) && r.method() === 'POST';

test('menu from server on: loading then success notices, the menu from POST /api/user/menu', async ({
  page,
  request,
}) => {
  const calls: Request[] = [];
  page.on('request', (r) => {
    if (isMenuCall(r)) calls.push(r);
  });
  // Slow enough to see the loading notice.
  await page.route(`**${API}/api/user/menu`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await openConsole(page, request, 'partner', '/dashboard/workBench', {
    layout: { menuFromServer: true },
    locale: 'en-US',
  });
  await expect(notice(page, enUS['menuLoad.success'])).toBeVisible();
  expect(calls).toHaveLength(1);
  expect(calls[0].headers()).toMatchObject({ platform: 'pc' });
  expect(calls[0].headers().token).toBeTruthy();
  expect(await sideMenuOf(page, enUS)).toEqual(named(enUS, MENUS.partner));

  // The loading notice shows while the call runs (a reload starts it again).
  await page.reload();
  await expect(notice(page, enUS['menuLoad.loading'])).toBeVisible();
  await expect(notice(page, enUS['menuLoad.success'])).toBeVisible();
  await expect(notice(page, enUS['menuLoad.loading'])).toHaveCount(0);
  expect(calls).toHaveLength(2);

  // Navigating does not ask again.
  await mainMenu(page, enUS).getByRole('link', { name: enUS['route.tree'] }).click();
  await expect(heading1(page)).toHaveText(enUS['route.tree']);
  expect(calls).toHaveLength(2);
});

test('menu from server on: a route the role may open but the server menu omits is not found', async ({
  page,
  request,
}) => {
  // The demo server lists every route a role may open, so drop one on the way.
  await page.route(`**${API}/api/user/menu`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      data: { name: string; children: { name: string }[] }[];
    };
    for (const section of body.data) {
      section.children = section.children.filter((c) => c.name !== 'voiceRecord');
    }
    await route.fulfill({ response, json: body });
  });
  await openConsole(page, request, 'admin', '/home/index', { layout: { menuFromServer: true } });
  await expect(notice(page, zhCN['menuLoad.success'])).toBeVisible();
  const account = mainMenu(page).getByRole('group', { name: zhCN['menu.account'] });
  await expect(account.getByRole('link', { name: zhCN['route.recharge'] })).toBeVisible();
  await expect(account.getByRole('link', { name: zhCN['route.voiceRecord'] })).toHaveCount(0);

  // Listed by the server: opens.
  await openInApp(page, '/account/recharge');
  await expect(page).toHaveURL('/account/recharge');
  await expect(heading1(page)).toHaveText(zhCN['route.recharge']);
  // Open to admins, not in the server menu: not found.
  await openInApp(page, '/account/voice-record');
  await expect(page).toHaveURL('/404');
  await expect(page.getByText(zhCN['exception.404'])).toBeVisible();
  // The same as a full page load.
  await page.goto('/account/voice-record');
  await expect(page).toHaveURL('/404');
  // The white list (redirect) works though the server menu does not name it.
  await page.goto(`/redirect/${encodeURIComponent('account/recharge')}`);
  await expect(page).toHaveURL('/account/recharge');
  await expect(heading1(page)).toHaveText(zhCN['route.recharge']);
});

test('menu from server on, the call fails: an error notification', async ({ page, request }) => {
  await page.route(`**${API}/api/user/menu`, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
  );
  await openConsole(page, request, 'admin', '/home/index');
  await settingsButton(page).click();
  await settingsDrawer(page).getByText(zhCN['settings.menuFromServer'], { exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: zhCN['menuLoad.error'] })).toBeVisible();
  await expect(notice(page, zhCN['menuLoad.success'])).toHaveCount(0);
  await expect(notice(page, zhCN['menuLoad.loading'])).toHaveCount(0);
});

test('menu from server off: no call to /api/user/menu', async ({ page, request }) => {
  const calls: Request[] = [];
  page.on('request', (r) => {
    if (isMenuCall(r)) calls.push(r);
  });
  await openConsole(page, request, 'admin', '/home/index');
  await mainMenu(page).getByRole('link', { name: zhCN['route.domainList'] }).click();
  await expect(heading1(page)).toHaveText(zhCN['route.domainList']);
  await page.reload();
  await expect(heading1(page)).toHaveText(zhCN['route.domainList']);
  expect(calls).toHaveLength(0);
  await expect(notice(page, zhCN['menuLoad.loading'])).toHaveCount(0);
  await expect(notice(page, zhCN['menuLoad.success'])).toHaveCount(0);
});
