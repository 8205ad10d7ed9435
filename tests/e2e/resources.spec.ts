/**
 * The resource library (/creation/resource) against the real server, as the demo
 * merchant: a small image and a 2 s 720p MP4 (made with ffmpeg in a temp dir) uploaded through the
 * page, then seen in the grid with their poster and duration; filters by type and keyword; the
 * preview plays (the signed URL answers 206 to a Range request); rename; a new group, a move into
 * it, the group filter; multi-select delete; deleting a group moves its resources to "ungrouped";
 * one test in en-US. Each test uploads files named after itself, so tests share the data dir
 * without seeing each other's resources (the keyword filter narrows the grid to its own).
 */
import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
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
import { makeClip, makeImage, mediaDir, uploadFiles } from './media';

type Catalogue = typeof zhCN;

let dir = '';
let video = '';
let image = '';

test.beforeAll(() => {
  dir = mediaDir('resources');
  video = makeClip(path.join(dir, 'clip.mp4'));
  image = makeImage(path.join(dir, 'logo.png'));
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of `file` named `<tag>-<base>` (the resource's name), tag unique per test. */
function named(file: string, tag: string): { file: string; name: string } {
  const name = `${tag}-${path.basename(file)}`;
  const copy = path.join(dir, name);
  copyFileSync(file, copy);
  return { file: copy, name };
}

const tagOf = (info: TestInfo) => `t${info.workerIndex}${Date.now().toString(36)}`;

async function openResources(page: Page, locale: 'zh-CN' | 'en-US' = 'zh-CN') {
  const token = await apiLogin(page.request, 'merchant');
  await storeToken(page, token, locale);
  await page.goto('/creation/resource');
  const t = locale === 'zh-CN' ? zhCN : enUS;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.resource']);
}

const upload = (page: Page, t: Catalogue, type: 'video' | 'image', files: string[]) =>
  uploadFiles(page, t, type, files);

const grid = (page: Page, t: Catalogue) => page.getByRole('list', { name: t['resources.list'] });
const card = (page: Page, t: Catalogue, name: string) =>
  grid(page, t).getByRole('listitem').filter({ hasText: name });

/** Applies the filter bar's type and keyword (Search). */
async function filter(page: Page, t: Catalogue, type: string, keyword: string) {
  const bar = page.getByRole('search', { name: t['resources.filters'] });
  await bar.getByRole('combobox', { name: t['resources.type'], exact: true }).selectOption(type);
  await bar.getByRole('textbox', { name: t['resources.keyword'], exact: true }).fill(keyword);
  await bar.getByRole('button', { name: t['filter.search'], exact: true }).click();
}

const groupsNav = (page: Page, t: Catalogue) =>
  page.getByRole('navigation', { name: t['resources.groups'] });

test('uploaded image and video show in the grid with poster and duration; filters by type and keyword (zh-CN)', async ({
  page,
}, info) => {
  const tag = tagOf(info);
  const clip = named(video, tag);
  const logo = named(image, tag);
  await openResources(page);
  await upload(page, zhCN, 'video', [clip.file]);
  await upload(page, zhCN, 'image', [logo.file]);
  await filter(page, zhCN, '', tag);
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(2);
  const clipCard = card(page, zhCN, clip.name);
  await expect(clipCard.getByTestId('duration')).toHaveText('00:02');
  await expect(clipCard).toContainText(zhCN['uploads.typeVideo']);
  // The poster is a real image the browser decoded.
  const poster = clipCard.locator('img');
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(card(page, zhCN, logo.name)).toContainText(zhCN['uploads.typeImage']);
  await expect(card(page, zhCN, logo.name).getByTestId('duration')).toHaveCount(0);
  // axe on the filled grid (the pass over every page sees an empty library).
  expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);

  await filter(page, zhCN, 'video', tag);
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(1);
  await expect(card(page, zhCN, clip.name)).toBeVisible();
  await filter(page, zhCN, 'image', tag);
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(1);
  await expect(card(page, zhCN, logo.name)).toBeVisible();
  await filter(page, zhCN, '', `${tag}-nothing`);
  await expect(page.getByTestId('resource-empty')).toContainText(zhCN['resources.noMatch']);
});

test('the preview plays the video from a signed URL that answers Range requests (zh-CN)', async ({
  page,
}, info) => {
  const tag = tagOf(info);
  const clip = named(video, tag);
  await openResources(page);
  await upload(page, zhCN, 'video', [clip.file]);
  await filter(page, zhCN, '', tag);
  await card(page, zhCN, clip.name)
    .getByRole('button', { name: fill(zhCN['resources.preview'], { name: clip.name }) })
    .click();
  const dialog = page.getByRole('dialog', { name: clip.name });
  const player = dialog.locator('video');
  await expect(player).toHaveAttribute('controls', '');
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThan(0);
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.duration))
    .toBeGreaterThan(1.5);
  const src = await player.getAttribute('src');
  expect(src).toMatch(/sig=/);
  const part = await page.request.get(src!, { headers: { Range: 'bytes=0-99' } });
  expect(part.status()).toBe(206);
  expect((await part.body()).length).toBe(100);
  expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);
  await dialog.getByRole('button', { name: zhCN['form.close'] }).click();
  await expect(dialog).toBeHidden();
});

test('rename, a new group, move into it, filter by group; deleting the group moves it to ungrouped (zh-CN)', async ({
  page,
}, info) => {
  const tag = tagOf(info);
  const logo = named(image, tag);
  const group = `${tag}g`.slice(0, 20);
  await openResources(page);
  await upload(page, zhCN, 'image', [logo.file]);
  await filter(page, zhCN, '', tag);

  await card(page, zhCN, logo.name)
    .getByRole('button', { name: fill(zhCN['resources.rename'], { name: logo.name }) })
    .click();
  const renamed = `${tag}-brand logo`;
  const rename = page.getByRole('dialog');
  await rename.getByRole('textbox', { name: zhCN['resources.name'] }).fill(renamed);
  await rename.getByRole('button', { name: zhCN['form.save'], exact: true }).click();
  await expect(rename).toBeHidden();
  await expect(card(page, zhCN, renamed)).toBeVisible();

  await groupsNav(page, zhCN).getByRole('button', { name: zhCN['resources.newGroup'] }).click();
  const add = page.getByRole('dialog');
  await add.getByRole('textbox', { name: zhCN['resources.groupName'] }).fill(group);
  await add.getByRole('button', { name: zhCN['resources.create'], exact: true }).click();
  await expect(add).toBeHidden();
  const groupButton = groupsNav(page, zhCN).getByRole('button', {
    name: fill(zhCN['resources.groupWithCount'], { name: group, count: 0 }),
  });
  await expect(groupButton).toBeVisible();

  await card(page, zhCN, renamed)
    .getByRole('button', { name: fill(zhCN['resources.move'], { name: renamed }) })
    .click();
  const move = page.getByRole('dialog');
  await move
    .getByRole('combobox', { name: zhCN['resources.group'] })
    .selectOption({ label: group });
  await move.getByRole('button', { name: zhCN['resources.moveSubmit'], exact: true }).click();
  await expect(move).toBeHidden();
  const withOne = groupsNav(page, zhCN).getByRole('button', {
    name: fill(zhCN['resources.groupWithCount'], { name: group, count: 1 }),
  });
  await expect(withOne).toBeVisible();
  await withOne.click();
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(1);
  await expect(card(page, zhCN, renamed)).toBeVisible();

  await groupsNav(page, zhCN)
    .getByRole('button', { name: fill(zhCN['resources.deleteGroup'], { name: group }) })
    .click();
  const remove = page.getByRole('dialog');
  await expect(remove).toContainText('未分组');
  await remove.getByRole('button', { name: zhCN['resources.delete'], exact: true }).click();
  await expect(remove).toBeHidden();
  // The list follows the resource to "ungrouped".
  await expect(
    groupsNav(page, zhCN).getByRole('button', {
      name: new RegExp(`^${zhCN['resources.ungrouped']}`),
    }),
  ).toHaveAttribute('aria-current', 'true');
  await expect(card(page, zhCN, renamed)).toBeVisible();
  await expect(groupsNav(page, zhCN).getByText(group)).toHaveCount(0);
});

test('multi-select delete asks first, then the resources are gone (zh-CN)', async ({
  page,
}, info) => {
  const tag = tagOf(info);
  const one = named(image, `${tag}a`);
  const two = named(image, `${tag}b`);
  const keep = named(image, `${tag}c`);
  await openResources(page);
  await upload(page, zhCN, 'image', [one.file, two.file, keep.file]);
  await filter(page, zhCN, '', tag);
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(3);
  for (const r of [one, two]) {
    await page
      .getByRole('checkbox', { name: fill(zhCN['resources.select'], { name: r.name }) })
      // The hidden input under Chakra's control, as the cards page's row checkboxes.
      .check({ force: true });
  }
  await page
    .getByRole('button', { name: fill(zhCN['resources.deleteSelected'], { count: 2 }) })
    .click();
  const confirm = page.getByRole('dialog', { name: zhCN['resources.deleteTitle'] });
  await expect(confirm).toContainText(fill(zhCN['resources.deleteManyWhat'], { count: 2 }));
  await confirm.getByRole('button', { name: zhCN['resources.delete'], exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(1);
  await expect(card(page, zhCN, keep.name)).toBeVisible();
  // Gone on the server too.
  await page.reload();
  await filter(page, zhCN, '', tag);
  await expect(grid(page, zhCN).getByRole('listitem')).toHaveCount(1);
});

test('in en-US: upload, rename and delete speak English', async ({ page }, info) => {
  const tag = tagOf(info);
  const logo = named(image, tag);
  await openResources(page, 'en-US');
  await upload(page, enUS, 'image', [logo.file]);
  await filter(page, enUS, 'image', tag);
  const it = card(page, enUS, logo.name);
  await expect(it).toContainText('Image');
  await it.getByRole('button', { name: `Rename ${logo.name}` }).click();
  const rename = page.getByRole('dialog', { name: `Rename “${logo.name}”` });
  await rename.getByRole('textbox', { name: 'Name' }).fill(`${tag} renamed`);
  await rename.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card(page, enUS, `${tag} renamed`)).toBeVisible();
  await page.getByRole('button', { name: `Delete ${tag} renamed` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete resources' });
  await expect(confirm).toContainText(`Delete “${tag} renamed”?`);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('resource-empty')).toContainText(
    'No resources match these filters.',
  );
});
