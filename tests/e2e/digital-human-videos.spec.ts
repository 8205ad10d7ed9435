/**
 * Digital-human videos against the real server, the embedded provider (espeak-ng speech, ffmpeg
 * video) and the job runner (browser tests). The demo merchant makes a video
 * from its demo avatar and voice in the create form (the live character count and estimate
 * first), watches its status go to done in the list without reloading, plays it, renames it,
 * resubmits it (a new video) and deletes one; its finished works show in "my creations" by
 * folder. In en-US the partner makes one in English. Each page passes axe.
 */
import type { Page } from '@playwright/test';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  fill,
  seriousViolations,
  storeToken,
  test,
  zhCN,
} from './fixtures';

type Catalogue = typeof zhCN;

/** The demo folder (resource group) every demo user has. */
const DEMO_FOLDER = '示例素材';
const DEMO = {
  merchant: { avatar: '店长形象', voice: '店长声音' },
  partner: { avatar: '示例形象', voice: '示例声音' },
};

/** The demo clones train a few seconds after the server starts: wait until they are ready. */
async function demoClonesReady(page: Page, token: string) {
  await expect
    .poll(
      async () => {
        const images = await apiCall<{ total: number }>(
          page.request,
          'GET',
          '/digital_human/image_clone_list?status=ready&page=1&limit=20',
          { token },
        );
        const voices = await apiCall<{ total: number }>(
          page.request,
          'GET',
          '/digital_human/voice_clone_list?scope=mine&status=ready&page=1&limit=20',
          { token },
        );
        return Math.min(images.data?.total ?? 0, voices.data?.total ?? 0);
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(0);
}

/** Fills the create form and submits it; ends on the video list. */
async function createVideo(
  page: Page,
  t: Catalogue,
  demo: { avatar: string; voice: string },
  name: string,
  speech: string,
) {
  await page.goto('/digital-human/digital-video');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.digitalVideo']);
  await page.getByRole('link', { name: t['dhVideos.create'] }).click();
  await expect(page).toHaveURL(/\/digital-human\/create-video$/);
  const form = page.getByRole('region', { name: t['route.createVideo'] });
  const nameField = form.getByRole('textbox', { name: t['dhVideoForm.name'] });
  // The default name: the prefix and the local time stamp.
  await expect(nameField).toHaveValue(
    new RegExp(`^${fill(t['dhVideoForm.defaultName'], { stamp: '' })}\\d{8} \\d{4}$`),
  );
  await nameField.fill(name);
  await form.getByRole('textbox', { name: t['dhVideoForm.text'] }).fill(speech);
  await expect(form.getByTestId('dh-text-count')).toContainText(`${speech.length} / 5000`);
  await form.getByRole('radio', { name: demo.avatar }).check();
  await expect(
    form.getByLabel(fill(t['dhVideoForm.avatarLoop'], { name: demo.avatar })),
  ).toBeVisible();
  await form
    .getByRole('combobox', { name: t['dhVideoForm.voiceChoice'] })
    .selectOption({ label: demo.voice });
  await expect(
    form.getByLabel(fill(t['dhVideoForm.voiceDemo'], { name: demo.voice })),
  ).toBeAttached();
  // The preview of the text in that voice (a signed URL the player plays).
  await form.getByRole('button', { name: t['dhVideoForm.preview'] }).click();
  await expect(form.getByTestId('dh-voice-preview')).toHaveAttribute('src', /\S/, {
    timeout: 30_000,
  });
  await form
    .getByRole('combobox', { name: t['dhVideoForm.folder'] })
    .selectOption({ label: DEMO_FOLDER });
  const estimate = form.getByRole('region', { name: t['dhVideoForm.estimate'] });
  await expect(estimate.getByTestId('dh-estimate-seconds')).toHaveText(/^\d+$/);
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole('button', { name: t['dhVideoForm.submit'] }).click();
  await expect(page).toHaveURL(/\/digital-human\/digital-video$/);
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test('a video from the demo avatar and voice: live status, play, rename, resubmit, delete, my creations (zh-CN)', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const t = zhCN;
  const tag = `数字人${info.workerIndex}${Date.now().toString(36)}`;
  const token = await apiLogin(page.request, 'merchant');
  await demoClonesReady(page, token);
  await storeToken(page, token, 'zh-CN');
  await createVideo(page, t, DEMO.merchant, tag, '大家好，欢迎光临本店。今天全场八折！');

  // The row follows by itself: queued or creating, then done (no reload).
  const row = rowOf(page, tag);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('dh-status')).toHaveText(t['dhVideos.statusDone'], {
    timeout: 120_000,
  });
  await expect(row).toContainText(t['dhVideos.demonstration']);
  await expect(row).toContainText('merchant');
  expect(await seriousViolations(page)).toEqual([]);

  // Play: the player dialog with the video the browser decodes.
  await row.getByRole('button', { name: fill(t['dhVideos.playOf'], { name: tag }) }).click();
  const player = page.getByTestId('dh-player');
  const video = player.getByLabel(fill(t['dhVideos.playerOf'], { name: tag }));
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.2);
  const href = await player
    .getByRole('link', { name: fill(t['dhVideos.downloadOf'], { name: tag }) })
    .getAttribute('href');
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toBe('video/mp4');
  await player.getByRole('button', { name: t['form.close'] }).first().click();
  await expect(player).toBeHidden();

  // Rename.
  const renamed = `${tag}改`;
  await row.getByRole('button', { name: fill(t['dhVideos.renameOf'], { name: tag }) }).click();
  const rename = page.getByRole('dialog', { name: fill(t['dhVideos.renameTitle'], { name: tag }) });
  await rename.getByRole('textbox', { name: t['dhVideos.name'] }).fill(renamed);
  await rename.getByRole('button', { name: t['dhVideos.rename'] }).click();
  await expect(rename).toBeHidden();
  const renamedRows = rowOf(page, renamed);
  await expect(renamedRows).toHaveCount(1);

  // Resubmit: a new video with the same body, made again.
  await renamedRows
    .getByRole('button', { name: fill(t['dhVideos.resubmitOf'], { name: renamed }) })
    .click();
  const resubmit = page.getByRole('dialog', {
    name: fill(t['dhVideos.resubmitTitle'], { name: renamed }),
  });
  await resubmit.getByRole('button', { name: t['dhVideos.resubmit'] }).click();
  await expect(resubmit).toBeHidden();
  await expect(renamedRows).toHaveCount(2);
  await expect(renamedRows.getByTestId('dh-status')).toHaveText(
    [t['dhVideos.statusDone'], t['dhVideos.statusDone']],
    { timeout: 120_000 },
  );

  // My creations: both finished works, in the demo folder.
  await page.getByRole('link', { name: t['route.myCreation'] }).click();
  await expect(page).toHaveURL(/\/digital-human\/my-creation$/);
  const gallery = page.getByRole('list', { name: t['myCreation.gallery'] });
  await expect(gallery.getByRole('listitem').filter({ hasText: renamed })).toHaveCount(2);
  await page
    .getByRole('navigation', { name: t['myCreation.folders'] })
    .getByRole('button', { name: DEMO_FOLDER })
    .click();
  await expect(gallery.getByRole('listitem').filter({ hasText: renamed })).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);

  // Delete one of them.
  await page.goto('/digital-human/digital-video');
  await renamedRows
    .first()
    .getByRole('button', { name: fill(t['dhVideos.deleteOf'], { name: renamed }) })
    .click();
  const remove = page.getByRole('dialog', {
    name: fill(t['dhVideos.deleteTitle'], { name: renamed }),
  });
  await remove.getByRole('button', { name: t['dhVideos.delete'] }).click();
  await expect(remove).toBeHidden();
  await expect(renamedRows).toHaveCount(1);
});

test('the partner makes an English video and finds it in my creations (en-US)', async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  const t = enUS;
  const tag = `dh${info.workerIndex}${Date.now().toString(36)}`;
  const token = await apiLogin(page.request, 'partner');
  await demoClonesReady(page, token);
  await storeToken(page, token, 'en-US');
  await createVideo(page, t, DEMO.partner, tag, 'Hello and welcome. Spring is here!');
  const row = rowOf(page, tag);
  await expect(row.getByTestId('dh-status')).toHaveText(t['dhVideos.statusDone'], {
    timeout: 120_000,
  });
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/digital-human/my-creation');
  const gallery = page.getByRole('list', { name: t['myCreation.gallery'] });
  const work = gallery.getByRole('listitem').filter({ hasText: tag });
  await expect(work).toHaveCount(1);
  await work.getByRole('button', { name: fill(t['dhVideos.playOf'], { name: tag }) }).click();
  await expect(
    page.getByTestId('dh-player').getByLabel(fill(t['dhVideos.playerOf'], { name: tag })),
  ).toBeVisible();
});
