/**
 * The AI tool page (/ai-tool/ai-tool-index, admin) against the real server: the admin adds a tool
 * (the template editor flags an undeclared variable as it is typed), tries it and sees the
 * embedded provider's answer badged as demonstration output, then adds an industry, a
 * sub-industry and a script; axe on the page and its dialogs in both locales.
 */
import type { Page, TestInfo } from '@playwright/test';
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
  textField,
  uniqueUsername,
  zhCN,
} from './fixtures';

test.describe.configure({ timeout: 90_000 });

type Catalogue = typeof zhCN;
const dialog = (page: Page) => page.getByRole('dialog');

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

/** A unique key and names for this run (the database outlives a run). */
const uniqueOf = (testInfo: TestInfo) =>
  uniqueUsername(testInfo, 't')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(-20);

async function cleanUp(request: Parameters<typeof apiLogin>[0], key: string, industry: string) {
  const token = await apiLogin(request, 'admin');
  const tools = await apiCall<{ list: { id: number; key: string }[] }>(
    request,
    'GET',
    `/ai_tool/list?keyword=${key}`,
    { token },
  );
  for (const tool of tools.data.list.filter((t) => t.key === key)) {
    await apiCall(request, 'POST', '/ai_tool/delete', { token, body: { id: tool.id } });
  }
  const tree = await apiCall<{ list: { id: number; name: string; children: { id: number }[] }[] }>(
    request,
    'GET',
    '/platform/industry',
    { token },
  );
  for (const top of tree.data.list.filter((i) => i.name === industry)) {
    const ids = [...top.children.map((c) => c.id), top.id];
    const scripts = await apiCall<{ list: { id: number }[] }>(
      request,
      'GET',
      `/platform/script?industry_id=${top.id}&limit=100`,
      { token },
    );
    for (const s of scripts.data.list)
      await apiCall(request, 'POST', '/script/delete', { token, body: { id: s.id } });
    for (const id of ids)
      await apiCall(request, 'POST', '/industry/delete', { token, body: { id } });
  }
}

for (const [locale, c] of [
  ['zh-CN', zhCN],
  ['en-US', enUS],
] as const satisfies readonly (readonly [string, Catalogue])[]) {
  test(`the admin adds a tool, tries it, adds an industry and a script (${locale})`, async ({
    page,
    request,
  }, testInfo) => {
    const unique = uniqueOf(testInfo);
    const key = `k_${unique}`.slice(0, 40);
    const industry = `I${unique.slice(-10)}`;
    await cleanUp(request, key, industry);
    await storeToken(page, await apiLogin(request, 'admin'), locale);
    await page.goto('/ai-tool/ai-tool-index');
    await expect(heading1(page)).toHaveText(c['route.aiToolIndex']);
    const tools = page.getByRole('table', { name: c['aiTool.tabTools'] });
    await expect(tools.getByRole('row').filter({ hasText: 'imitate_title' })).toHaveCount(1);
    await noSeriousViolations(page, 'the tools tab');

    // Add a tool: the editor flags an undeclared variable while typing; the form checks the key.
    await page.getByRole('button', { name: c['aiTool.add'], exact: true }).click();
    const form = dialog(page);
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: c['form.save'], exact: true }).click();
    await expect(form.getByText(c['validation.aiToolKey'])).toBeVisible();
    await textField(form, c['aiTool.key']).fill(key);
    await textField(form, c['aiTool.name']).fill(`Tool ${unique}`);
    await textField(form, c['aiTool.variables']).fill('topic');
    await textField(form, c['aiTool.template']).fill('Write about ${topic} for ${audience}');
    await expect(form.getByText(fill(c['aiTool.undeclared'], { names: 'audience' }))).toBeVisible();
    await noSeriousViolations(page, 'the tool dialog');
    await textField(form, c['aiTool.variables']).fill('topic, audience');
    await expect(form.getByText(fill(c['aiTool.undeclared'], { names: 'audience' }))).toBeHidden();
    await expect(form.getByTestId('declared-variables')).toContainText('audience');
    await form.getByRole('button', { name: c['form.save'], exact: true }).click();
    await expect(form).toBeHidden();
    const row = tools.getByRole('row').filter({ hasText: key });
    await expect(row).toHaveCount(1);

    // Try it: the embedded provider's answer, badged as demonstration output.
    await page.getByRole('button', { name: `${c['aiTool.try']} ${key}`, exact: true }).click();
    const tryDialog = dialog(page);
    await textField(tryDialog, 'topic').fill('home workouts');
    await textField(tryDialog, 'audience').fill('beginners');
    await tryDialog.getByRole('button', { name: c['aiTool.tryRun'], exact: true }).click();
    const answer = tryDialog.getByTestId('try-answer');
    await expect(answer.getByText(c['aiTool.demonstration'], { exact: true })).toBeVisible();
    await expect(answer).toContainText('[Demonstration output]');
    await expect(answer).toContainText('Write about home workouts for beginners');
    await noSeriousViolations(page, 'the try-it dialog');
    await tryDialog.getByRole('button', { name: c['form.cancel'], exact: true }).click();
    await expect(tryDialog).toBeHidden();

    // An industry, a sub-industry, and a script of the sub-industry.
    await page.getByRole('tab', { name: c['aiTool.tabIndustries'] }).click();
    await page.getByRole('button', { name: c['aiTool.industryAdd'], exact: true }).click();
    await textField(dialog(page), c['aiTool.industryName']).fill(industry);
    await dialog(page).getByRole('button', { name: c['form.save'], exact: true }).click();
    await expect(dialog(page)).toBeHidden();
    await page
      .getByRole('button', { name: `${c['aiTool.industryAddSub']} ${industry}`, exact: true })
      .click();
    await textField(dialog(page), c['aiTool.industryName']).fill('Sub');
    await dialog(page).getByRole('button', { name: c['form.save'], exact: true }).click();
    await expect(dialog(page)).toBeHidden();
    const tree = page.getByRole('table', { name: c['aiTool.industryList'] });
    await expect(tree).toContainText(industry);
    await expect(tree).toContainText('└ Sub');
    await noSeriousViolations(page, 'the industries tab');

    await page.getByRole('tab', { name: c['aiTool.tabScripts'] }).click();
    await page.getByRole('button', { name: c['aiTool.scriptAdd'], exact: true }).click();
    const scriptForm = dialog(page);
    await scriptForm
      .getByRole('combobox', { name: c['aiTool.scriptIndustry'] })
      .selectOption({ label: `${industry} / Sub` });
    await scriptForm
      .getByRole('combobox', { name: c['aiTool.scriptKind'] })
      .selectOption({ label: c['aiTool.kind.title'] });
    await textField(scriptForm, c['aiTool.scriptContent']).fill(`Title of ${unique}`);
    await noSeriousViolations(page, 'the script dialog');
    await scriptForm.getByRole('button', { name: c['form.save'], exact: true }).click();
    await expect(scriptForm).toBeHidden();
    const scripts = page.getByRole('table', { name: c['aiTool.tabScripts'] });
    await expect(scripts.getByRole('row').filter({ hasText: `Title of ${unique}` })).toContainText(
      industry === '' ? '' : 'Sub',
    );
    await noSeriousViolations(page, 'the scripts tab');

    await cleanUp(request, key, industry);
  });
}
