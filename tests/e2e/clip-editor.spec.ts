/**
 * The clip editor (/creation/mixedshear) in the browser, as the demo merchant: a 2 s
 * 720p MP4 (made with ffmpeg) uploaded to the library, picked in the editor's picker (the
 * library's posters), played in the editor's player, the start set from the play time, the end
 * typed, a title added, previewed before paying (the server's small render of it played in the
 * form); axe finds no serious violation on the page and on the picker, in both locales.
 * (Submitting is the video task server's; the path tests cover it with fake endpoints.)
 */
import type { Page } from '@playwright/test';
import type { zhCN } from './fixtures';
import { expect, fill, seriousViolations, test } from './fixtures';
import {
  BOTH_LOCALES,
  makeClip,
  searchPicker,
  signInMerchant,
  specMediaDir,
  uploadToLibrary,
} from './media';

type Catalogue = typeof zhCN;

const file = specMediaDir('clip-editor');

/** A 2 s 720p clip named `<tag>.mp4`. */
const clip = (tag: string) => makeClip(file(`${tag}.mp4`));

/** Uploads the clip through the library's drop zone and waits until it is a resource. */
const upload = (page: Page, t: Catalogue, file: string) =>
  uploadToLibrary(page, t, 'video', [file]);

for (const [locale, t] of BOTH_LOCALES) {
  test(`pick a video, play it, trim it, add a title, preview it; axe on the page and the picker (${locale})`, async ({
    page,
  }, info) => {
    const tag = `c${info.workerIndex}${Date.now().toString(36)}`;
    await signInMerchant(page, locale);
    await upload(page, t, clip(tag));

    await page.goto('/creation/mixedshear');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.mixedshear']);
    const editor = page.getByRole('region', { name: t['route.mixedshear'] });
    await expect(editor.getByText(t['taskForm.estimateBlank'])).toBeVisible();

    // The picker: the library's posters, found by name, one ticked.
    await editor.getByRole('button', { name: t['clipEditor.pickVideo'] }).click();
    const picker = page.getByRole('dialog', { name: t['taskForm.pickerTitleOne'] });
    await searchPicker(picker, t, tag, 1);
    const name = `${tag}.mp4`;
    const tick = picker.getByRole('checkbox', { name: fill(t['resources.select'], { name }) });
    await expect(tick).toHaveCount(1);
    await tick.check({ force: true });
    expect(await seriousViolations(page)).toEqual([]);
    await picker.getByRole('button', { name: t['taskForm.pickConfirm'] }).click();
    await expect(picker).toBeHidden();

    // The player plays the picked video; its length fills the end field.
    const player = editor.getByTestId('clip-player');
    await expect(editor.getByLabel(fill(t['resources.player'], { name }))).toBeVisible();
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState))
      .toBeGreaterThan(0);
    await expect(editor.getByRole('textbox', { name: t['clipEditor.end'] })).toHaveValue('2');

    // Seek to 0.5 s, mark the start there, keep to 1.5 s.
    await player.evaluate(
      (v: HTMLVideoElement) =>
        new Promise<void>((resolve) => {
          v.addEventListener('seeked', () => resolve(), { once: true });
          v.currentTime = 0.5;
        }),
    );
    await editor.getByRole('button', { name: t['clipEditor.startHere'] }).click();
    await expect(editor.getByRole('textbox', { name: t['clipEditor.start'] })).toHaveValue('0.5');
    await editor.getByRole('textbox', { name: t['clipEditor.end'] }).fill('1.5');
    await expect(editor.getByTestId('clip-kept')).toHaveText(
      fill(t['clipEditor.keptOf'], { kept: 1, length: 2 }),
    );

    await editor.getByRole('button', { name: fill(t['taskForm.addTitle'], { max: 5 }) }).click();
    await editor
      .getByRole('textbox', { name: fill(t['taskForm.titleText'], { n: 1 }) })
      .fill('Summer');
    expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);

    // Preview before paying: the server renders the clip small and short, the panel plays it.
    const preview = editor.getByRole('region', { name: t['taskPreview.title'] });
    await preview.getByRole('button', { name: t['taskPreview.preview'] }).click();
    const video = preview.getByLabel(t['taskPreview.player']);
    await expect(video).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(
      await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight, v.duration]),
    ).toEqual([360, 640, expect.closeTo(1, 0)]);
    await expect(preview.getByTestId('task-preview-state')).toContainText('360×640');
    expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);
  });
}
