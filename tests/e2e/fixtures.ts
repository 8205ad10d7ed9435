/**
 * Helpers of the browser tests: API calls from the test (other sessions of a user, server-side
 * logout), SMS codes from the embedded provider's log, throwaway users, and signing in a page.
 * Every test that changes server state makes its own user, so demo accounts stay as seeded.
 */
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type TestInfo,
  type WorkerInfo,
} from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import enUS from '../../src/i18n/en-US';
import zhCN from '../../src/i18n/zh-CN';

export { enUS, expect, zhCN };
export type MessageId = keyof typeof enUS;

export const DEMO_PASSWORD = 'Demo@2026';
export const API = '/api/v1';
/** The branding of 127.0.0.1 (the demo partner's domain) names money so, in both locales. */
export const MONEY = '星币';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The data dir of the running test's server (each project has its own, playwright.config.ts): its
 * sms.log holds the codes the server sent, `files/` what was stored.
 */
export function dataDir(): string {
  return path.resolve(ROOT, String(base.info().project.metadata.dataDir));
}

/** `{name}` placeholders of a catalogue message filled in. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));
}

// ---------------------------------------------------------------------------------------------
// API calls from the test

export interface Reply<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

export async function apiCall<T = unknown>(
  request: APIRequestContext,
  method: 'GET' | 'POST',
  apiPath: string,
  options: { token?: string; body?: object; lang?: string; origin?: string } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { platform: 'pc' };
  if (options.token) headers.token = options.token;
  if (options.lang) headers.lang = options.lang;
  // `origin` (e.g. http://localhost:8181): the call on another host name of the same server.
  const response = await request.fetch(`${options.origin ?? ''}${API}${apiPath}`, {
    method,
    headers,
    data: method === 'POST' ? (options.body ?? {}) : undefined,
  });
  const json = (await response.json()) as { code: number; msg: string; data: T };
  return { status: response.status(), ...json };
}

/**
 * Uploads an image file as a platform image (`POST /upload/platform_image`: `purpose`, then the
 * file) and answers its address; fails the test when refused.
 */
export async function apiUploadImage(
  request: APIRequestContext,
  token: string,
  purpose: 'logo' | 'favicon' | 'content',
  file: string,
): Promise<string> {
  const response = await request.post(`${API}/upload/platform_image`, {
    headers: { platform: 'pc', token },
    multipart: {
      purpose,
      file: { name: path.basename(file), mimeType: 'image/png', buffer: await readFile(file) },
    },
  });
  const reply = (await response.json()) as { code: number; msg: string; data: { url: string } };
  expect(reply.code, `upload of ${file}: ${reply.msg}`).toBe(1);
  return reply.data.url;
}

/** Logs in through the API (a session of its own) and returns its token. */
export async function apiLogin(
  request: APIRequestContext,
  account: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const reply = await apiCall<{ userinfo: { token: string } }>(request, 'POST', '/platform/login', {
    body: { account, password },
  });
  expect(reply.code, `login of ${account}: ${reply.msg}`).toBe(1);
  return reply.data.userinfo.token;
}

export interface UserInfo {
  accountId: number;
  username: string;
  nickname: string;
  user_type: number;
}

export async function apiUserInfo(request: APIRequestContext, token: string): Promise<UserInfo> {
  const reply = await apiCall<UserInfo>(request, 'POST', '/platform/get_user_info', { token });
  expect(reply.code, reply.msg).toBe(1);
  return reply.data;
}

/** The id of a demo account (found through its own get_user_info; its session is then ended). */
export async function accountIdOf(request: APIRequestContext, account: string): Promise<number> {
  const token = await apiLogin(request, account);
  const { accountId } = await apiUserInfo(request, token);
  await apiCall(request, 'POST', '/platform/logout', { token });
  return accountId;
}

// ---------------------------------------------------------------------------------------------
// SMS codes and throwaway users

/** The newest code the embedded SMS provider sent to `mobile` for `purpose`. */
export async function smsCode(mobile: string, purpose: 'reset' | 'register'): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const log = await readFile(path.join(dataDir(), 'sms.log'), 'utf8').catch(() => '');
        const lines = log.split('\n').filter((line) => line.startsWith(`${mobile} ${purpose} `));
        code = lines.at(-1)?.split(' ')[2];
        return code;
      },
      { message: `an SMS code for ${mobile} (${purpose}) in sms.log` },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

let counter = 0;

/**
 * Nine digits, unique within a run: the worker's parallel index, the clock in milliseconds
 * (mod 10^6, about 16 minutes) and a per-process counter (a restarted worker starts it afresh,
 * but at a later millisecond).
 */
function uniqueDigits(info: TestInfo | WorkerInfo): string {
  counter += 1;
  const clock = String(Date.now() % 1e6).padStart(6, '0');
  return `${info.parallelIndex % 10}${clock}${String(counter % 100).padStart(2, '0')}`;
}

/** An 11-digit mobile starting with 19 (the demo accounts use 138…). */
export function uniqueMobile(testInfo: TestInfo | WorkerInfo): string {
  return `19${uniqueDigits(testInfo)}`;
}

export function uniqueUsername(testInfo: TestInfo | WorkerInfo, prefix = 'e2e'): string {
  return `${prefix}_${uniqueDigits(testInfo)}`;
}

export interface TestUser {
  username: string;
  password: string;
  mobile: string;
  id: number;
  /** When its sign-up code was sent: the server sends one code per mobile per 60 s. */
  codeSentAt: number;
}

/**
 * Signs up a merchant through the API (SMS code from sms.log), under the partner that owns
 * 127.0.0.1, and ends the session the sign-up opened.
 */
export async function registerUser(
  request: APIRequestContext,
  testInfo: TestInfo | WorkerInfo,
  password = 'Start#2026',
): Promise<TestUser> {
  const mobile = uniqueMobile(testInfo);
  const username = uniqueUsername(testInfo);
  const sent = await apiCall(request, 'POST', '/platform/get_captcha', {
    body: { mobile, purpose: 'register' },
  });
  expect(sent.code, sent.msg).toBe(1);
  const codeSentAt = Date.now();
  const code = await smsCode(mobile, 'register');
  const reply = await apiCall<{ userinfo: { token: string; accountId: number } }>(
    request,
    'POST',
    '/platform/register',
    { body: { username, password, mobile, code, domain: '127.0.0.1' } },
  );
  expect(reply.code, reply.msg).toBe(1);
  await apiCall(request, 'POST', '/platform/logout', { token: reply.data.userinfo.token });
  return { username, password, mobile, id: reply.data.userinfo.accountId, codeSentAt };
}

// ---------------------------------------------------------------------------------------------
// The browser side

/** Signs in through the login form and waits until the console has left /login. */
export async function signIn(page: Page, account: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel(zhCN['form.account'], { exact: true }).fill(account);
  await page.getByLabel(zhCN['form.password'], { exact: true }).fill(password);
  await page.getByRole('button', { name: zhCN['login.submit'], exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Puts a token (and optionally a locale) into this context's local storage before the console
 * runs, by way of a same-origin API page that does not start the app.
 */
export async function storeToken(page: Page, token: string, locale?: 'zh-CN' | 'en-US') {
  await page.goto(`${API}/platform/get_system_info?domain=127.0.0.1`);
  await page.evaluate(
    ({ token, locale }) => {
      localStorage.setItem('token', token);
      if (locale) localStorage.setItem('locale', locale);
    },
    { token, locale },
  );
}

/** A new context whose local storage already holds `token` (and the locale). */
export async function contextWithToken(
  browser: Browser,
  baseURL: string,
  token: string,
  locale?: 'zh-CN' | 'en-US',
): Promise<BrowserContext> {
  const localStorage = [{ name: 'token', value: token }];
  if (locale) localStorage.push({ name: 'locale', value: locale });
  return browser.newContext({
    baseURL,
    storageState: { cookies: [], origins: [{ origin: baseURL, localStorage }] },
  });
}

export const storedToken = (page: Page, kind: 'local' | 'session' = 'local') =>
  page.evaluate(
    (kind) => (kind === 'session' ? sessionStorage : localStorage).getItem('token'),
    kind,
  );

/** Everything this page's origin keeps in local and session storage, as one list of values. */
export const storageValues = (page: Page) =>
  page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((s) =>
      Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`),
    ),
  );

/** The navbar's user menu, then one of its items. */
export async function openUserMenuItem(page: Page, item: string, locale = zhCN) {
  await page
    .getByRole('button', { name: new RegExp(fill(locale['shell.userMenu'], { name: '.*' })) })
    .click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** A text field by its label (required fields carry a decorative '*' outside the name). */
export const textField = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

/** The server refuses this password (answering as for any wrong password). */
export async function expectPasswordRefused(
  request: APIRequestContext,
  account: string,
  password: string,
) {
  const reply = await apiCall(request, 'POST', '/platform/login', { body: { account, password } });
  expect(reply.code).toBe(0);
  expect(reply.msg).toBe('账号或密码错误');
}

/** The side menu's link to a page. */
export const menuLink = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true });

export const heading1 = (page: Page) => page.getByRole('heading', { level: 1 });

/**
 * Clicks a button that closes its own page and waits for the close. The click may report that
 * its page has gone (the page closed before Playwright finished the click); that is the
 * expected outcome, so only another error fails the test.
 */
export async function clickClosingPage(page: Page, button: Locator) {
  const closed = page.waitForEvent('close');
  const clicked = button.click().then(
    () => null,
    (error: Error) => error,
  );
  await closed;
  const error = await clicked;
  if (error && !/closed/i.test(error.message)) throw error;
  expect(page.isClosed()).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// The test object of every spec

export const test = base.extend<
  object,
  {
    /**
     * A throwaway user signed up when the worker starts, for the forgot-password test: the server
     * sends one code per mobile per 60 s, so a reset code for a fresh user's mobile can be asked
     * for only a minute after its sign-up code. Signed up early, the minute has mostly passed by
     * the time that test runs.
     */
    resetUser: TestUser;
  }
>({
  resetUser: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL,
      });
      const user = await registerUser(request, workerInfo);
      await request.dispose();
      await use(user);
    },
    { scope: 'worker', auto: true },
  ],
});

/**
 * axe's serious and critical violations on the page, once its CSS transitions and finite animations
 * have finished (a colour read mid-transition, e.g. a button's hover fading in, is not the page's).
 * `experimental` turns on rules axe keeps off by default, e.g. WCAG 2.5.3
 * `label-content-name-mismatch` (a control's visible text is part of its name).
 */
export async function seriousViolations(page: Page, experimental: readonly string[] = []) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
  // Only the violations are read: axe builds selectors for those alone (`resultTypes`), and runs
  // in the page itself (legacy mode: no blank page opened to gather the frames' results; no
  // cross-origin frames here). Together about half the time of an axe pass (a11y.spec: 256 s of
  // test time → 139 s); a page with a nameless button and an image without alt is still refused.
  const { violations } = await new AxeBuilder({ page })
    .options({
      rules: Object.fromEntries(experimental.map((id) => [id, { enabled: true }])),
      resultTypes: ['violations'],
    })
    .setLegacyMode(true)
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}
