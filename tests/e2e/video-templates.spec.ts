/**
 * Video templates against the real server, the embedded provider and the job runner (docs/domain.md
 * §10 "Video templates"). The demo merchant saves a finished video as a template from the video
 * list, finds it on the templates page (its frame drawn, its demo), then makes a video with it in
 * the create form (picked from the cards): the video comes out in the template's frame. The admin
 * finds the page in its menu and edits a platform template's subtitle colour. The pages pass axe.
 * Paid (digital-human seconds): listed in MOVES_MONEY.
 */
import type { Page } from '@playwright/test';
import type { DhTemplate } from '../../src/api/contract/dh-templates';
import type { DhVideoDetail } from '../../src/api/contract/digital-human';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  fill,
  seriousViolations,
  storeToken,
  test,
} from './fixtures';

const t = enUS;
const DEMO_FOLDER = '示例素材';

/** The merchant's ready demo avatar and voice, and the demo folder (ready a few seconds after start). */
async function demoThings(page: Page, token: string) {
  let avatar = 0;
  let voice = 0;
  await expect
    .poll(
      async () => {
        const images = await apiCall<{ list: { id: number }[] }>(
          page.request,
          'GET',
          '/digital_human/image_clone_list?status=ready&page=1&limit=20',
          { token },
        );
        const voices = await apiCall<{ list: { id: number }[] }>(
          page.request,
          'GET',
          '/digital_human/voice_clone_list?scope=mine&status=ready&page=1&limit=20',
          { token },
        );
        avatar = images.data?.list[0]?.id ?? 0;
        voice = voices.data?.list[0]?.id ?? 0;
        return Math.min(avatar, voice);
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(0);
  const groups = await apiCall<{ list: { id: number; name: string }[] }>(
    page.request,
    'GET',
    '/resource/group_list',
    { token },
  );
  const folder = groups.data.list.find((g) => g.name === DEMO_FOLDER)!.id;
  return { avatar, voice, folder };
}

async function templates(page: Page, token: string) {
  const reply = await apiCall<{ list: DhTemplate[] }>(
    page.request,
    'GET',
    '/digital_human/template_list',
    { token, lang: 'en-US' },
  );
  expect(reply.code, reply.msg).toBe(1);
  return reply.data.list;
}

async function doneVideo(page: Page, token: string, id: number) {
  let video: DhVideoDetail | null = null;
  await expect
    .poll(
      async () => {
        const reply = await apiCall<DhVideoDetail>(
          page.request,
          'GET',
          `/digital_human/video_detail?id=${id}`,
          { token },
        );
        video = reply.data;
        return video.status;
      },
      { timeout: 120_000 },
    )
    .toBe('done');
  return video!;
}

test('a merchant saves a finished video as a template and makes a video with it', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const tag = `T${info.workerIndex}${Date.now().toString(36)}`;
  const token = await apiLogin(page.request, 'merchant');
  const things = await demoThings(page, token);
  const square = (await templates(page, token)).find((x) => x.name === 'Square 1:1')!;
  // A finished video in the square frame (made through the API: the form is the next step's).
  const added = await apiCall<{ id: number }>(page.request, 'POST', '/digital_human/video_add', {
    token,
    body: {
      name: `${tag} source`,
      text: 'Hello there.',
      avatar_id: things.avatar,
      voice_id: things.voice,
      speed: 1,
      volume: 1,
      subtitles: true,
      folder_id: things.folder,
      template_id: square.id,
    },
  });
  expect(added.code, added.msg).toBe(1);
  await doneVideo(page, token, added.data.id);

  // The video list: "Save as template" on its row.
  await storeToken(page, token, 'en-US');
  await page.goto('/digital-human/digital-video');
  const row = page.getByRole('row').filter({ hasText: `${tag} source` });
  await row
    .getByRole('button', { name: fill(t['dhVideos.saveAsTemplateOf'], { name: `${tag} source` }) })
    .click();
  const save = page.getByRole('dialog', {
    name: fill(t['dhVideos.saveAsTemplateTitle'], { name: `${tag} source` }),
  });
  await save.getByRole('textbox', { name: t['dhVideos.templateName'] }).fill(`${tag} look`);
  await save.getByRole('button', { name: t['dhVideos.saveAsTemplate'] }).click();
  await expect(page.getByText(t['dhTemplates.savedFromVideo'])).toBeVisible();

  // The templates page: its card, with the square frame drawn and the video as its demo.
  await page.goto('/digital-human/video-template');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['route.videoTemplate']);
  await page.getByRole('combobox', { name: t['dhTemplates.scope'] }).selectOption('mine');
  const card = page.getByRole('article', { name: `${tag} look` });
  await expect(card).toBeVisible();
  await expect(card.getByRole('img', { name: /^Layout 1:1:/ })).toBeVisible();
  await expect(
    card.getByLabel(fill(t['dhTemplates.demoOf'], { name: `${tag} look` })),
  ).toHaveAttribute('src', /\/api\/v1\/files\//);
  expect(await seriousViolations(page)).toEqual([]);

  // The create form: the template picked from its card; the video comes out square.
  await page.goto('/digital-human/create-video');
  const form = page.getByRole('region', { name: t['route.createVideo'] });
  await form.getByRole('textbox', { name: t['dhVideoForm.name'] }).fill(`${tag} made`);
  await form.getByRole('textbox', { name: t['dhVideoForm.text'] }).fill('Welcome to the shop.');
  await form.getByRole('radio', { name: '店长形象' }).check();
  await form
    .getByRole('combobox', { name: t['dhVideoForm.voiceChoice'] })
    .selectOption({ label: '店长声音' });
  await form
    .getByRole('combobox', { name: t['dhVideoForm.folder'] })
    .selectOption({ label: DEMO_FOLDER });
  await form
    .getByRole('radiogroup', { name: t['dhVideoForm.template'] })
    .getByRole('radio', { name: new RegExp(`${tag} look`) })
    .check();
  await expect(
    form.getByRole('group', {
      name: fill(t['dhVideoForm.chosenTemplate'], { name: `${tag} look` }),
    }),
  ).toBeVisible();
  const estimate = form.getByRole('region', { name: t['dhVideoForm.estimate'] });
  await expect(estimate.getByTestId('dh-estimate-seconds')).toHaveText(/^\d+$/);
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole('button', { name: t['dhVideoForm.submit'] }).click();
  await expect(page).toHaveURL(/\/digital-human\/digital-video$/);
  const list = await apiCall<{ list: { id: number; name: string }[] }>(
    page.request,
    'GET',
    `/digital_human/video_list?keyword=${encodeURIComponent(`${tag} made`)}&page=1&limit=5`,
    { token },
  );
  const made = await doneVideo(page, token, list.data.list[0]!.id);
  expect([made.width, made.height]).toEqual([720, 720]);
});

test('the admin finds the templates in its menu and edits a platform template', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const token = await apiLogin(page.request, 'admin');
  const landscape = (await templates(page, token)).find((x) => x.name === 'Landscape 16:9')!;
  await storeToken(page, token, 'en-US');
  await page.goto('/home/index');
  await page
    .getByRole('navigation', { name: t['shell.menu'], exact: true })
    .getByRole('link', { name: t['route.videoTemplate'], exact: true })
    .click();
  await expect(page).toHaveURL(/\/digital-human\/video-template$/);
  const card = page.getByRole('article', { name: 'Landscape 16:9' });
  await card
    .getByRole('button', { name: fill(t['dhTemplates.editOf'], { name: 'Landscape 16:9' }) })
    .click();
  const dialog = page.getByRole('dialog', {
    name: fill(t['dhTemplates.editTitle'], { name: 'Landscape 16:9' }),
  });
  await expect(dialog.getByText(t['dhTemplates.builtinName'])).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const colour = dialog.getByRole('textbox', {
    name: t['dhTemplates.subtitleColour'],
    exact: true,
  });
  await colour.fill('#FFD700');
  await dialog.getByRole('button', { name: t['dhTemplates.save'] }).click();
  await expect(page.getByText(t['dhTemplates.saved'])).toBeVisible();
  await expect(card).toContainText('#FFD700');
  try {
    // Everyone sees it so (the merchant's list), its name still translated.
    const merchant = await apiLogin(page.request, 'merchant');
    const seen = (await templates(page, merchant)).find((x) => x.id === landscape.id)!;
    expect(seen.layout.subtitle.color).toBe('#FFD700');
    expect(seen.name).toBe('Landscape 16:9');
  } finally {
    // Put back as seeded (the other specs' videos use it).
    const back = await apiCall(page.request, 'POST', '/digital_human/template_edit', {
      token,
      body: { id: landscape.id, ratio: landscape.ratio, layout: landscape.layout },
    });
    expect(back.code, back.msg).toBe(1);
  }
});
