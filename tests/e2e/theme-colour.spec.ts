/**
 * A domain's theme colour is the console's primary colour (docs/domain.md §12): the demo's
 * `localhost` domain given a colour, the console opened at http://localhost:PORT shows it on the
 * login page's button and brand panel and, signed in, on the shell's navbar and solid buttons;
 * a light colour gets dark text; the page at 127.0.0.1 (the other domain) keeps the default. The
 * server writes the colour into the page, so it shows before the branding call answers.
 * axe in both locales (the colours' contrast included).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  heading1,
  seriousViolations,
  test,
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;

async function localhostDomain(request: APIRequestContext, token: string) {
  const listed = await apiCall<{ list: { id: number; hostname: string; theme_color: string }[] }>(
    request,
    'GET',
    '/domain/list?keyword=localhost',
    { token },
  );
  const domain = listed.data.list.find((d) => d.hostname === 'localhost');
  expect(domain, 'the demo data has the localhost domain').toBeDefined();
  return domain!;
}

async function setThemeColour(
  request: APIRequestContext,
  token: string,
  id: number,
  colour: string,
) {
  const reply = await apiCall(request, 'POST', '/domain/edit', {
    token,
    body: { id, theme_color: colour },
  });
  expect(reply.code, reply.msg).toBe(1);
}

const localOrigin = (baseURL: string | undefined) =>
  (baseURL ?? 'http://127.0.0.1:8181').replace('127.0.0.1', 'localhost');

async function signInHere(page: Page, c: Catalogue) {
  await page.getByLabel(c['form.account'], { exact: true }).fill('merchant');
  await page.getByLabel(c['form.password'], { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: c['login.submit'], exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

const css = (page: Page, testId: string, property: string) =>
  page.getByTestId(testId).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

test('a dark theme colour on the login page and the shell (zh-CN)', async ({
  page,
  request,
  baseURL,
}) => {
  const c = zhCN;
  const admin = await apiLogin(request, 'admin');
  const domain = await localhostDomain(request, admin);
  await setThemeColour(request, admin, domain.id, '#aa3300');
  try {
    const origin = localOrigin(baseURL);
    await page.goto(`${origin}/login`);
    const submit = page.getByRole('button', { name: c['login.submit'], exact: true });
    await expect(submit).toHaveCSS('background-color', 'rgb(170, 51, 0)');
    await expect(submit).toHaveCSS('color', 'rgb(255, 255, 255)');
    await expect(page.getByTestId('login-brand')).toHaveCSS('background-color', 'rgb(170, 51, 0)');
    expect(await seriousViolations(page), 'the login page').toEqual([]);

    await signInHere(page, c);
    await expect(page.getByTestId('navbar')).toHaveCSS('border-top-color', 'rgb(170, 51, 0)');
    expect(await css(page, 'navbar', 'border-top-width')).toBe('3px');
    expect(await seriousViolations(page), 'the shell').toEqual([]);

    // From the first frame: with the branding call held back, the server's page already has the
    // colour, on the login page and on a signed-in page.
    const held = await page.context().newPage();
    await held.route('**/platform/get_system_info**', () => {});
    await held.goto(page.url());
    await expect(held.getByTestId('navbar')).toHaveCSS('border-top-color', 'rgb(170, 51, 0)');
    await held.context().clearCookies();
    await held.evaluate(() => localStorage.removeItem('token'));
    await held.goto(`${origin}/login`);
    await expect(held.getByRole('button', { name: c['login.submit'], exact: true })).toHaveCSS(
      'background-color',
      'rgb(170, 51, 0)',
    );
    await held.close();

    // The other domain (127.0.0.1) keeps the console's default #165DFF.
    const other = await page.context().newPage();
    await other.goto('/login');
    await expect(other.getByRole('button', { name: c['login.submit'], exact: true })).toHaveCSS(
      'background-color',
      'rgb(22, 93, 255)',
    );
    await other.close();
  } finally {
    await setThemeColour(request, admin, domain.id, '');
  }
});

test('a light theme colour gets dark text (en-US)', async ({ page, request, baseURL }) => {
  const c = enUS;
  const admin = await apiLogin(request, 'admin');
  const domain = await localhostDomain(request, admin);
  await setThemeColour(request, admin, domain.id, '#ffd000');
  try {
    const origin = localOrigin(baseURL);
    await page.goto(`${origin}/login`);
    await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
    await page.reload();
    const submit = page.getByRole('button', { name: c['login.submit'], exact: true });
    await expect(submit).toHaveCSS('background-color', 'rgb(255, 208, 0)');
    await expect(submit).toHaveCSS('color', 'rgb(17, 17, 17)');
    await expect(page.getByTestId('login-brand')).toHaveCSS('color', 'rgb(17, 17, 17)');
    expect(await seriousViolations(page), 'the login page').toEqual([]);

    await signInHere(page, c);
    await expect(heading1(page)).toBeVisible();
    await expect(page.getByTestId('navbar')).toHaveCSS('border-top-color', 'rgb(255, 208, 0)');
    expect(await seriousViolations(page), 'the shell').toEqual([]);
    // A change of the colour shows at the next load of the page, without a restart.
    await setThemeColour(request, admin, domain.id, '#0f7b3f');
    await page.reload();
    await expect(page.getByTestId('navbar')).toHaveCSS('border-top-color', 'rgb(15, 123, 63)');
  } finally {
    await setThemeColour(request, admin, domain.id, '');
  }
});
