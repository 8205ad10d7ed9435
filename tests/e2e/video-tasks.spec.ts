/**
 * Video tasks against the real server, renderer and queue (browser tests): a
 * merchant uploads three short clips through the library, builds a mixed-cut of count 3 in the
 * create drawer (live estimate first), watches its progress move without reloading, plays an
 * output, and retries the one that failed: the stored copy of one clip is broken on disk after
 * its upload (the server checked it then), so the output using it fails with a reason; with the
 * copy mended, "Retry failed" makes it. In en-US the clip editor makes a trimmed video with a
 * title, while the work bench, kept in a tab, follows the balance (the price frozen and settled,
 * no reload). Renders are 2 s at 720p (the e2e server renders with `ultrafast`).
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  dataDir,
  enUS,
  expect,
  fill,
  seriousViolations,
  storeToken,
  test,
  zhCN,
} from './fixtures';
import { makeClip, mediaDir, searchPicker, uploadToLibrary } from './media';
import { DEFAULT_LAYOUT, openInApp, tab } from './shell-fixtures';

type Catalogue = typeof zhCN;

let dir = '';
test.beforeAll(() => {
  dir = mediaDir('video-tasks');
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The server's stored copy of an uploaded file (local disk storage under the data dir). */
function storedCopyOf(file: string): string {
  const bytes = readFileSync(file);
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? walk(full) : [full];
    });
  const copies = walk(path.join(dataDir(), 'files')).filter(
    (f) => statSync(f).size === bytes.length && readFileSync(f).equals(bytes),
  );
  expect(copies, `one stored copy of ${path.basename(file)}`).toHaveLength(1);
  return copies[0]!;
}

/** Plays a video element muted and answers its length once it has played a little. */
async function playFor(player: Locator): Promise<number> {
  await player.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.2);
  return player.evaluate((v: HTMLVideoElement) => v.duration);
}

async function pick(page: Page, t: Catalogue, title: string, keyword: string, names: string[]) {
  const picker = page.getByRole('dialog', { name: title });
  await searchPicker(picker, t, keyword, names.length);
  for (const name of names) {
    await picker
      .getByRole('checkbox', { name: fill(t['resources.select'], { name }) })
      .check({ force: true });
  }
  await picker.getByRole('button', { name: t['taskForm.pickConfirm'] }).click();
  await expect(picker).toBeHidden();
}

const outputs = (drawer: Locator) => drawer.getByTestId('task-output');
const statusesOf = (drawer: Locator) =>
  outputs(drawer).getByTestId('output-status').allInnerTexts();

test('a mixed-cut of 3 from three uploaded clips: estimate, progress, play, a failed output retried (zh-CN)', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const t = zhCN;
  const tag = `v${info.workerIndex}${Date.now().toString(36)}`;
  const names = ['a', 'b', 'c'].map((n) => `${tag}-${n}.mp4`);
  // Three different clips (different bytes: the broken one is found by its content).
  const files = [
    makeClip(path.join(dir, names[0]!), { source: 'testsrc2', audio: true }),
    makeClip(path.join(dir, names[1]!), { source: 'smptebars' }),
    makeClip(path.join(dir, names[2]!), { source: 'rgbtestsrc', size: '640x360' }),
  ];
  await storeToken(page, await apiLogin(page.request, 'merchant'), 'zh-CN');
  await uploadToLibrary(page, t, 'video', files);

  // The server checked clip c at its upload; its stored copy breaks now.
  const stored = storedCopyOf(files[2]!);
  const good = readFileSync(stored);
  writeFileSync(stored, Buffer.from('not a video any more\n'.repeat(200)));

  await page.goto('/creation/mixed-task');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.mixedTask']);
  await page.getByRole('button', { name: t['videoTasks.newMixed'] }).click();
  const form = page.getByRole('dialog', { name: t['taskForm.mixedTitle'] });
  await form.getByRole('textbox', { name: t['taskForm.name'] }).fill(tag);
  await form.getByRole('button', { name: fill(t['taskForm.pickShots'], { n: 1 }) }).click();
  await pick(page, t, t['taskForm.pickerTitleMany'], tag, names);
  await expect(
    form
      .getByRole('list', { name: fill(t['taskForm.groupShots'], { n: 1 }) })
      .getByRole('listitem'),
  ).toHaveCount(3);
  // The live estimate: 3 combinations, 3 videos, 0.10 each.
  const estimate = form.getByRole('region', { name: t['taskForm.estimate'] });
  await expect(estimate).toContainText(t['taskForm.combinations']);
  await expect(estimate).toContainText('0.30');
  await form.getByRole('button', { name: t['taskForm.submit'] }).click();
  await expect(form).toBeHidden();

  // The new task's drawer opens; its outputs stream in without a reload.
  const drawer = page.getByTestId('task-drawer');
  await expect(drawer.getByRole('heading', { name: tag })).toBeVisible();
  await expect(outputs(drawer)).toHaveCount(3);
  await expect
    .poll(async () => (await statusesOf(drawer)).sort(), { timeout: 120_000 })
    .toEqual(
      [t['videoTasks.outputDone'], t['videoTasks.outputDone'], t['videoTasks.outputFailed']].sort(),
    );
  const failed = outputs(drawer).filter({ hasText: t['videoTasks.outputFailed'] });
  await expect(failed.getByTestId('output-reason')).not.toBeEmpty();
  await expect(failed.getByTestId('output-combination')).toContainText(names[2]!);

  // A done output plays: a 2 s H.264 video the browser decodes.
  const done = outputs(drawer).filter({ hasText: t['videoTasks.outputDone'] }).first();
  const length = await playFor(done.locator('video'));
  expect(Math.abs(length - 2)).toBeLessThan(0.2);

  // Behind the drawer, the list row followed by itself: 2 of 3 done, 1 failed, partly done.
  await drawer.getByRole('button', { name: t['form.close'] }).click();
  await expect(drawer).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: tag });
  await expect(row.getByTestId('task-status')).toHaveText(t['videoTasks.statusPartlyDone']);
  await expect(row).toContainText(fill(t['videoTasks.doneOfTotal'], { done: 2, total: 3 }));
  await row.getByRole('button', { name: fill(t['videoTasks.detailOf'], { name: tag }) }).click();
  await expect(drawer.getByRole('heading', { name: tag })).toBeVisible();

  // Mend the copy, then retry the failed one only.
  writeFileSync(stored, good);
  await drawer.getByRole('button', { name: t['videoTasks.retryFailed'] }).click();
  const confirm = page
    .getByRole('alertdialog')
    .or(page.getByRole('dialog'))
    .filter({
      hasText: fill(t['videoTasks.retryTitle'], { name: tag }),
    });
  await confirm.getByRole('button', { name: t['videoTasks.retry'], exact: true }).click();
  await expect
    .poll(() => statusesOf(drawer), { timeout: 90_000 })
    .toEqual([t['videoTasks.outputDone'], t['videoTasks.outputDone'], t['videoTasks.outputDone']]);
  await drawer.getByRole('button', { name: t['form.close'] }).click();
  await expect(row.getByTestId('task-status')).toHaveText(t['videoTasks.statusDone']);
  await expect(row).toContainText(fill(t['videoTasks.doneOfTotal'], { done: 3, total: 3 }));

  // The bell tells of both finishes (docs/domain.md §18), partly done then done, and so does
  // the title; following the newer leads back to the task's drawer and reads it.
  const bell = page.getByRole('button', { name: /^通知，\d+ 条未读$/ });
  await expect(bell).toBeVisible({ timeout: 35_000 });
  await expect(page).toHaveTitle(/^\(\d+\) /);
  await bell.click();
  const panel = page.getByTestId('notification-drawer');
  await expect(
    panel.getByRole('link', {
      name: `未读: 视频任务“${tag}”部分完成：3 个视频中 2 个已生成，1 个失败（已退款）`,
    }),
  ).toBeVisible();
  const news = panel.getByRole('link', { name: `未读: 视频任务“${tag}”已完成：3 个视频已生成` });
  expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);
  await news.click();
  await expect(panel).toBeHidden();
  await expect(drawer.getByRole('heading', { name: tag })).toBeVisible();
  await drawer.getByRole('button', { name: t['form.close'] }).click();
  await bell.click();
  await expect(
    panel.getByRole('link', { name: `视频任务“${tag}”已完成：3 个视频已生成` }),
  ).toBeVisible();
});

test('the clip editor makes a trimmed video with a title (en-US)', async ({ page }, info) => {
  test.setTimeout(180_000);
  const t = enUS;
  const tag = `k${info.workerIndex}${Date.now().toString(36)}`;
  const name = `${tag}.mp4`;
  const file = makeClip(path.join(dir, name), {
    source: 'testsrc2',
    size: '1280x720',
    audio: true,
  });
  const token = await apiLogin(page.request, 'merchant');
  await storeToken(page, token, 'en-US');
  // With the tab bar, the work bench stays open (kept alive) behind the editor's tab.
  await page.evaluate((layout) => localStorage.setItem('layoutSettings', JSON.stringify(layout)), {
    ...DEFAULT_LAYOUT,
    tabBar: true,
  });
  const money = async () =>
    (await apiCall<{ money: string }>(page.request, 'GET', '/platform/get_account', { token })).data
      .money;
  await uploadToLibrary(page, t, 'video', [file]);
  await page.goto('/dashboard/workBench');
  const balance = page.getByTestId('balance-money');
  const before = await money();
  await expect(balance).toHaveText(before);

  await openInApp(page, '/creation/mixedshear');
  const editor = page.getByRole('region', { name: t['route.mixedshear'] });
  await editor.getByRole('button', { name: t['clipEditor.pickVideo'] }).click();
  await pick(page, t, t['taskForm.pickerTitleOne'], tag, [name]);
  await expect(editor.getByRole('textbox', { name: t['clipEditor.end'] })).toHaveValue('2');
  await editor.getByRole('textbox', { name: t['clipEditor.start'] }).fill('0.5');
  await editor.getByRole('textbox', { name: t['clipEditor.end'] }).fill('1.5');
  await editor.getByRole('button', { name: fill(t['taskForm.addTitle'], { max: 5 }) }).click();
  await editor
    .getByRole('textbox', { name: fill(t['taskForm.titleText'], { n: 1 }) })
    .fill('夏日 Summer');
  await editor.getByRole('textbox', { name: t['taskForm.name'] }).fill(tag);
  await expect(editor.getByRole('region', { name: t['taskForm.estimate'] })).toContainText('0.10');
  await editor.getByRole('button', { name: t['clipEditor.submit'] }).click();

  // To the clip list, the new task's drawer open; one output, 1 s long, done.
  await expect(page).toHaveURL(/\/creation\/clip$/);
  const drawer = page.getByTestId('task-drawer');
  await expect(drawer.getByRole('heading', { name: tag })).toBeVisible();
  await expect
    .poll(() => statusesOf(drawer), { timeout: 90_000 })
    .toEqual([t['videoTasks.outputDone']]);
  const length = await playFor(outputs(drawer).first().locator('video'));
  expect(Math.abs(length - 1)).toBeLessThan(0.2);
  const download = outputs(drawer)
    .first()
    .getByRole('link', { name: fill(t['videoTasks.downloadOf'], { index: 1, name: tag }) });
  const href = await download.getAttribute('href');
  const reply = await page.request.get(href!);
  expect(reply.status()).toBe(200);
  expect(reply.headers()['content-type']).toBe('video/mp4');

  // The work bench's tab, never reloaded by the browser, shows the balance less the task's price.
  const after = await money();
  expect(after).not.toBe(before);
  await drawer.getByRole('button', { name: t['form.close'] }).click();
  await expect(drawer).toBeHidden();
  await tab(page, t['route.workBench'], t).click();
  await expect(balance).toHaveText(after);
});
