/**
 * The shell in both themes: dark-mode screenshots (attached to the report) with the
 * page, navbar, menu and text checked to be dark / light through their computed colours, and axe
 * with no serious or critical violations on the shell (tab bar and footer on), the open settings
 * drawer, the open command palette, the top menu and the collapsed side menu, light and dark.
 */
import type { Locator, Page, TestInfo } from '@playwright/test';
import { enUS, expect, heading1, test, zhCN, seriousViolations } from './fixtures';
import {
  type Layout,
  mainMenu,
  navbar,
  openConsole,
  settingsButton,
  settingsDrawer,
} from './shell-fixtures';

/** Relative luminance (0 black … 1 white) of an element's computed colour property. */
async function luminance(locator: Locator, property: 'backgroundColor' | 'color') {
  return locator.evaluate((el, prop) => {
    // Any CSS colour (rgb, oklch, color-mix…) drawn on a canvas reads back as sRGB.
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(el)[prop];
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }, property);
}

/** Waits for a just-opened overlay to finish its entry animation (axe would see it half faded). */
async function settled(locator: Locator) {
  await expect(locator).toBeVisible();
  await locator.evaluate((el) =>
    Promise.all(
      [...el.getAnimations({ subtree: true }), ...(el.parentElement?.getAnimations() ?? [])].map(
        (a) => a.finished,
      ),
    ),
  );
}

/** The WCAG contrast ratio of an element's text against another element's background. */
async function contrast(text: Locator, background: Locator) {
  const [l1, l2] = [await luminance(text, 'color'), await luminance(background, 'backgroundColor')];
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}

/** A screenshot kept in the test's output folder (test-results/…) and attached to the report. */
async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const SHELL: Layout = { tabBar: true, footer: true };

test('dark mode: the shell and its pages are dark, with light text (screenshots attached)', async ({
  page,
  request,
}, testInfo) => {
  await openConsole(page, request, 'admin', '/home/index', { layout: { ...SHELL, theme: 'dark' } });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId('stat-partners')).toHaveText('2');
  const main = page.getByRole('main');
  for (const [part, locator] of [
    ['body', page.locator('body')],
    ['main', main],
    ['navbar', navbar(page)],
    ['menu', mainMenu(page)],
    ['tab bar', page.getByTestId('tab-bar')],
    ['footer', page.getByRole('contentinfo')],
  ] as const) {
    expect(await luminance(locator, 'backgroundColor'), `${part} background`).toBeLessThan(0.05);
  }
  expect(await luminance(heading1(page), 'color'), 'heading text').toBeGreaterThan(0.6);
  expect(
    await luminance(mainMenu(page).getByRole('link').first(), 'color'),
    'menu text',
  ).toBeGreaterThan(0.3);
  await attachScreenshot(page, testInfo, 'dark-shell.png');

  // Every page of the shell is dark too.
  for (const path of ['/user/info', '/user/setting', '/domain/domainList', '/no/such/page']) {
    await page.goto(path);
    await expect(heading1(page)).toBeVisible();
    expect(await luminance(main, 'backgroundColor'), `${path} background`).toBeLessThan(0.05);
    expect(await contrast(heading1(page), main), `${path} heading`).toBeGreaterThan(4.5);
  }
  await attachScreenshot(page, testInfo, 'dark-not-found.png');

  await page.goto('/home/index');
  await expect(heading1(page)).toBeVisible();
  await settingsButton(page).click();
  const drawer = settingsDrawer(page);
  await settled(drawer);
  expect(await luminance(drawer, 'backgroundColor'), 'drawer').toBeLessThan(0.05);
  await attachScreenshot(page, testInfo, 'dark-drawer.png');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: zhCN['palette.title'] });
  await settled(palette);
  expect(await luminance(palette, 'backgroundColor'), 'palette').toBeLessThan(0.05);
  await attachScreenshot(page, testInfo, 'dark-palette.png');
});

test('light mode (the default): a light page with dark text; primary colour #165DFF', async ({
  page,
  request,
}) => {
  await openConsole(page, request, 'admin', '/home/index', { layout: SHELL });
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  expect(await luminance(navbar(page), 'backgroundColor')).toBeGreaterThan(0.8);
  expect(await luminance(page.getByRole('main'), 'backgroundColor')).toBeGreaterThan(0.8);
  expect(await luminance(heading1(page), 'color')).toBeLessThan(0.1);
  // Spec §9: the theme colour, on the primary buttons and the progress bar.
  await expect(page.getByTestId('progress-bar')).toHaveCSS('background-color', 'rgb(22, 93, 255)');
  await settingsButton(page).click();
  await expect(settingsDrawer(page).getByRole('button', { name: zhCN['settings.copy'] })).toHaveCSS(
    'background-color',
    'rgb(22, 93, 255)',
  );
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    test('admin home with the tab bar and footer, then the drawer, then the palette', async ({
      page,
      request,
    }) => {
      await openConsole(page, request, 'admin', '/home/index', {
        layout: { ...SHELL, theme },
      });
      await expect(page.getByTestId('stat-partners')).toHaveText('2');
      expect(await seriousViolations(page), 'shell').toEqual([]);

      await settingsButton(page).click();
      await settled(settingsDrawer(page));
      expect(await seriousViolations(page), 'drawer').toEqual([]);
      await page.keyboard.press('Escape');
      await expect(settingsDrawer(page)).toBeHidden();

      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: zhCN['palette.title'] });
      await settled(palette);
      expect(await seriousViolations(page), 'palette').toEqual([]);
      await palette.getByRole('combobox').fill('设置');
      expect(await seriousViolations(page), 'palette, filtered').toEqual([]);
    });

    test('partner, en-US: top menu with a section open; collapsed side menu; colour weak', async ({
      page,
      request,
    }) => {
      await openConsole(page, request, 'partner', '/creation/mixedshear', {
        locale: 'en-US',
        layout: { ...SHELL, theme, topMenu: true },
      });
      await page
        .getByTestId('top-menu')
        .getByRole('button', { name: enUS['menu.creation'] })
        .click();
      await settled(page.getByRole('menu'));
      expect(await seriousViolations(page), 'top menu').toEqual([]);
      await page.keyboard.press('Escape');

      await page.evaluate(
        (layout) => localStorage.setItem('layoutSettings', JSON.stringify(layout)),
        { ...SHELL, theme, menuCollapse: true, colorWeak: true },
      );
      await page.reload();
      await expect(heading1(page)).toHaveText(enUS['route.mixedshear']);
      await expect(
        mainMenu(page, enUS).getByRole('button', { name: enUS['shell.expandMenu'] }),
      ).toBeVisible();
      expect(await seriousViolations(page), 'collapsed menu').toEqual([]);
    });
  });
}
