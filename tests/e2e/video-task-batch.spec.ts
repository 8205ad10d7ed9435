/**
 * A batch of mixed-cut tasks from a CSV file in the browser, against the real server (the demo
 * merchant, in both locales): two clips uploaded and picked into the form's shot group, the
 * "Batch from CSV" dialog opened from the form; its template downloaded (a real file: BOM, the
 * header, an example row in the person's language) and chosen as it is (the server accepts it);
 * a file with three faults lists each by row and column in the person's language; a valid file
 * shows the batch's price, is confirmed, and its tasks appear in the list. axe finds no serious
 * violation on the dialog.
 */
import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { createIntl } from 'react-intl';
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

const file = specMediaDir('task-batch');

// Two uploads, the picker, three checks and one batch added (two 2 s renders queued).
test.describe.configure({ timeout: 120_000 });

/** A message with ICU plurals, in the catalogue's locale. */
const format = (t: Catalogue, locale: string, id: keyof Catalogue, values: object) =>
  createIntl({ locale, messages: t }).formatMessage({ id }, values as Record<string, string>);

/** The server's own sentences (its catalogue, not the console's). */
const SERVER = {
  'zh-CN': { notNumber: '请填写整数', voiceMissing: '没有就绪的声音“Nobody”' },
  'en-US': { notNumber: 'Write a whole number', voiceMissing: 'No ready voice “Nobody”' },
} as const;

const csv = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});

for (const [locale, t] of BOTH_LOCALES) {
  test(`a batch from CSV: the template, every error by row and column, the estimate, the tasks made (${locale})`, async ({
    page,
  }, info) => {
    const tag = `b${info.workerIndex}${Date.now().toString(36)}`;
    const names = [`${tag}-a.mp4`, `${tag}-b.mp4`];
    await signInMerchant(page, locale);
    await uploadToLibrary(
      page,
      t,
      'video',
      names.map((name) => makeClip(file(name))),
    );

    await page.goto('/creation/mixed-task?new=1');
    const drawer = page.getByRole('dialog', { name: t['taskForm.mixedTitle'] });
    await drawer.getByRole('button', { name: fill(t['taskForm.pickShots'], { n: 1 }) }).click();
    const picker = page.getByRole('dialog', { name: t['taskForm.pickerTitleMany'] });
    await searchPicker(picker, t, tag, names.length);
    for (const name of names) {
      await picker
        .getByRole('checkbox', { name: fill(t['resources.select'], { name }) })
        .check({ force: true });
    }
    await picker.getByRole('button', { name: t['taskForm.pickConfirm'] }).click();
    await expect(picker).toBeHidden();

    await drawer.getByRole('button', { name: t['taskBatch.open'] }).click();
    const dialog = page.getByRole('dialog', { name: t['taskBatch.title'] });
    await expect(dialog).toBeVisible();
    const chooser = dialog.getByLabel(t['taskBatch.file']);
    const status = dialog.getByTestId('task-batch-status');

    // The template: a real file, the header and an example row; the server takes it as it is.
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('link', { name: t['taskBatch.template'] }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('batch-template.csv');
    const template = readFileSync((await download.path())!, 'utf8');
    const example = [t['taskBatch.exampleName'], t['taskBatch.exampleTitle']].join(',');
    expect(template).toBe(
      `\uFEFFname,title,subtitle,voice,music,count\r\n${example},` +
        `${t['taskBatch.exampleSubtitle'].includes(',') ? `"${t['taskBatch.exampleSubtitle']}"` : t['taskBatch.exampleSubtitle']},,,1\r\n`,
    );
    await chooser.setInputFiles(csv('batch-template.csv', template));
    const figure = (scope: Locator, id: keyof Catalogue) => scope.getByTestId(`batch-${t[id]}`);
    const estimate = (fileName: string) =>
      dialog.getByRole('region', { name: fill(t['taskBatch.estimate'], { file: fileName }) });
    await expect(figure(estimate('batch-template.csv'), 'taskBatch.tasks')).toHaveText('1');

    // Three faults, each named by its row and column in the person's language; nothing added.
    await chooser.setInputFiles(
      csv('faults.csv', 'name,count,voice\n,1,\nSecond,two,\nThird,1,Nobody\n'),
    );
    const errors = dialog.getByRole('table', { name: t['taskBatch.errors'] });
    await expect(errors).toBeVisible();
    await expect(dialog.getByRole('alert')).toContainText(
      format(t, locale, 'taskBatch.refused', { count: 3, file: 'faults.csv' }),
    );
    const rows = errors.getByRole('row');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toHaveText(`2name${t['validation.taskName']}`);
    await expect(rows.nth(2)).toHaveText(`3count${SERVER[locale].notNumber}`);
    await expect(rows.nth(3)).toContainText(`4voice${SERVER[locale].voiceMissing}`);
    expect(await seriousViolations(page)).toEqual([]);

    // A valid file: its price, confirmed once; the tasks are made and listed.
    const rowNames = [`${tag} one`, `${tag} two`];
    await chooser.setInputFiles(
      csv('good.csv', `name,title,count\n${rowNames[0]},Hello,1\n${rowNames[1]},,1\n`),
    );
    const priced = estimate('good.csv');
    await expect(figure(priced, 'taskBatch.tasks')).toHaveText('2');
    await expect(figure(priced, 'taskForm.outputs')).toHaveText('2');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog
      .getByRole('button', { name: format(t, locale, 'taskBatch.confirm', { count: 2 }) })
      .click();
    await expect(status).toHaveText(
      format(t, locale, 'taskBatch.done', { count: 2, file: 'good.csv' }),
    );
    await dialog.getByRole('button', { name: t['taskBatch.showTasks'] }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer).toBeHidden();
    for (const name of rowNames) {
      await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
    }
  });
}
