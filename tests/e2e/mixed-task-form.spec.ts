/**
 * The mixed-cut create form (the drawer of /creation/mixed-task) in the browser, as the
 * demo merchant: two 2 s clips uploaded to the library, the form opened from the start page's
 * address (`?new=1`), both clips picked into shot group 1 through the picker, a second group, a
 * title; axe finds no serious violation on the drawer and on the picker over it, in both locales.
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

const file = specMediaDir('mixed-form');

// Two uploads, the picker and three axe passes: near 30 s on a busy 2-core machine (the demo
// clones are made in the background while the first specs run).
test.describe.configure({ timeout: 90_000 });

const clip = (name: string) => makeClip(file(name));

const upload = (page: Page, t: Catalogue, files: string[]) =>
  uploadToLibrary(page, t, 'video', files);

for (const [locale, t] of BOTH_LOCALES) {
  test(`the create drawer: pick shots, a group, a title; axe on the drawer and the picker (${locale})`, async ({
    page,
  }, info) => {
    const tag = `m${info.workerIndex}${Date.now().toString(36)}`;
    const names = [`${tag}-a.mp4`, `${tag}-b.mp4`];
    await signInMerchant(page, locale);
    await upload(page, t, names.map(clip));

    await page.goto('/creation/mixed-task?new=1');
    const drawer = page.getByRole('dialog', { name: t['taskForm.mixedTitle'] });
    await expect(drawer).toBeVisible();
    // The request in the address is dropped once the form is open.
    await expect(page).toHaveURL(/\/creation\/mixed-task$/);

    await drawer.getByRole('button', { name: fill(t['taskForm.pickShots'], { n: 1 }) }).click();
    const picker = page.getByRole('dialog', { name: t['taskForm.pickerTitleMany'] });
    await searchPicker(picker, t, tag, names.length);
    for (const name of names) {
      await picker
        .getByRole('checkbox', { name: fill(t['resources.select'], { name }) })
        .check({ force: true });
    }
    await expect(picker.getByText(fill(t['taskForm.pickedCount'], { count: 2 }))).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await picker.getByRole('button', { name: t['taskForm.pickConfirm'] }).click();
    await expect(picker).toBeHidden();
    await expect(drawer).toBeVisible();
    const shots = drawer.getByRole('list', { name: fill(t['taskForm.groupShots'], { n: 1 }) });
    await expect(shots.getByRole('listitem')).toHaveCount(2);

    await drawer.getByRole('button', { name: t['taskForm.addGroup'] }).click();
    await expect(
      drawer.getByRole('group', { name: fill(t['taskForm.groupN'], { n: 2 }) }),
    ).toBeVisible();
    await drawer.getByRole('button', { name: fill(t['taskForm.addTitle'], { max: 5 }) }).click();
    await drawer
      .getByRole('textbox', { name: fill(t['taskForm.titleText'], { n: 1 }) })
      .fill('Sale');
    expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);

    // Something was entered: Cancel asks before discarding it.
    await drawer.getByRole('button', { name: t['form.cancel'] }).click();
    const discard = page.getByRole('alertdialog', { name: t['form.discardTitle'] });
    await expect(discard).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await discard.getByRole('button', { name: t['form.discard'] }).click();
    await expect(drawer).toBeHidden();
  });
}
