/**
 * Real media for the browser tests, made with ffmpeg in a temp dir (nothing padded or faked):
 * short H.264 clips and still images the upload and creation specs send through the page, and
 * the library's drop zone that takes them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { apiLogin, enUS, expect, storeToken, test, zhCN } from './fixtures';

/** A fresh temp dir for one spec file's media. */
export function mediaDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `e2e-${prefix}-`));
}

/**
 * A spec file's media dir, made before its tests and removed after them; the function returns
 * the path of a file in it (call it inside tests, once the dir exists).
 */
export function specMediaDir(prefix: string): (name: string) => string {
  let dir = '';
  test.beforeAll(() => {
    dir = mediaDir(prefix);
  });
  test.afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => path.join(dir, name);
}

/**
 * Searches the resource picker's library for `keyword` and waits until the list shows that
 * search's `count` rows. While a search loads, the picker keeps the previous rows on screen
 * (aria-busy): a tick aimed at one of them lands wherever the new rows move it, or on nothing
 * ("Clicking the checkbox did not change its state"; docs/decisions.md "Tests").
 */
export async function searchPicker(
  picker: Locator,
  t: typeof zhCN,
  keyword: string,
  count: number,
): Promise<void> {
  await picker.getByRole('textbox', { name: t['resources.keyword'] }).fill(keyword);
  await picker.getByRole('button', { name: t['filter.search'] }).click();
  const rows = picker.getByRole('list', { name: t['taskForm.pickerList'] }).getByRole('listitem');
  await expect(rows).toHaveCount(count);
  await expect(picker.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Both locales with their catalogues, for the specs that run each test in both. */
export const BOTH_LOCALES = [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const;

/** Signs the demo merchant in through the API (the token stored in the page) in a locale. */
export async function signInMerchant(page: Page, locale: 'zh-CN' | 'en-US'): Promise<string> {
  const token = await apiLogin(page.request, 'merchant');
  await storeToken(page, token, locale);
  return token;
}

export interface ClipOptions {
  /** `WxH` (default 1280x720). */
  size?: string;
  /** Seconds (default 2). */
  seconds?: number;
  /** A lavfi video source (default `testsrc`); e.g. `smptebars`, `color=c=navy`. */
  source?: string;
  /** Adds a sine tone as its sound. */
  audio?: boolean;
}

/** An H.264 MP4 (ultrafast) at `file`. */
export function makeClip(file: string, options: ClipOptions = {}): string {
  const { size = '1280x720', seconds = 2, source = 'testsrc', audio = false } = options;
  const sep = source.includes('=') ? ':' : '=';
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `${source}${sep}size=${size}:rate=25`],
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(audio ? ['-c:a', 'aac'] : []),
    file,
  ]);
  return file;
}

/** A one-colour PNG at `file`. */
export function makeImage(file: string, colour = 'orange', size = '320x240'): string {
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `color=c=${colour}:size=${size}`, '-frames:v', '1'],
    file,
  ]);
  return file;
}

type Catalogue = typeof zhCN;

/** Uploads files of one type through the library's drop zone (the page is open) until each is done. */
export async function uploadFiles(page: Page, t: Catalogue, type: string, files: string[]) {
  await page.getByRole('combobox', { name: t['uploads.type'], exact: true }).selectOption(type);
  await page.getByLabel(t['uploads.chooseFiles'], { exact: true }).setInputFiles(files);
  for (const file of files) {
    const item = page.getByTestId('upload-item').filter({ hasText: path.basename(file) });
    await expect(item.getByRole('status')).toHaveText(t['uploads.done'], { timeout: 30_000 });
  }
}

/** Opens /creation/resource and uploads files of one type there. */
export async function uploadToLibrary(page: Page, t: Catalogue, type: string, files: string[]) {
  await page.goto('/creation/resource');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.resource']);
  await uploadFiles(page, t, type, files);
}
