/**
 * The login page pre-rendered at build time (login.html): shown before the
 * console's scripts run, allowed by the CSP, in the visitor's language, theme and remembered
 * account; what is done in it before the console takes over — typing, ticking, choosing a
 * language, submitting — is handed over, never lost, and never put in a URL.
 */
import type { Page } from '@playwright/test';
import {
  apiLogin,
  DEMO_PASSWORD,
  enUS,
  expect,
  heading1,
  storeToken,
  test,
  zhCN,
} from './fixtures';

const COPY = '#prerender';

/** Holds every script of the console until `release` is called: only the HTML shows. */
async function holdScripts(page: Page) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return () => release();
}

function cspErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      errors.push(message.text());
    }
  });
  return errors;
}

test('/login arrives with the page in its HTML; other pages do not', async ({ request }) => {
  const login = await (await request.get('/login?redirect=%2Fuser%2Finfo')).text();
  expect(login).toContain('id="prerender"');
  expect(login).toContain(`>${zhCN['login.submit']}</button>`);
  expect(login).toContain(`>${enUS['login.submit']}</button>`); // the en-US variant
  const index = await (await request.get('/home/index')).text();
  expect(index).not.toContain('id="prerender"');
});

test('shown before the scripts run, then the console takes over what was typed and submitted', async ({
  page,
}) => {
  const errors = cspErrors(page);
  const formRequests: string[] = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest() && (r.method() !== 'GET' || r.url().includes('password'))) {
      formRequests.push(`${r.method()} ${r.url()}`);
    }
  });
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const copy = page.locator(COPY);
  await expect(copy.getByRole('button', { name: zhCN['login.submit'], exact: true })).toBeVisible();
  await expect(copy.getByRole('heading', { level: 1 })).toHaveText(zhCN['login.title']);

  await copy.getByLabel(zhCN['form.account'], { exact: true }).fill('admin');
  await copy.getByLabel(zhCN['form.password'], { exact: true }).fill(DEMO_PASSWORD);
  await copy.getByLabel(zhCN['form.password'], { exact: true }).press('Enter');
  await page.waitForTimeout(300);
  // Held, not sent as a form: the copy is still there and nothing left the page.
  await expect(copy.getByLabel(zhCN['form.account'], { exact: true })).toHaveValue('admin');
  expect(formRequests).toEqual([]);

  release();
  await expect(page).toHaveURL('/home/index');
  await expect(page.locator(COPY)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('typing in the copy carries over, with the focus, when the console takes over', async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator(COPY).getByText(zhCN['login.remember']).click();
  await page.locator(COPY).getByLabel(zhCN['form.account'], { exact: true }).fill('someone');
  release();
  await expect(page.locator(COPY)).toHaveCount(0);
  const account = page.getByLabel(zhCN['form.account'], { exact: true });
  await expect(account).toHaveValue('someone');
  await expect(account).toBeFocused();
  await expect(page.getByRole('checkbox', { name: zhCN['login.remember'] })).toBeChecked();
  // The console's own form works: an empty password is refused as the server would.
  await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
  await expect(page.getByText(zhCN['validation.passwordRequired'])).toBeVisible();
});

test('a button clicked in the copy (forgot password) is clicked when the console takes over', async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator(COPY).getByRole('button', { name: zhCN['login.forgot'] }).click();
  release();
  await expect(page.getByRole('dialog', { name: zhCN['forgot.title'] })).toBeVisible();
});

test('a language chosen in the copy is switched to when the console takes over', async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page
    .locator(COPY)
    .getByRole('combobox', { name: zhCN['locale.label'] })
    .selectOption('en-US');
  release();
  await expect(heading1(page)).toHaveText(enUS['login.title']);
  await expect(page.getByRole('status').filter({ hasText: enUS['locale.changed'] })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
});

test('the copy follows the stored language, remembered account and dark theme', async ({
  page,
}) => {
  await page.goto('/login');
  await page.evaluate(() => {
    localStorage.setItem('locale', 'en-US');
    localStorage.setItem('rememberedAccount', 'merchant');
    localStorage.setItem('layoutSettings', JSON.stringify({ theme: 'dark' }));
  });
  const release = await holdScripts(page);
  await page.reload({ waitUntil: 'commit' });
  const copy = page.locator(COPY);
  await expect(copy.getByRole('heading', { level: 1 })).toHaveText(enUS['login.title']);
  await expect(copy.getByLabel(enUS['form.account'], { exact: true })).toHaveValue('merchant');
  await expect(copy.getByRole('checkbox', { name: enUS['login.remember'] })).toBeChecked();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  release();
  await expect(page.locator(COPY)).toHaveCount(0);
  await expect(page.getByLabel(enUS['form.account'], { exact: true })).toHaveValue('merchant');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test('a visitor with a session gets no copy: /login goes to the home page', async ({
  page,
  request,
}) => {
  await storeToken(page, await apiLogin(request, 'merchant'));
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator('#root').waitFor({ state: 'attached' }); // parsed past the copy's script
  await expect(page.locator(COPY)).toHaveCount(0);
  release();
  await expect(page).not.toHaveURL(/\/login/);
});
