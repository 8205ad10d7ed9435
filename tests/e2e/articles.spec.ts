/**
 * Articles and agreements against the real server (docs/domain.md "Articles and agreements"): the
 * admin writes an article in the editor (a heading, a list, a link) and publishes it, and a
 * merchant reads it as the server stored it; the admin saves a new user-agreement version and
 * the merchant is asked to accept it; axe on the pages and dialogs in both locales. The cover and
 * the body's images are uploaded (docs/domain.md §8 "Platform images"): the stored body holds our
 * images' addresses, never a data: URL.
 */
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
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
import { makeImage, specMediaDir } from './media';

test.describe.configure({ timeout: 120_000 });

const mediaFile = specMediaDir('articles');
const OUR_IMAGE = /^\/api\/v1\/images\/[0-9a-f]{32}\.png$/;

/** Pastes into the editor as a browser does: a clipboard holding `files` or `html`. */
async function paste(editor: Locator, what: { png?: string; html?: string }) {
  const bytes = what.png ? [...readFileSync(what.png)] : null;
  await editor.evaluate(
    (node, { bytes, html }) => {
      const data = new DataTransfer();
      if (bytes) {
        data.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
      }
      if (html) data.setData('text/html', html);
      node.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { bytes, html: what.html ?? null },
  );
}

/**
 * The cover and the body's images are uploaded: "Insert image" and a pasted image file insert
 * our address; a pasted base64 image is not taken.
 */
async function addImages(page: Page, c: Catalogue, dialog: Locator) {
  const photo = makeImage(mediaFile('photo.png'), 'navy', '120x80');
  const cover = dialog.getByRole('group', { name: c['content.cover'] });
  await dialog
    .getByLabel(fill(c['imageField.choose'], { field: c['content.cover'] }), { exact: true })
    .setInputFiles(photo);
  await expect(cover.getByRole('img')).toHaveAttribute('src', OUR_IMAGE);

  const editor = dialog.getByRole('textbox', { name: c['content.editor'] });
  const toolbar = dialog.getByRole('toolbar', { name: c['content.toolbar'] });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  const chooser = page.waitForEvent('filechooser');
  await toolbar.getByRole('button', { name: c['content.insertImage'], exact: true }).click();
  await (await chooser).setFiles(photo);
  await expect(editor.locator('img')).toHaveCount(1);
  await expect(editor.locator('img').first()).toHaveAttribute('src', OUR_IMAGE);
  await expect(editor.locator('img').first()).toHaveAttribute('alt', 'photo');

  await paste(editor, { png: photo });
  await expect(editor.locator('img')).toHaveCount(2);
  await paste(editor, {
    html: '<p>pasted</p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==">',
  });
  await expect(editor).toContainText('pasted');
  await expect(editor.locator('img')).toHaveCount(2);
  for (const image of await editor.locator('img').all()) {
    await expect(image).toHaveAttribute('src', OUR_IMAGE);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  }
}

type Catalogue = typeof zhCN;

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

async function writeArticle(page: Page, c: Catalogue, title: string) {
  await page.getByRole('button', { name: c['content.add'], exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c['content.title'], { exact: false }).first().fill(title);
  await dialog.getByLabel(c['content.status'], { exact: true }).selectOption('published');
  const editor = dialog.getByRole('textbox', { name: c['content.editor'] });
  await editor.click();
  await page.keyboard.type('Getting started');
  const toolbar = dialog.getByRole('toolbar', { name: c['content.toolbar'] });
  await toolbar.getByRole('button', { name: c['content.heading'], exact: true }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: c['content.bulletList'], exact: true }).click();
  await page.keyboard.type('First step');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // The address first, then the text to link (the editor keeps its selection when refocused).
  await toolbar.getByLabel(c['content.linkUrl']).fill('https://example.org/docs');
  await editor.focus();
  await page.keyboard.type('Docs');
  await page.keyboard.press('Shift+Home');
  await toolbar.getByRole('button', { name: c['content.link'], exact: true }).click();
  await expect(editor.getByRole('link', { name: 'Docs' })).toBeVisible();
  return dialog;
}

for (const [locale, c] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const) {
  test(`an article written in the editor is read by a merchant (${locale})`, async ({
    page,
    request,
  }) => {
    const title = `Start ${locale} ${Date.now() % 100000}`;
    await storeToken(page, await apiLogin(request, 'admin'), locale);
    await page.goto('/protocol/article');
    await expect(page.getByRole('table', { name: c['content.articleTable'] })).toBeVisible();
    await noSeriousViolations(page, 'article list');
    const dialog = await writeArticle(page, c, title);
    await addImages(page, c, dialog);
    await noSeriousViolations(page, 'editor dialog');
    await dialog.getByRole('button', { name: c['content.save'], exact: true }).click();
    await expect(dialog).toBeHidden();
    const table = page.getByRole('table', { name: c['content.articleTable'] });
    await expect(table.getByRole('row').filter({ hasText: title })).toBeVisible();

    // The merchant reads what the server stored (sanitised), published.
    const merchant = await apiLogin(request, 'merchant');
    const list = await apiCall<{
      list: { id: number; title: string; cover: string; content: string }[];
    }>(request, 'GET', '/article/list?limit=100', { token: merchant });
    const article = list.data.list.find((a) => a.title === title);
    expect(article, 'published article in the merchant’s list').toBeTruthy();
    expect(article!.content).toContain('<h2>Getting started</h2>');
    expect(article!.content).toMatch(/<ul><li><p>First step<\/p><\/li><\/ul>/);
    const link = /<a ([^>]*)>Docs<\/a>/.exec(article!.content)?.[1] ?? '';
    expect(link).toContain('href="https://example.org/docs"');
    expect(link).toContain('rel="noopener noreferrer"');
    // Our images' addresses, never a data: URL.
    expect(article!.cover).toMatch(OUR_IMAGE);
    const images = [...article!.content.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]);
    expect(images).toHaveLength(2);
    for (const src of images) expect(src).toMatch(OUR_IMAGE);
    expect(article!.content).not.toContain('data:');
  });
}

/**
 * A new platform user agreement asks every older account to accept it on the hosts where it is in
 * force, and the other specs sign in as the demo accounts on 127.0.0.1 meanwhile. So this test
 * makes the version in force on `localhost` only: `localhost` becomes a platform domain, and on
 * 127.0.0.1 the partner's own user agreement (in force since 1970, older than every account, so
 * nobody is asked for it) stands in front of the platform's.
 */
test('a new user-agreement version is listed and asks the merchant to accept it', async ({
  page,
  request,
  baseURL,
}) => {
  const localhost = baseURL!.replace('127.0.0.1', 'localhost');
  const admin = await apiLogin(request, 'admin');
  const domains = await apiCall<{ list: { id: number; hostname: string }[] }>(
    request,
    'GET',
    '/domain/list?keyword=localhost&page=1&limit=10',
    { token: admin },
  );
  const local = domains.data.list.find((d) => d.hostname === 'localhost');
  expect(local, 'the demo localhost domain').toBeTruthy();
  const moved = await apiCall(request, 'POST', '/domain/edit', {
    token: admin,
    body: { id: local!.id, owner_id: null },
  });
  expect(moved.code, moved.msg).toBe(1);
  const partner = await apiLogin(request, 'partner');
  const own = await apiCall(request, 'POST', '/agreement/save', {
    token: partner,
    body: { kind: 'user', content: '<p>The partner’s terms.</p>', effective_at: 0 },
  });
  expect(own.code, own.msg).toBe(1);

  await storeToken(page, admin, 'en-US');
  await page.goto('/protocol/agreement');
  await expect(page.getByRole('table', { name: enUS['content.agreementTable'] })).toBeVisible();
  await page.getByRole('button', { name: enUS['content.newVersion'], exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: enUS['content.editor'] }).click();
  await page.keyboard.type('Be kind to each other.');
  await noSeriousViolations(page, 'new version dialog');
  await dialog.getByRole('button', { name: enUS['content.save'], exact: true }).click();
  await expect(dialog).toBeHidden();
  const row = page
    .getByRole('table', { name: enUS['content.agreementTable'] })
    .getByRole('row')
    .filter({ hasText: enUS['content.kind.user'] })
    .first();
  await expect(row).toBeVisible();
  await noSeriousViolations(page, 'agreement list');

  // On 127.0.0.1 (the partner's domain) nobody is asked; on localhost the merchant is.
  const merchant = await apiLogin(request, 'merchant');
  const here = await apiCall(request, 'GET', '/agreement/pending', { token: merchant });
  expect(here.data).toBeNull();
  const pending = await apiCall<{ version: number; content: string } | null>(
    request,
    'GET',
    '/agreement/pending',
    { token: merchant, origin: localhost },
  );
  expect(pending.data?.content).toBe('<p>Be kind to each other.</p>');

  // The merchant's console on localhost asks for it, in a dialog that stays until accepted.
  await page.goto(`${localhost}/api/v1/platform/get_system_info?domain=localhost`);
  await page.evaluate((token) => {
    localStorage.setItem('token', token);
    localStorage.setItem('locale', 'zh-CN');
  }, merchant);
  await page.goto(`${localhost}/dashboard/workBench`);
  const prompt = page.getByRole('alertdialog', { name: zhCN['agreementPrompt.title'] });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByText('Be kind to each other.')).toBeVisible();
  await noSeriousViolations(page, 'agreement prompt');
  await prompt.getByRole('button', { name: zhCN['agreementPrompt.accept'], exact: true }).click();
  await expect(prompt).toBeHidden();
  const after = await apiCall(request, 'GET', '/agreement/pending', {
    token: merchant,
    origin: localhost,
  });
  expect(after.data).toBeNull();
});
