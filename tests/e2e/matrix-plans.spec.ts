/**
 * A release plan against the real server and its embedded sandbox platform (docs/domain.md §20),
 * in en-US: the demo merchant binds two more sandbox test accounts (the 3rd and the 4th: the
 * matrix spec binds the first two), makes a plan of two library videos for both over two days
 * (4 posts), publishes its posts now from the plan's detail; they go under review, then, once
 * the sandbox's clock has moved past the review, published with their share links. The second
 * account then fails once at the platform (2113001): the detail says why with the platform's
 * code, "Retry" publishes it. The servers run the review poll every second
 * (`MATRIX_REVIEW_POLL_MS`, playwright.config.ts); the dispatcher runs every second.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiLogin, contextWithToken, enUS, expect, fill, heading1, test } from './fixtures';

interface SandboxAccount {
  open_id: string;
  nickname: string;
}

const sandbox = (request: APIRequestContext, path: string, data: object) =>
  request.post(`/sandbox-platform/__control/${path}`, { data });

/** Binds a sandbox account through the platform's page ("授权" beside its name). */
async function bind(page: Page, account: SandboxAccount) {
  await page.goto('/matrix-distribution/authorization');
  await page.getByRole('button', { name: enUS['matrix.bindAccount'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: enUS['matrix.bindTitle'] });
  await dialog.getByRole('button', { name: enUS['matrix.bindSubmit'], exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: '授权登录' })).toBeVisible();
  await page
    .getByRole('listitem')
    .filter({ hasText: account.nickname })
    .getByRole('button', { name: '授权' })
    .click();
  await page.waitForURL((url) => url.pathname === '/matrix-distribution/authorization');
  await expect(page.getByText(enUS['matrix.bound'])).toBeVisible();
}

/**
 * Ticks a checkbox (a Chakra one: its input is hidden under the drawn box, the picker's under a
 * poster), again while a list that loads anew may replace it.
 */
const tick = (box: Locator) =>
  expect(async () => {
    if (!(await box.isChecked())) await box.dispatchEvent('click');
    await expect(box).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });

const DAY_MS = 24 * 3600_000;
const shanghaiDay = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);

test('a release plan: preview, save, publish now, under review, published; a refusal, retried', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const reply = await request.get('/sandbox-platform/__control/accounts');
  expect(reply.ok()).toBe(true);
  const [one, two] = ((await reply.json()) as { list: SandboxAccount[] }).list.slice(2, 4);
  const token = await apiLogin(request, 'merchant');
  const context = await contextWithToken(browser, baseURL!, token, 'en-US');
  const page = await context.newPage();
  await bind(page, one);
  await bind(page, two);

  // The plan: both accounts, two library videos, a title, tomorrow and the day after (Shanghai),
  // 09:00 only, one post a day: 2 accounts × 2 days.
  await page.goto('/matrix-distribution/release-plan');
  await expect(heading1(page)).toHaveText(enUS['route.releasePlan']);
  const name = `Plan ${Date.now().toString(36)}`;
  const title = 'Sandbox launch';
  await page.getByRole('button', { name: enUS['matrixPlans.new'], exact: true }).click();
  const form = page.getByTestId('plan-form');
  await form.getByRole('textbox', { name: enUS['matrixPlans.name'] }).fill(name);
  await tick(form.getByRole('checkbox', { name: one.nickname, exact: true }));
  await tick(form.getByRole('checkbox', { name: two.nickname, exact: true }));
  await form.getByRole('button', { name: enUS['matrixPlans.pickVideos'], exact: true }).click();
  const picker = page.getByTestId('resource-picker');
  const videos = picker.getByRole('checkbox', { name: /^Select / });
  await expect(videos.nth(1)).toBeVisible({ timeout: 15_000 });
  await tick(videos.nth(0));
  await tick(videos.nth(1));
  await picker.getByRole('button', { name: enUS['taskForm.pickConfirm'], exact: true }).click();
  await form
    .getByRole('textbox', { name: enUS['matrixPlans.titleInput'], exact: true })
    .fill(title);
  await form.getByRole('button', { name: enUS['matrixPlans.addTitle'], exact: true }).click();
  const now = Date.now();
  for (const [field, day] of [
    ['matrixPlans.startDate', shanghaiDay(now + DAY_MS)],
    ['matrixPlans.endDate', shanghaiDay(now + 2 * DAY_MS)],
  ] as const) {
    const box = form.getByRole('textbox', { name: enUS[field], exact: true });
    await box.fill(day);
    await box.press('Enter');
    await expect(box).toHaveValue(day);
  }
  await form
    .getByRole('button', { name: fill(enUS['matrixPlans.removeSlot'], { slot: '18:00' }) })
    .click();
  await form.getByRole('textbox', { name: enUS['matrixPlans.dailyMax'] }).fill('1');
  await form.getByRole('button', { name: enUS['matrixPlans.preview'], exact: true }).click();
  const preview = form.getByRole('region', { name: enUS['matrixPlans.previewTitle'] });
  await expect(preview).toContainText(
    fill(enUS['matrixPlans.previewSummary'], { total: 4 }).split(',')[0],
  );
  await expect(
    preview.getByRole('table', { name: enUS['matrixPlans.previewFirst'] }).locator('tbody tr'),
  ).toHaveCount(4);
  await form.getByRole('button', { name: enUS['matrixPlans.save'], exact: true }).click();
  await expect(form).toBeHidden();

  // The detail: four waiting posts; each account's are published now.
  await page.getByRole('button', { name: fill(enUS['matrixPlans.postsOf'], { name }) }).click();
  const detail = page.getByTestId('plan-detail');
  const table = detail.getByRole('table', { name: enUS['matrixPlans.postList'] });
  const rowsOf = (account: SandboxAccount) =>
    table.getByRole('row').filter({ hasText: account.nickname });
  await expect(rowsOf(one)).toHaveCount(2);
  await expect(rowsOf(two)).toHaveCount(2);
  const publishNow = async (row: Locator, account: SandboxAccount) => {
    await row
      .getByRole('button', {
        name: fill(enUS['matrixPlans.publishNowOf'], { name: `${account.nickname} · ${title}` }),
      })
      .click();
    await expect(detail.getByText(enUS['matrixPlans.publishQueued'])).toBeVisible();
    await detail.getByRole('button', { name: enUS['matrix.dismiss'] }).click();
  };
  /** Asks for the posts again until the row shows the status. */
  const refreshUntil = async (rows: Locator, status: string, count: number) =>
    expect(async () => {
      await detail.getByRole('button', { name: enUS['matrixPlans.refreshPosts'] }).click();
      await expect(rows.filter({ hasText: status })).toHaveCount(count, { timeout: 1_000 });
    }).toPass({ timeout: 15_000, intervals: [250, 500, 1_000] });
  const settleReviews = async (rows: Locator, count: number) => {
    await refreshUntil(rows, enUS['matrixPlans.postUnderReview'], count);
    // The sandbox's review lasts a minute of its time: its clock moves past it.
    expect((await sandbox(request, 'clock', { advance_seconds: 120 })).ok()).toBe(true);
    await refreshUntil(rows, enUS['matrixPlans.postPublished'], count);
  };
  await publishNow(rowsOf(one).nth(0), one);
  await publishNow(rowsOf(one).nth(1), one);
  await settleReviews(rowsOf(one), 2);
  for (let i = 0; i < 2; i += 1) {
    await expect(
      rowsOf(one)
        .nth(i)
        .getByRole('link', { name: fill(enUS['matrixPlans.openPostOf'], { title }) }),
    ).toHaveAttribute('href', /^https?:\/\//);
  }

  // The second account: the platform refuses its next call once (content rejected).
  expect(
    (await sandbox(request, 'fail', { open_id: two.open_id, code: 2113001, times: 1 })).ok(),
  ).toBe(true);
  const refused = rowsOf(two).nth(0);
  await publishNow(refused, two);
  await refreshUntil(rowsOf(two), enUS['matrixPlans.postFailed'], 1);
  const failed = rowsOf(two).filter({ hasText: enUS['matrixPlans.postFailed'] });
  // The console's words for the reason (the server's, in the caller's language), the platform's code.
  await expect(failed.getByTestId('post-reason')).toContainText(
    'The platform refused the video or its text',
  );
  await expect(failed.getByTestId('post-reason')).toContainText('2113001');
  await failed
    .getByRole('button', {
      name: fill(enUS['matrixPlans.retryOf'], { name: `${two.nickname} · ${title}` }),
    })
    .click();
  await expect(detail.getByText(enUS['matrixPlans.retryQueued'])).toBeVisible();
  await detail.getByRole('button', { name: enUS['matrix.dismiss'] }).click();
  // Its last post goes with it (the refusal was used up), once the retried one has left waiting.
  await refreshUntil(rowsOf(two), enUS['matrixPlans.postUnderReview'], 1);
  await publishNow(rowsOf(two).filter({ hasText: enUS['matrixPlans.postWaiting'] }), two);
  await settleReviews(rowsOf(two), 2);
  await expect(
    rowsOf(two).getByRole('link', { name: fill(enUS['matrixPlans.openPostOf'], { title }) }),
  ).toHaveCount(2);
  await expect(table.getByText(enUS['matrixPlans.postFailed'])).toHaveCount(0);
  await context.close();
});
