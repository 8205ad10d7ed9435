/**
 * Matrix distribution against the real server and its embedded sandbox platform (the demo data
 * turns it on; the Douyin adapter talks to it over HTTP as it would to Douyin). The demo merchant
 * binds a test account through the platform's authorisation page; makes a batch link that a
 * visitor, logged out, opens and authorises; both accounts are then the merchant's (en-US). The
 * demo merchant is used (not a throwaway user): binding needs nothing else of it, and the plans
 * need its library videos; this spec runs on the `moves-money` server, which no dashboard reads.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  contextWithToken,
  enUS,
  expect,
  fill,
  heading1,
  seriousViolations,
  test,
  zhCN,
} from './fixtures';

interface SandboxAccount {
  open_id: string;
  nickname: string;
}

async function sandboxAccounts(request: APIRequestContext): Promise<SandboxAccount[]> {
  const reply = await request.get('/sandbox-platform/__control/accounts');
  expect(reply.ok()).toBe(true);
  return ((await reply.json()) as { list: SandboxAccount[] }).list;
}

/** On the sandbox platform's page: "授权" beside the account's name. */
async function authoriseOnPlatform(page: Page, nickname: string) {
  await expect(page.getByRole('heading', { level: 1, name: '授权登录' })).toBeVisible();
  await page
    .getByRole('listitem')
    .filter({ hasText: nickname })
    .getByRole('button', { name: '授权' })
    .click();
}

const ACCOUNTS_PAGE = '/matrix-distribution/authorization';

test('bind a sandbox account, then another through a batch link opened logged out', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const [first, second] = (await sandboxAccounts(request)).slice(0, 2);
  const token = await apiLogin(request, 'merchant');
  const context = await contextWithToken(browser, baseURL!, token, 'en-US');
  const page = await context.newPage();
  await page.goto(ACCOUNTS_PAGE);
  await expect(heading1(page)).toHaveText(enUS['route.authorization']);

  // Bind: the platform's page, "授权", back on the accounts page with the account.
  await page.getByRole('button', { name: enUS['matrix.bindAccount'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: enUS['matrix.bindTitle'] });
  await dialog.getByRole('button', { name: enUS['matrix.bindSubmit'], exact: true }).click();
  await authoriseOnPlatform(page, first.nickname);
  await page.waitForURL((url) => url.pathname === ACCOUNTS_PAGE);
  await expect(page.getByText(enUS['matrix.bound'])).toBeVisible();
  await expect(page.getByText(first.nickname, { exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A batch link, made on the page.
  await page.getByRole('button', { name: enUS['matrix.batchOpen'], exact: true }).click();
  await page.getByRole('button', { name: enUS['matrix.batchMake'], exact: true }).click();
  await expect(page.getByText(enUS['matrix.batchMade'])).toBeVisible();
  const links = await apiCall<{ list: { url: string; uses: number }[] }>(
    request,
    'GET',
    '/matrix/batch_link_list',
    { token },
  );
  const url = links.data.list[0].url;
  expect(url).toContain('/batchAuthorization?token=');
  expect(await seriousViolations(page)).toEqual([]);

  // A visitor with no session (the console's default language) opens it and authorises one.
  const visitor = await browser.newContext({ baseURL });
  const visit = await visitor.newPage();
  await visit.goto(url);
  await expect(heading1(visit)).toHaveText(zhCN['batchAuth.title']);
  expect(await seriousViolations(visit)).toEqual([]);
  const douyin = zhCN['batchAuth.platformDouyin'];
  await visit
    .getByRole('button', { name: fill(zhCN['batchAuth.authorise'], { platform: douyin }) })
    .click();
  await authoriseOnPlatform(visit, second.nickname);
  await visit.waitForURL((u) => u.pathname === '/batchAuthorization');
  await expect(visit.getByText(zhCN['batchAuth.boundDone'].slice(0, 6))).toBeVisible();
  await visitor.close();

  // Both accounts are the merchant's; the link counted one use.
  await page.reload();
  await expect(page.getByText(second.nickname, { exact: true })).toBeVisible();
  await expect(page.getByText(first.nickname, { exact: true })).toBeVisible();
  const after = await apiCall<{ list: { uses: number }[] }>(
    request,
    'GET',
    '/matrix/batch_link_list',
    { token },
  );
  expect(after.data.list[0].uses).toBe(1);
  await context.close();
});
