/**
 * The digital-human clone pages against the real server, job runner and the embedded provider
 * (browser tests): a merchant clones a presenter's image from a video and a
 * consent clip uploaded in the dialog (zh-CN) and a voice from an uploaded spoken sample (en-US);
 * the status goes from queued / training to ready without a reload, the demonstration label
 * shows, the image preview plays its loop, the voice preview speaks a typed text, and each clone
 * is deleted. The admin's voice record lists every user's voice clones and the voice ledger. Each
 * page passes axe. Clones are paid for: the merchant exchanges money for one of each first.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { zhCN } from './fixtures';
import { API, apiLogin, expect, fill, seriousViolations, storeToken, test } from './fixtures';
import { BOTH_LOCALES, makeClip, signInMerchant, specMediaDir } from './media';

type Catalogue = typeof zhCN;

const file = specMediaDir('dh-clones');

/** One unit of a clone asset bought with the caller's money (the exchange). */
async function buyOne(request: APIRequestContext, token: string, asset: string) {
  const reply = await request.post(`${API}/platform/exchange`, {
    headers: { token, platform: 'pc', 'idempotency-key': randomUUID() },
    data: { asset, quantity: 1 },
  });
  const json = (await reply.json()) as { code: number; msg: string };
  expect(json.code, json.msg).toBe(1);
}

/** `seconds` of speech (espeak-ng, English), padded to that length, as an MP3. */
function makeSpeech(file: string, seconds: number): string {
  const wav = `${file}.wav`;
  const line = 'This is a short sample of my voice, read slowly and clearly for the voice clone. ';
  execFileSync('espeak-ng', ['-v', 'en', '-s', '140', '-w', wav, line.repeat(4)]);
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-i', wav],
    ...['-af', 'apad', '-t', String(seconds), '-c:a', 'libmp3lame', '-b:a', '96k'],
    file,
  ]);
  rmSync(wav, { force: true });
  return file;
}

/** Uploads a file from a dialog's slot and waits until it is a resource picked in the slot. */
async function uploadInto(dialog: Locator, t: Catalogue, slot: string, file: string) {
  const zone = dialog.getByTestId(slot);
  await zone.getByLabel(t['uploads.chooseFiles'], { exact: true }).setInputFiles(file);
  const item = dialog.getByTestId('upload-item').filter({ hasText: path.basename(file) });
  await expect(item.getByRole('status')).toHaveText(t['uploads.done'], { timeout: 60_000 });
  await expect(zone.getByRole('combobox')).not.toHaveValue('', { timeout: 10_000 });
}

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

/** Signs the merchant in with one unit of `asset` bought, opens a clone page and checks it. */
async function openClonePage(
  page: Page,
  locale: 'zh-CN' | 'en-US',
  asset: string,
  open: { url: string; heading: string; list: string },
) {
  const token = await signInMerchant(page, locale);
  await buyOne(page.request, token, asset);
  await page.goto(open.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(open.heading);
  await expect(page.getByTestId(open.list)).toBeVisible();
  await noSeriousViolations(page, `${open.list} list`);
}

/** Submits a create dialog; its new row shows and becomes ready without a reload. */
async function submitUntilReady(
  page: Page,
  t: Catalogue,
  dialog: Locator,
  submit: string,
  tag: string,
) {
  await dialog.getByRole('button', { name: submit }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  const row = page.getByRole('row').filter({ hasText: tag });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('clone-status')).toHaveText(t['dhClones.statusReady'], {
    timeout: 120_000,
  });
  return row;
}

/** Deletes the clone of a row through its confirmation; the row goes. */
async function deleteClone(page: Page, t: Catalogue, row: Locator, tag: string) {
  await row.getByRole('button', { name: fill(t['dhClones.deleteOf'], { name: tag }) }).click();
  const confirm = page.getByRole('dialog', {
    name: fill(t['dhClones.deleteTitle'], { name: tag }),
  });
  await confirm.getByRole('button', { name: t['dhClones.delete'], exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: tag })).toHaveCount(0);
}

for (const [locale, t] of BOTH_LOCALES) {
  test(`a merchant clones an image from uploaded videos: live status, preview, delete (${locale})`, async ({
    page,
  }, info) => {
    test.setTimeout(240_000);
    const tag = `i${info.workerIndex}${Date.now().toString(36)}`;
    // A 31 s continuous take (colour bars: no cut) and a 3 s consent clip.
    const take = makeClip(file(`${tag}-take.mp4`), {
      source: 'smptebars',
      size: '640x360',
      seconds: 31,
    });
    const consent = makeClip(file(`${tag}-consent.mp4`), {
      source: 'color=c=navy',
      size: '640x360',
      seconds: 3,
      audio: true,
    });
    await openClonePage(page, locale, 'image_clone', {
      url: '/digital-human/image-clone',
      heading: t['route.imageClone'],
      list: 'image-clones',
    });

    await page.getByRole('button', { name: t['dhClones.newImage'] }).click();
    const dialog = page.getByRole('dialog', { name: t['dhClones.newImageTitle'] });
    // Create with nothing: the rules say what is missing.
    await dialog.getByRole('button', { name: t['dhClones.submitImage'] }).click();
    await expect(dialog).toContainText(t['dhClones.pickVideo']);
    await expect(dialog).toContainText(t['dhClones.pickConsent']);
    await dialog.getByRole('textbox', { name: t['dhClones.name'] }).fill(tag);
    await uploadInto(dialog, t, 'slot-video', take);
    await uploadInto(dialog, t, 'slot-consent', consent);
    await dialog
      .getByRole('combobox', { name: t['dhClones.tier'], exact: true })
      .selectOption('advanced');
    await noSeriousViolations(page, 'image clone dialog');
    // The new row trains and becomes ready without a reload.
    const row = await submitUntilReady(page, t, dialog, t['dhClones.submitImage'], tag);
    await expect(row).toContainText(t['dhClones.tierAdvanced']);
    await expect(row).toContainText(t['dhClones.demonstration']);

    // The preview: poster and loop.
    await row.getByRole('button', { name: fill(t['dhClones.previewOf'], { name: tag }) }).click();
    const preview = page.getByTestId('image-clone-preview');
    const loop = preview.getByLabel(fill(t['dhClones.loopOf'], { name: tag }));
    await expect(loop).toHaveAttribute('poster', /.+/);
    await expect
      .poll(() => loop.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.2);
    await noSeriousViolations(page, 'image clone preview');
    await preview.getByRole('button', { name: t['form.close'] }).click();
    await expect(preview).toBeHidden();

    // Delete it.
    await deleteClone(page, t, row, tag);
  });
}

for (const [locale, t] of BOTH_LOCALES) {
  test(`a merchant clones a voice from an uploaded sample: live status, preview, delete (${locale})`, async ({
    page,
  }, info) => {
    test.setTimeout(240_000);
    const tag = `v${info.workerIndex}${Date.now().toString(36)}`;
    const sample = makeSpeech(file(`${tag}-sample.mp3`), 12);
    await openClonePage(page, locale, 'digital_voice', {
      url: '/digital-human/sound-clone',
      heading: t['route.soundClone'],
      list: 'voice-clones',
    });

    await page.getByRole('button', { name: t['dhClones.newVoice'] }).click();
    const dialog = page.getByRole('dialog', { name: t['dhClones.newVoiceTitle'] });
    await dialog.getByRole('textbox', { name: t['dhClones.name'] }).fill(tag);
    await dialog
      .getByRole('combobox', { name: t['dhClones.gender'], exact: true })
      .selectOption('male');
    await expect(dialog).toContainText(
      fill(t['dhClones.sampleHint'], { min: 10, max: 30, mb: 20 }),
    );
    await uploadInto(dialog, t, 'slot-audio', sample);
    await noSeriousViolations(page, 'voice clone dialog');
    const row = await submitUntilReady(page, t, dialog, t['dhClones.submitVoice'], tag);
    await expect(row).toContainText(t['dhClones.male']);
    await expect(row.getByLabel(fill(t['dhClones.demoOf'], { name: tag }))).toHaveAttribute(
      'src',
      /.+/,
    );

    // The voice preview speaks a typed text; the sample is a file the browser can fetch.
    await row.getByRole('button', { name: fill(t['dhClones.listenOf'], { name: tag }) }).click();
    const preview = page.getByTestId('voice-preview');
    const text = preview.getByRole('textbox', { name: t['dhClones.previewText'] });
    await text.fill('x'.repeat(101));
    await preview.getByRole('button', { name: t['dhClones.speak'] }).click();
    await expect(preview).toContainText(t['validation.previewText']);
    await text.fill('Good morning, welcome to our shop.');
    await preview.getByRole('button', { name: t['dhClones.speak'] }).click();
    const audio = preview.getByTestId('voice-preview-audio');
    await expect(audio).toHaveAttribute('src', /.+/, { timeout: 60_000 });
    const reply = await page.request.get((await audio.getAttribute('src'))!);
    expect(reply.status()).toBe(200);
    expect(reply.headers()['content-type']).toMatch(/^audio\//);
    await noSeriousViolations(page, 'voice preview');
    await preview.getByRole('button', { name: t['form.close'] }).first().click();
    await expect(preview).toBeHidden();

    // The public voices: the platform's, ready, no delete.
    await page.getByRole('tab', { name: t['dhClones.public'] }).click();
    const publicList = page.getByTestId('public-voices');
    await expect(publicList.getByTestId('clone-status').first()).toHaveText(
      t['dhClones.statusReady'],
    );
    await expect(publicList.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await page.getByRole('tab', { name: t['dhClones.mine'] }).click();

    await deleteClone(page, t, row, tag);
  });
}

for (const [locale, t] of BOTH_LOCALES) {
  test(`the admin's voice record: every user's voice clones and the voice ledger (${locale})`, async ({
    page,
  }) => {
    await storeToken(page, await apiLogin(page.request, 'admin'), locale);
    await page.goto('/account/voice-record');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.voiceRecord']);
    const clones = page.getByTestId('voice-record');
    // The demo merchant's voice clone, with its owner.
    const demo = clones.getByRole('row').filter({ hasText: 'merchant' }).first();
    await expect(demo).toBeVisible({ timeout: 30_000 });
    await noSeriousViolations(page, 'voice record');

    // Filter by the merchant: the clones are its own, and the voice ledger is its.
    const filters = page.getByRole('search', { name: t['voiceRecord.filters'] });
    const user = filters.getByRole('combobox', { name: t['voiceRecord.user'], exact: true });
    const merchant = user.locator('option').filter({ hasText: /\(merchant\)$|^merchant$/ });
    await user.selectOption((await merchant.first().getAttribute('value'))!);
    await filters.getByRole('button', { name: t['filter.search'] }).click();
    await expect(clones.getByRole('row').filter({ hasText: 'merchant' }).first()).toBeVisible();
    const ledger = page.getByTestId('ledger');
    await expect(ledger.getByRole('row').nth(1)).toContainText(t['stats.voiceClones'], {
      timeout: 15_000,
    });
  });
}
