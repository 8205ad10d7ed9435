/**
 * The card page at 1000 rows per page against the real server: the admin makes a batch
 * of 1000 cards through the API; on /promotion/card-password, filtered to that batch, 1000 per
 * page is chosen. The table holds far fewer rows than 1000 in the DOM (virtualised) yet counts
 * 1000 for assistive technology; the keyboard scrolls it to the end, where the last (oldest) card
 * is shown under a header that stayed in view; a card selected there by its checkbox is counted
 * by the toolbar. axe on the page.
 */
import type { Page } from '@playwright/test';
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
} from './fixtures';

interface Card {
  id: number;
  card_no: string;
}

const cardsTable = (page: Page) =>
  page.getByRole('table', { name: enUS['cards.list'], exact: true });
const bodyRows = (page: Page) => cardsTable(page).locator('tbody tr');
const cardRow = (page: Page, cardNo: string) =>
  bodyRows(page).filter({ has: page.getByText(cardNo, { exact: true }) });

test('1000 cards on one page: a few rows in the DOM, scrolled to the end, selected there', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await apiLogin(request, 'admin');
  const made = await apiCall<{ batch_no: string; count: number }>(
    request,
    'POST',
    '/recharge_card/add',
    { token: admin, body: { asset: 'digital_voice', face_value: 1, quantity: 1000 } },
  );
  expect(made.code, made.msg).toBe(1);
  expect(made.data.count).toBe(1000);
  const batchNo = made.data.batch_no;
  // The API pages the batch whole, newest first: the page's first and last cards.
  const listed = await apiCall<{ list: Card[]; total: number }>(
    request,
    'GET',
    `/recharge_card/card_list?batch_no=${batchNo}&limit=1000`,
    { token: admin },
  );
  expect(listed.code, listed.msg).toBe(1);
  expect(listed.data.list).toHaveLength(1000);
  const first = listed.data.list[0].card_no;
  const last = listed.data.list[999].card_no;

  await storeToken(page, admin, 'en-US');
  await page.goto('/promotion/card-password');
  await expect(heading1(page)).toHaveText(enUS['route.cardPassword']);
  await page.getByRole('textbox', { name: enUS['cards.batchNo'], exact: true }).fill(batchNo);
  await page.getByRole('button', { name: enUS['filter.search'], exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(20);
  await expect(cardRow(page, first)).toBeVisible();

  await page
    .getByRole('combobox', { name: enUS['table.pageSize'], exact: true })
    .selectOption('1000');
  await expect(cardsTable(page)).toHaveAttribute('aria-rowcount', '1001');
  await expect(cardRow(page, first)).toHaveAttribute('aria-rowindex', '2');
  const inDom = await bodyRows(page).count();
  expect(inDom, 'body rows in the DOM (spacers included)').toBeLessThan(100);
  await expect(cardRow(page, last)).toHaveCount(0);
  await expect(page.getByText(fill(enUS['table.total'], { total: 1000 }))).toBeVisible();

  // The keyboard scrolls the table (its scroll area takes the focus): End goes to the last card.
  const region = page.getByRole('region', { name: enUS['cards.list'], exact: true });
  await region.focus();
  await expect(async () => {
    await page.keyboard.press('End');
    await expect(cardRow(page, last)).toBeInViewport({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(cardRow(page, last)).toHaveAttribute('aria-rowindex', '1001');
  await expect(cardRow(page, first)).toHaveCount(0);
  expect(await bodyRows(page).count()).toBeLessThan(100);
  // The header stayed in view above the rows (sticky).
  await expect(
    cardsTable(page).getByRole('columnheader', { name: enUS['cards.cardNo'], exact: true }),
  ).toBeInViewport();

  // Select the last card, scrolled into view, by its checkbox.
  const box = cardRow(page, last).getByRole('checkbox', {
    name: fill(enUS['cards.selectCard'], { card: last }),
  });
  await box.check({ force: true });
  await expect(box).toBeChecked();
  await expect(
    page.getByRole('button', {
      name: fill(enUS['cards.transferSelected'], { count: 1 }),
      exact: true,
    }),
  ).toBeEnabled();

  expect(await seriousViolations(page), 'card page at 1000 rows').toEqual([]);
});
