/**
 * A narrated mixed-cut from script to a playing video, in both locales, against the real server,
 * renderer, queue and the embedded voice provider (espeak-ng, labelled as demonstration output):
 * a merchant uploads a silent clip, writes a two-sentence script, chooses the first of its voices,
 * sees the narration's length and price in the estimate, creates the task, waits for its output,
 * plays it (its sound is the speech: the clip has none) and downloads all its outputs as a ZIP.
 * docs/domain.md §9 "Narration".
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { enUS, expect, fill, test, zhCN } from './fixtures';
import { makeClip, mediaDir, searchPicker, signInMerchant, uploadToLibrary } from './media';

let dir = '';
test.beforeAll(() => {
  dir = mediaDir('narration');
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The mean loudness of a file's sound in dB (ffmpeg's volumedetect; silence is about -91). */
function meanVolume(file: string): number {
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', file, '-af', 'volumedetect', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  const found = /mean_volume: (-?[\d.]+) dB/.exec(run.stderr);
  if (!found) throw new Error(`volumedetect: ${run.stderr.slice(-500)}`);
  return Number(found[1]);
}

/** Plays a video element and answers its length and the audio bytes Chromium decoded. */
async function play(player: Locator): Promise<{ duration: number; audioBytes: number }> {
  await player.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  return player.evaluate((v: HTMLVideoElement) => ({
    duration: v.duration,
    // Chromium's count of the decoded audio bytes: zero for a video without sound.
    audioBytes:
      (v as HTMLVideoElement & { webkitAudioDecodedByteCount?: number })
        .webkitAudioDecodedByteCount ?? -1,
  }));
}

for (const [locale, t] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`a narrated mixed-cut from script to a playing video (${locale})`, async ({
    page,
  }, info) => {
    test.setTimeout(180_000);
    const tag = `n${locale.slice(0, 2)}${info.workerIndex}${Date.now().toString(36)}`;
    const name = `${tag}.mp4`;
    // A silent clip: whatever the output sounds like is the narration.
    const file = makeClip(path.join(dir, name), { source: 'smptebars', seconds: 3 });
    await signInMerchant(page, locale);
    await uploadToLibrary(page, t, 'video', [file]);

    await page.goto('/creation/mixed-task');
    await page.getByRole('button', { name: t['videoTasks.newMixed'] }).click();
    const form = page.getByRole('dialog', { name: t['taskForm.mixedTitle'] });
    await form.getByRole('textbox', { name: t['taskForm.name'] }).fill(tag);
    await form.getByRole('button', { name: fill(t['taskForm.pickShots'], { n: 1 }) }).click();
    const picker = page.getByRole('dialog', { name: t['taskForm.pickerTitleMany'] });
    await searchPicker(picker, t, tag, 1);
    await picker
      .getByRole('checkbox', { name: fill(t['resources.select'], { name }) })
      .check({ force: true });
    await picker.getByRole('button', { name: t['taskForm.pickConfirm'] }).click();
    await expect(picker).toBeHidden();
    // One shot makes one video.
    await form.getByRole('textbox', { name: t['taskForm.count'] }).fill('1');

    // The script and a voice: the embedded provider's voices say they are demonstration output.
    const script = locale === 'zh-CN' ? '你好。欢迎光临。' : 'Hello there. Welcome to our shop.';
    await form.getByRole('textbox', { name: t['taskForm.narrationText'] }).fill(script);
    const voice = form.getByRole('combobox', { name: t['taskForm.narrationVoice'] });
    await expect(voice.locator('option')).not.toHaveCount(1);
    await voice.selectOption({ index: 1 });
    await expect(form.getByText(t['taskForm.demonstration'])).toBeVisible();
    const estimate = form.getByRole('region', { name: t['taskForm.estimate'] });
    await expect(estimate).toContainText(t['taskForm.narrationSeconds']);
    await expect(estimate).toContainText(t['taskForm.narrationCost']);

    await form.getByRole('button', { name: t['taskForm.submit'] }).click();
    await expect(form).toBeHidden();
    const drawer = page.getByTestId('task-drawer');
    await expect(drawer.getByRole('heading', { name: tag })).toBeVisible();
    const output = drawer.getByTestId('task-output');
    await expect(output).toHaveCount(1);
    await expect(output.getByTestId('output-status')).toHaveText(t['videoTasks.outputDone'], {
      timeout: 120_000,
    });

    // It plays, with sound; the file's sound is the speech (the clip had none: silence is -91 dB).
    const player = output.locator('video');
    const { duration, audioBytes } = await play(player);
    expect(duration).toBeGreaterThan(0.5);
    expect(audioBytes).toBeGreaterThan(0);
    const src = await player.evaluate((v: HTMLVideoElement) => v.currentSrc);
    const played = path.join(dir, `${tag}-output.mp4`);
    writeFileSync(played, await (await page.request.get(src)).body());
    expect(meanVolume(played)).toBeGreaterThan(-50);

    // Download all: a ZIP of the one finished output.
    const link = drawer.getByRole('link', {
      name: fill(t['videoTasks.downloadAllOf'], { name: tag }),
    });
    const href = await link.getAttribute('href');
    expect(href).toBeTruthy();
    const zip = await page.request.get(href!);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toContain('zip');
    const bytes = await zip.body();
    // A local file header first, one entry in the end record.
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(1);
  });
}
