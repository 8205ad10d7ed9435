/**
 * The domains page against the real server: the admin adds a domain (zh-CN), sees it listed,
 * edits it with the live brand preview (en-US), and `get_system_info` for that hostname answers
 * the new brand; then disables it (the platform's brand again) and deletes it after a
 * confirmation. The logo and favicon are uploaded images: the preview, `get_system_info` and the
 * domain's own login page show them. axe on the page and the form in both locales.
 */
import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import {
  apiCall,
  apiLogin,
  enUS,
  expect,
  fill,
  heading1,
  seriousViolations,
  storeToken,
  test,
  uniqueUsername,
  zhCN,
} from './fixtures';
import { makeImage, specMediaDir } from './media';

test.describe.configure({ timeout: 90_000 });

const mediaFile = specMediaDir('domains');

type Catalogue = typeof zhCN;

const dialog = (page: Page) => page.getByRole('dialog');
/** A field by its label (a required field's '*' follows the label's text). */
const field = (page: Page, label: string) =>
  dialog(page).getByRole('textbox', { name: new RegExp(`^${label}(\\s*\\*)?$`) });
const list = (page: Page, c: Catalogue) => page.getByRole('table', { name: c['domains.list'] });

async function systemInfo(request: Parameters<typeof apiLogin>[0], hostname: string) {
  const reply = await apiCall<Record<string, string>>(
    request,
    'GET',
    `/platform/get_system_info?domain=${hostname}`,
  );
  expect(reply.code).toBe(1);
  return reply.data;
}

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

test('the admin adds, lists, edits with the preview, disables and deletes a domain', async ({
  page,
  request,
}, testInfo) => {
  const hostname = `${uniqueUsername(testInfo, 'dom')}.example.com`
    .toLowerCase()
    .replace(/_/g, '-');
  const token = await apiLogin(request, 'admin');
  const platformName = (await systemInfo(request, 'nowhere.example.com')).name;

  // Add (zh-CN).
  let c: Catalogue = zhCN;
  await storeToken(page, token, 'zh-CN');
  await page.goto('/domain/domainList');
  await expect(heading1(page)).toHaveText(c['route.domainList']);
  await expect(list(page, c)).toBeVisible();
  await noSeriousViolations(page, 'the domain list (zh-CN)');
  await page.getByRole('button', { name: c['domains.add'], exact: true }).click();
  await expect(dialog(page).getByRole('heading', { name: c['domains.addTitle'] })).toBeVisible();
  // What the contract refuses is said at the field, nothing sent.
  await field(page, c['domains.hostname']).fill(`https://${hostname}/login`);
  await dialog(page).getByRole('button', { name: c['domains.create'], exact: true }).click();
  await expect(dialog(page).getByText(zhCN['validation.hostnameBare'])).toBeVisible();
  await field(page, c['domains.hostname']).fill(hostname);
  // The owner picker offers the partners (the platform first).
  await expect(
    dialog(page).getByRole('combobox', { name: c['domains.owner'] }).getByRole('option'),
  ).not.toHaveCount(1);
  await field(page, c['domains.name']).fill('极光视频');
  await field(page, c['domains.moneyName']).fill('极光币');
  const preview = dialog(page).getByTestId('brand-preview');
  await expect(preview.getByTestId('preview-navbar-name')).toHaveText('极光视频');
  await expect(preview.getByTestId('preview-money-name')).toHaveText(
    fill(c['domains.previewBalance'], { moneyName: '极光币' }),
  );
  await noSeriousViolations(page, 'the domain form (zh-CN)');
  await dialog(page).getByRole('button', { name: c['domains.create'], exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);
  const row = list(page, c).getByRole('row').filter({ hasText: hostname });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('极光视频');
  expect(await systemInfo(request, hostname)).toMatchObject({
    name: '极光视频',
    money_name: '极光币',
  });

  // Edit with the preview (en-US).
  c = enUS;
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(heading1(page)).toHaveText(c['route.domainList']);
  const filters = page.getByRole('search', { name: c['domains.filters'] });
  await filters.getByRole('textbox', { name: c['domains.keyword'], exact: true }).fill(hostname);
  await filters.getByRole('button', { name: c['filter.search'], exact: true }).click();
  await expect(list(page, c).getByRole('row')).toHaveCount(2);
  await noSeriousViolations(page, 'the domain list (en-US)');
  await page.getByRole('button', { name: fill(c['domains.editOne'], { hostname }) }).click();
  await field(page, c['domains.name']).fill('Aurora Video');
  await field(page, c['domains.copyright']).fill('© 2026 Aurora');
  await field(page, c['domains.policeRecordNumber']).fill('PR-2026-1');
  await dialog(page).getByText(c['domains.policeRecord'], { exact: true }).click();
  await field(page, c['domains.themeColor']).fill('#aa3300');
  await expect(preview.getByTestId('preview-navbar-name')).toHaveText('Aurora Video');
  await expect(preview.getByTestId('preview-login-name')).toHaveText('Aurora Video');
  await expect(preview.getByTestId('preview-police')).toHaveText(
    fill(c['domains.previewPolice'], { number: 'PR-2026-1' }),
  );
  await expect(preview.getByTestId('preview-navbar')).toHaveCSS(
    'border-top-color',
    'rgb(170, 51, 0)',
  );
  await noSeriousViolations(page, 'the domain form (en-US)');
  await dialog(page).getByRole('button', { name: c['form.save'], exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(list(page, c).getByRole('row').filter({ hasText: 'Aurora Video' })).toHaveCount(1);
  expect(await systemInfo(request, hostname.toUpperCase())).toMatchObject({
    name: 'Aurora Video',
    copyright: '© 2026 Aurora',
    police_record: '1',
    police_record_number: 'PR-2026-1',
    money_name: '极光币',
    theme_color: '#aa3300',
  });

  // Its history (docs/domain.md §21): the audit log filtered to this domain, newest first.
  await page.getByRole('link', { name: fill(c['audit.timelineOf'], { name: hostname }) }).click();
  await expect(heading1(page)).toHaveText(c['route.auditLog']);
  await expect(page.getByTestId('audit-timeline')).toContainText('domain');
  const log = page.getByRole('table', { name: c['audit.list'], exact: true });
  const logRows = log.locator(':scope > tbody > tr');
  await expect(logRows).toHaveCount(2);
  await expect(logRows.nth(0)).toContainText('domain.edit');
  await expect(logRows.nth(1)).toContainText('domain.add');
  await noSeriousViolations(page, "a domain's history (en-US)");
  await page.goBack();
  await expect(heading1(page)).toHaveText(c['route.domainList']);

  // Disable: the platform's brand again.
  await page.getByRole('button', { name: fill(c['domains.disableOne'], { hostname }) }).click();
  await expect(
    list(page, c).getByRole('row').filter({ hasText: hostname }).getByTestId('domain-status'),
  ).toHaveText(c['domains.disabled']);
  expect((await systemInfo(request, hostname)).name).toBe(platformName);

  // Delete after a confirmation.
  await page.getByRole('button', { name: fill(c['domains.deleteOne'], { hostname }) }).click();
  await expect(
    dialog(page).getByRole('heading', { name: fill(c['domains.deleteTitle'], { hostname }) }),
  ).toBeVisible();
  await dialog(page).getByRole('button', { name: c['domains.delete'], exact: true }).click();
  await expect(list(page, c).getByRole('row').filter({ hasText: hostname })).toHaveCount(0);
  const listed = await apiCall<{ total: number }>(
    request,
    'GET',
    `/domain/list?keyword=${hostname}`,
    { token },
  );
  expect(listed.data.total).toBe(0);
});

test('the admin uploads a logo and a favicon: the preview, get_system_info and the login page show them', async ({
  page,
  browser,
  request,
  baseURL,
}, testInfo) => {
  // A *.localhost name reaches this server (Chromium resolves it to the loopback): the login
  // page is opened on the domain itself, as its visitors would.
  const hostname = `${uniqueUsername(testInfo, 'logo')}.localhost`.toLowerCase().replace(/_/g, '-');
  const logo = makeImage(mediaFile('brand.png'), 'teal', '96x48');
  const favicon = makeImage(mediaFile('favicon.ico'), 'purple', '32x32');
  const svg = mediaFile('disguised.png');
  writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const token = await apiLogin(request, 'admin');

  // Add with an uploaded logo (zh-CN).
  let c: Catalogue = zhCN;
  await storeToken(page, token, 'zh-CN');
  await page.goto('/domain/domainList');
  await page.getByRole('button', { name: c['domains.add'], exact: true }).click();
  await field(page, c['domains.hostname']).fill(hostname);
  await field(page, c['domains.name']).fill('Logo Brand');
  const logoField = () => dialog(page).getByRole('group', { name: c['domains.logo'] });
  const chooser = (name: string) =>
    dialog(page).getByLabel(fill(c['imageField.choose'], { field: name }), { exact: true });
  // A file the logo does not take is refused at the field; one disguised by its name, by the server.
  await chooser(c['domains.logo']).setInputFiles(favicon);
  await expect(logoField()).toContainText(
    fill(c['imageField.wrongType'], { extensions: '.png .jpg .jpeg .webp' }),
  );
  await chooser(c['domains.logo']).setInputFiles(svg);
  await expect(logoField()).toContainText('文件不是 .png .jpg .jpeg .webp 格式（已检查文件内容）');
  await chooser(c['domains.logo']).setInputFiles(logo);
  const preview = dialog(page).getByTestId('brand-preview');
  const previewLogo = preview.getByTestId('preview-login').getByRole('img');
  await expect(previewLogo).toHaveAttribute('src', /^\/api\/v1\/images\/[0-9a-f]{32}\.png$/);
  const logoUrl = (await previewLogo.getAttribute('src'))!;
  await expect(preview.getByTestId('preview-navbar').getByRole('img')).toHaveAttribute(
    'src',
    logoUrl,
  );
  // The image really loads (the browser decoded it).
  await expect
    .poll(() => previewLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(96);
  await expect(
    logoField().getByRole('img', {
      name: fill(c['imageField.preview'], { field: c['domains.logo'] }),
    }),
  ).toBeVisible();
  await noSeriousViolations(page, 'the domain form with an uploaded logo (zh-CN)');
  await dialog(page).getByRole('button', { name: c['domains.create'], exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);

  // Edit: a favicon (en-US).
  c = enUS;
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  const filters = page.getByRole('search', { name: c['domains.filters'] });
  await filters.getByRole('textbox', { name: c['domains.keyword'], exact: true }).fill(hostname);
  await filters.getByRole('button', { name: c['filter.search'], exact: true }).click();
  await expect(list(page, c).getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: fill(c['domains.editOne'], { hostname }) }).click();
  await expect(
    dialog(page).getByRole('button', {
      name: fill(c['imageField.replace'], { field: c['domains.logo'] }),
    }),
  ).toBeVisible();
  await chooser(c['domains.favicon']).setInputFiles(favicon);
  const faviconField = dialog(page).getByRole('group', { name: c['domains.favicon'] });
  await expect(faviconField.getByRole('img')).toHaveAttribute('src', /\.ico$/);
  const faviconUrl = (await faviconField.getByRole('img').getAttribute('src'))!;
  await noSeriousViolations(page, 'the domain form with a logo and a favicon (en-US)');
  await dialog(page).getByRole('button', { name: c['form.save'], exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);

  expect(await systemInfo(request, hostname)).toMatchObject({ logo: logoUrl, favicon: faviconUrl });
  const served = await request.get(logoUrl);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('image/png');

  // A signed-out visitor of the domain's login page sees the logo; the tab shows the favicon.
  const visitor = await browser.newContext({ baseURL: undefined });
  try {
    const login = await visitor.newPage();
    const port = new URL(baseURL!).port;
    await login.goto(`http://${hostname}:${port}/login`);
    const brandLogo = login.locator(`img[src="${logoUrl}"]`);
    await expect(brandLogo).toBeVisible();
    await expect
      .poll(() => brandLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(96);
    await expect(login.getByText('Logo Brand').first()).toBeVisible();
    await expect(login.locator('link[rel~="icon"]')).toHaveAttribute('href', faviconUrl);
  } finally {
    await visitor.close();
  }

  const { data } = await apiCall<{ list: { id: number }[] }>(
    request,
    'GET',
    `/domain/list?keyword=${hostname}`,
    { token },
  );
  await apiCall(request, 'POST', '/domain/delete', {
    token,
    body: { ids: data.list.map((d) => d.id) },
  });
});
