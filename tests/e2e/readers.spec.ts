/**
 * The platform's own pages as their readers see them (docs/domain.md §23, §24), against the real
 * server: the help centre opened from the navbar, a notice on the work bench and the admin home,
 * the login and sign-up forms' agreement links opening the domain's text (127.0.0.1 is the demo
 * partner's domain: its own version overrides the platform's), and scripts picked into the
 * digital-human video form and the release plan form; axe in both locales.
 */
import type { APIRequestContext, Page } from '@playwright/test';
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
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

const LOCALES = [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const;

const stamp = () => Date.now().toString(36);

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

/** A published article written through the API by `token`'s owner (admin: the platform's). */
async function publish(
  request: APIRequestContext,
  token: string,
  article: { category: string; title: string; content: string; sort?: number },
) {
  const reply = await apiCall<{ id: number }>(request, 'POST', '/article/add', {
    token,
    body: { sort: 0, status: 'published', ...article },
  });
  expect(reply.code, reply.msg).toBe(1);
}

for (const [locale, c] of LOCALES) {
  test(`the help centre shows the domain's help and tutorials to every role (${locale})`, async ({
    page,
    request,
  }) => {
    const admin = await apiLogin(request, 'admin');
    const id = stamp();
    const help = `Help ${locale} ${id}`;
    const tutorial = `Tutorial ${locale} ${id}`;
    // A high sort: first in its category whatever the other specs wrote.
    await publish(request, admin, {
      category: 'help',
      title: help,
      sort: 9000,
      content: '<h2>How to start</h2><p>Open the menu on the left.</p>',
    });
    await publish(request, admin, {
      category: 'tutorial',
      title: tutorial,
      sort: 9000,
      content: '<p>Record your voice first.</p>',
    });

    // A merchant in zh-CN, an agent (no creation pages at all) in en-US.
    const [account, home] =
      locale === 'zh-CN' ? ['merchant', '/dashboard/workBench'] : ['agent', '/user/info'];
    await storeToken(page, await apiLogin(request, account), locale);
    await page.goto(home);
    await expect(heading1(page)).toBeVisible();
    await page.getByRole('button', { name: c['help.title'], exact: true }).click();
    const drawer = page.getByRole('dialog', { name: c['help.title'] });
    await expect(drawer.getByRole('button', { name: help, exact: true })).toBeVisible();
    await expect(
      drawer.getByRole('button', { name: c['help.categoryHelp'], exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await noSeriousViolations(page, 'help centre');

    await drawer.getByRole('button', { name: help, exact: true }).click();
    await expect(drawer.getByRole('heading', { level: 3, name: help })).toBeVisible();
    // The body as the server stored it.
    await expect(drawer.getByRole('heading', { level: 2, name: 'How to start' })).toBeVisible();
    await expect(drawer.getByText('Open the menu on the left.')).toBeVisible();
    await noSeriousViolations(page, 'help article');
    await drawer.getByRole('button', { name: c['help.back'], exact: true }).click();

    await drawer.getByRole('button', { name: c['help.categoryTutorial'], exact: true }).click();
    await expect(drawer.getByRole('button', { name: tutorial, exact: true })).toBeVisible();
    await expect(drawer.getByRole('button', { name: help, exact: true })).toBeHidden();
    // A title search within the category.
    await drawer.getByRole('textbox', { name: c['help.keyword'] }).fill(`xyz-${id}`);
    await drawer.getByRole('button', { name: c['filter.search'], exact: true }).click();
    await expect(drawer.getByText(c['help.empty'])).toBeVisible();
    await drawer.getByRole('textbox', { name: c['help.keyword'] }).fill(id);
    await drawer.getByRole('button', { name: c['filter.search'], exact: true }).click();
    await drawer.getByRole('button', { name: tutorial, exact: true }).click();
    await expect(drawer.getByText('Record your voice first.')).toBeVisible();
    await drawer.getByRole('button', { name: c['form.close'], exact: true }).click();
    await expect(drawer).toBeHidden();
  });

  test(`the latest notice is on the work bench and the admin home, opened to read (${locale})`, async ({
    page,
    request,
  }) => {
    const admin = await apiLogin(request, 'admin');
    const title = `Notice ${locale} ${stamp()}`;
    await publish(request, admin, {
      category: 'notice',
      title,
      sort: 9999,
      content: '<p>Maintenance <strong>tonight</strong> at 22:00.</p>',
    });

    const reader = locale === 'zh-CN' ? 'merchant' : 'partner';
    for (const [token, path] of [
      [await apiLogin(request, reader), '/dashboard/workBench'],
      [admin, '/home/index'],
    ] as const) {
      await storeToken(page, token, locale);
      await page.goto(path);
      const notices = page.getByRole('region', { name: c['noticeBoard.title'] });
      const link = notices.getByRole('button', { name: title, exact: true });
      await expect(link).toBeVisible();
      await noSeriousViolations(page, `${path} with its notices`);
      await link.click();
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog.getByText('tonight', { exact: true })).toBeVisible();
      await expect(dialog).toContainText('Maintenance tonight at 22:00.');
      await noSeriousViolations(page, `${path}: the notice opened`);
      await dialog.getByRole('button', { name: c['form.close'], exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(link).toBeFocused();
    }
  });

  test(`the login page links the domain's privacy policy, loaded on the click (${locale})`, async ({
    browser,
    baseURL,
    request,
  }) => {
    const id = stamp();
    const effective_at = Date.now() - 60_000;
    for (const [account, text] of [
      ['admin', `Platform privacy ${id}`],
      ['partner', `Partner privacy ${id}`],
    ] as const) {
      const saved = await apiCall(request, 'POST', '/agreement/save', {
        token: await apiLogin(request, account),
        body: { kind: 'privacy', content: `<p>${text}</p>`, effective_at },
      });
      expect(saved.code, saved.msg).toBe(1);
    }

    const context = await browser.newContext({
      baseURL,
      storageState: {
        cookies: [],
        origins: [{ origin: baseURL!, localStorage: [{ name: 'locale', value: locale }] }],
      },
    });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto('/login');
    await expect(heading1(page)).toHaveText(c['login.title']);
    const link = page.getByRole('button', { name: c['agreementLink.privacy'], exact: true });
    await expect(link).toBeVisible();
    await noSeriousViolations(page, 'login page with its agreement links');
    // Nothing of the reading dialog comes with the page (its budget: bundle.spec.ts).
    expect(asked.filter((url) => /agreement-dialog|\/agreement\/detail/.test(url))).toEqual([]);

    await link.click();
    const dialog = page.getByRole('dialog', { name: c['agreementDialog.privacy'] });
    // 127.0.0.1 is the demo partner's domain: its version, not the platform's.
    await expect(dialog.getByText(`Partner privacy ${id}`)).toBeVisible();
    await expect(dialog.getByText(`Platform privacy ${id}`)).toHaveCount(0);
    expect(asked.some((url) => /agreement-dialog/.test(url))).toBe(true);
    expect(
      asked.some((url) => /\/agreement\/detail\?kind=privacy&domain=127\.0\.0\.1/.test(url)),
    ).toBe(true);
    await noSeriousViolations(page, 'privacy policy dialog');
    await dialog.getByRole('button', { name: c['form.close'], exact: true }).click();
    await expect(dialog).toBeHidden();

    // The sign-up form links it too, over its own dialog.
    await page.getByRole('button', { name: c['login.register'], exact: true }).click();
    const register = page.getByRole('dialog', { name: c['register.title'] });
    await register.getByRole('button', { name: c['agreementLink.privacy'], exact: true }).click();
    const again = page.getByRole('dialog', { name: c['agreementDialog.privacy'] });
    await expect(again.getByText(`Partner privacy ${id}`)).toBeVisible();
    await noSeriousViolations(page, 'privacy policy over the sign-up form');
    await page.keyboard.press('Escape');
    await expect(again).toBeHidden();
    await expect(register).toBeVisible();
    await context.close();
  });

  test(`a script is picked into the digital-human text and the release plan (${locale})`, async ({
    page,
    request,
  }) => {
    const admin = await apiLogin(request, 'admin');
    const id = stamp();
    const post = async <T>(path: string, body: object) => {
      const reply = await apiCall<T>(request, 'POST', path, { token: admin, body });
      expect(reply.code, reply.msg).toBe(1);
      return reply.data;
    };
    const top = await post<{ id: number }>('/industry/add', { name: `Food ${id}` });
    const sub = await post<{ id: number }>('/industry/add', {
      name: `Cafés ${id}`,
      parent_id: top.id,
    });
    const copy = `Welcome to our café ${id}, fresh coffee every morning.`;
    await post('/script/add', { industry_id: sub.id, kind: 'copy', content: copy });
    await post('/script/add', { industry_id: sub.id, kind: 'title', content: `Coffee ${id}` });
    await post('/script/add', {
      industry_id: top.id,
      kind: 'topic',
      content: `#coffee${id} #morning`,
    });

    await storeToken(page, await apiLogin(request, 'merchant'), locale);
    await page.goto('/digital-human/create-video');
    const form = page.getByRole('region', { name: c['route.createVideo'] });
    const text = form.getByRole('textbox', { name: c['dhVideoForm.text'] });
    await text.fill('Hello.');
    await form
      .getByRole('button', { name: fill(c['scripts.pickFor'], { field: c['dhVideoForm.text'] }) })
      .click();
    const picker = page.getByRole('dialog', { name: c['scripts.titleCopy'] });
    // The top-level industry takes its sub-industry's scripts.
    await picker
      .getByRole('combobox', { name: c['scripts.industry'] })
      .selectOption({ label: `Food ${id}` });
    const row = picker.getByRole('listitem').filter({ hasText: copy });
    await expect(row).toBeVisible();
    await expect(row).toContainText(`Cafés ${id}`);
    // Only spoken copy: the title script of the same industry is not offered.
    await expect(picker.getByText(`Coffee ${id}`, { exact: true })).toHaveCount(0);
    await noSeriousViolations(page, 'script picker');
    await row
      .getByRole('button', { name: new RegExp(`^${c['scripts.useOne'].split('{')[0]}`) })
      .click();
    await expect(picker).toBeHidden();
    await expect(text).toHaveValue(`Hello.\n${copy}`);

    // The release plan form (a drawer): a title script to the titles, a topic script's topics.
    await page.goto('/matrix-distribution/release-plan');
    await page.getByRole('button', { name: c['matrixPlans.new'], exact: true }).click();
    const plan = page.getByTestId('plan-form');
    await plan
      .getByRole('button', { name: fill(c['scripts.pickFor'], { field: c['matrixPlans.titles'] }) })
      .click();
    const titles = page.getByRole('dialog', { name: c['scripts.titleTitle'] });
    await titles.getByRole('textbox', { name: c['scripts.keyword'] }).fill(id);
    await titles.getByRole('button', { name: c['filter.search'], exact: true }).click();
    await expect(titles.getByRole('listitem')).toHaveCount(1);
    await noSeriousViolations(page, 'script picker over the plan form');
    await titles.getByRole('listitem').getByRole('button').click();
    await expect(
      plan.getByRole('list', { name: c['matrixPlans.titles'] }).getByText(`Coffee ${id}`),
    ).toBeVisible();
    await plan
      .getByRole('button', { name: fill(c['scripts.pickFor'], { field: c['matrixPlans.topics'] }) })
      .click();
    const topics = page.getByRole('dialog', { name: c['scripts.titleTopic'] });
    // Enter in the keyword searches the scripts and submits nothing of the plan form around.
    await topics.getByRole('textbox', { name: c['scripts.keyword'] }).fill(id);
    await topics.getByRole('textbox', { name: c['scripts.keyword'] }).press('Enter');
    await expect(topics.getByRole('listitem')).toHaveCount(1);
    await topics
      .getByRole('listitem')
      .filter({ hasText: `coffee${id}` })
      .getByRole('button')
      .click();
    await expect(plan.getByRole('textbox', { name: c['matrixPlans.topics'] })).toHaveValue(
      `coffee${id} morning`,
    );
    // Still the form being filled in: nothing was submitted.
    await expect(plan.getByRole('textbox', { name: c['matrixPlans.name'] })).toBeVisible();
  });
}
