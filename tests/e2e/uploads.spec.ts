/**
 * Uploads from /creation/resource against the real server (tus on the local disk, the content
 * checks of `POST /resource/add`), as the demo merchant: a small generated MP4 with its progress
 * to done; a larger one paused and resumed; one interrupted by a page reload and resumed from the
 * server's offset once the same file is chosen again; a text file named .mp4 refused with the
 * server's localised reason (zh-CN, the default; one test in en-US).
 *
 * Timing comes from Chromium's network emulation (uploads throttled through CDP), not sleeps:
 * each step waits for what the page shows (a percent above a mark, a status text).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  apiLogin,
  enUS,
  expect,
  fill,
  seriousViolations,
  storeToken,
  test,
  zhCN,
} from './fixtures';
import { makeClip, mediaDir } from './media';

let dir = '';
/** A 2 s 720p MP4 (ffmpeg, ultrafast). */
let small = '';
/** The same video followed by a 40 MB `free` box: still a valid MP4, big enough to pause. */
let big = '';
/** Text with an .mp4 name. */
let fake = '';
const BIG_PADDING = 40 * 1024 * 1024;

test.beforeAll(() => {
  dir = mediaDir('uploads');
  small = makeClip(path.join(dir, 'small.mp4'));
  const video = readFileSync(small);
  const box = Buffer.alloc(BIG_PADDING);
  box.writeUInt32BE(BIG_PADDING, 0);
  box.write('free', 4, 'latin1');
  big = path.join(dir, 'big.mp4');
  writeFileSync(big, Buffer.concat([video, box]));
  fake = path.join(dir, 'notes.mp4');
  writeFileSync(fake, 'These are meeting notes, not a video.\n'.repeat(50));
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Catalogue = typeof zhCN;

/** Signs the merchant in (API) and opens the resource page in `locale`. */
async function openResources(page: Page, locale: 'zh-CN' | 'en-US' = 'zh-CN') {
  const token = await apiLogin(page.request, 'merchant');
  await storeToken(page, token, locale);
  await page.goto('/creation/resource');
}

/** Uploads at most `bytesPerSecond` (Chromium's network emulation). */
async function throttle(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

function choose(page: Page, t: Catalogue, files: string | string[]) {
  return page.getByLabel(t['uploads.chooseFiles'], { exact: true }).setInputFiles(files);
}

/** The queue's row of a file. */
const row = (page: Page, name: string) => page.getByTestId('upload-item').filter({ hasText: name });
const bar = (item: Locator, t: Catalogue, name: string) =>
  item.getByRole('progressbar', { name: fill(t['uploads.progressOf'], { name }) });
const percentOf = async (item: Locator, t: Catalogue, name: string) =>
  Number(await bar(item, t, name).getAttribute('aria-valuenow'));

/** Waits until the row's bar shows more than `percent`. */
async function beyond(item: Locator, t: Catalogue, name: string, percent: number) {
  await expect.poll(() => percentOf(item, t, name), { timeout: 60_000 }).toBeGreaterThan(percent);
}

test('a small video uploads with its progress shown and becomes a resource (zh-CN)', async ({
  page,
}) => {
  await openResources(page);
  // Slow enough to see the bar move: about 1 s for the file.
  await throttle(page, 256 * 1024);
  await page.getByRole('combobox', { name: zhCN['uploads.type'] }).selectOption('video');
  const added = page.waitForResponse((r) => r.url().includes('/resource/add'));
  await choose(page, zhCN, small);
  const item = row(page, 'small.mp4');
  await expect(bar(item, zhCN, 'small.mp4')).toBeVisible();
  await expect(item.getByRole('status')).toHaveText(zhCN['uploads.done'], { timeout: 30_000 });
  const reply = (await (await added).json()) as {
    code: number;
    data: { name: string; width: number };
  };
  expect(reply.code).toBe(1);
  expect([reply.data.name, reply.data.width]).toEqual(['small.mp4', 1280]);
  // The quota counts it.
  await expect(page.getByTestId('upload-quota')).toContainText('已用存储');
});

test('a larger upload is paused and resumed, and finishes (zh-CN)', async ({ page }) => {
  test.setTimeout(120_000);
  await openResources(page);
  await throttle(page, 4 * 1024 * 1024);
  await choose(page, zhCN, big);
  const item = row(page, 'big.mp4');
  await beyond(item, zhCN, 'big.mp4', 10);
  await item
    .getByRole('button', { name: fill(zhCN['uploads.pause'], { name: 'big.mp4' }) })
    .click();
  await expect(item.getByRole('status')).toContainText('已暂停');
  const paused = await percentOf(item, zhCN, 'big.mp4');
  expect(paused).toBeGreaterThan(10);
  // Paused: nothing is sent (the percent stays while another file's upload could run).
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/upload/tus')) patches.push(r.method());
  });
  await expect(
    item.getByRole('button', { name: fill(zhCN['uploads.resume'], { name: 'big.mp4' }) }),
  ).toBeVisible();
  expect(patches).toEqual([]);
  await item
    .getByRole('button', { name: fill(zhCN['uploads.resume'], { name: 'big.mp4' }) })
    .click();
  // It continues from the server's offset (HEAD), never creating the upload again (POST).
  await expect(item.getByRole('status')).toHaveText(zhCN['uploads.done'], { timeout: 90_000 });
  expect(patches[0]).toBe('HEAD');
  expect(patches).not.toContain('POST');
});

test('an upload interrupted by a reload resumes once the same file is chosen again (zh-CN)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openResources(page);
  await throttle(page, 4 * 1024 * 1024);
  await choose(page, zhCN, big);
  const before = row(page, 'big.mp4');
  await beyond(before, zhCN, 'big.mp4', 10);
  await page.reload();
  const item = row(page, 'big.mp4');
  await expect(item.getByText(zhCN['uploads.chooseAgainHint'])).toBeVisible();
  const kept = await percentOf(item, zhCN, 'big.mp4');
  expect(kept).toBeGreaterThan(0);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/upload/tus')) requests.push(r.method());
  });

  // The button opens a picker; the test hands the file to it directly.
  await expect(
    item.getByRole('button', { name: fill(zhCN['uploads.chooseAgain'], { name: 'big.mp4' }) }),
  ).toBeVisible();
  await item
    .getByLabel(fill(zhCN['uploads.chooseAgainFile'], { name: 'big.mp4' }), { exact: true })
    .setInputFiles(big);
  await expect(item.getByRole('status')).toHaveText(zhCN['uploads.done'], { timeout: 90_000 });
  // Resumed from the server's offset: asked (HEAD), not created again (POST).
  expect(requests[0]).toBe('HEAD');
  expect(requests).not.toContain('POST');
});

test('a text file named .mp4 is refused with the server’s reason (zh-CN)', async ({ page }) => {
  await openResources(page);
  await choose(page, zhCN, fake);
  const item = row(page, 'notes.mp4');
  const alert = item.getByRole('alert');
  await expect(alert).toContainText('未通过：文件', { timeout: 30_000 });
  await expect(alert).not.toContainText('upload.');
  // Final: no retry, only taking it off the list.
  await expect(item.getByRole('button')).toHaveCount(1);
  await expect(
    item.getByRole('button', { name: fill(zhCN['uploads.remove'], { name: 'notes.mp4' }) }),
  ).toBeVisible();
});

test('in en-US: an upload and a refusal speak English', async ({ page }) => {
  await openResources(page, 'en-US');
  await page.getByRole('combobox', { name: enUS['uploads.type'] }).selectOption('video');
  await choose(page, enUS, [small, fake]);
  await expect(row(page, 'small.mp4').getByRole('status')).toHaveText(enUS['uploads.done'], {
    timeout: 30_000,
  });
  await expect(row(page, 'notes.mp4').getByRole('alert')).toContainText('Not accepted: The file', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('upload-quota')).toContainText('Storage used:');
  // The drop zone, the queue's rows and their buttons pass axe (names include what they show).
  expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);
});
