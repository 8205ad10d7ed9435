/**
 * /promotion/card-password against the real server. A partner of its own (made by the admin, paid
 * 1000 by the platform, with a merchant of its own) generates 3 money cards and pays for them,
 * transfers one to its merchant, who redeems it on its property page; the partner then sees it
 * used, is told "already used" when it tries the same card, redeems one of its own, exports the
 * batch's unused cards as CSV (the file's content is checked) and deletes the batch (refunded).
 * In zh-CN, with axe on the page and each dialog; then an admin's run in en-US.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  apiCall,
  apiLogin,
  contextWithToken,
  enUS,
  expect,
  fill,
  heading1,
  seriousViolations,
  storeToken,
  test,
  zhCN,
  type MessageId,
  MONEY,
} from './fixtures';
const PASSWORD = 'Start#2026';

interface Card {
  id: number;
  card_no: string;
  card_pwd: string;
  pwd_masked: boolean;
  status: number;
  used_by_username: string | null;
}

async function money(request: APIRequestContext, token: string): Promise<string> {
  const reply = await apiCall<{ money: string }>(request, 'GET', '/platform/get_account', {
    token,
  });
  expect(reply.code, reply.msg).toBe(1);
  return reply.data.money;
}

async function cardsOf(request: APIRequestContext, token: string, batchNo: string) {
  const reply = await apiCall<{ list: Card[] }>(
    request,
    'GET',
    `/recharge_card/card_list?batch_no=${batchNo}&limit=100`,
    { token },
  );
  expect(reply.code, reply.msg).toBe(1);
  return reply.data.list;
}

/** A partner of its own with 1000 of money and a merchant under it, so balances are ours alone. */
async function partnerWithMerchant(request: APIRequestContext) {
  const tag = `${Date.now() % 1e7}`.padStart(7, '0');
  const admin = await apiLogin(request, 'admin');
  const partner = await apiCall<{ id: number }>(request, 'POST', '/provider_service/add', {
    token: admin,
    body: {
      user_type: 1,
      username: `cp_${tag}`,
      password: PASSWORD,
      service_prefix_no: `C${tag.slice(-5)}`,
    },
  });
  expect(partner.code, partner.msg).toBe(1);
  const paid = await apiCall(request, 'POST', '/platform/transfer', {
    token: admin,
    body: { to_user_id: partner.data.id, asset: 'money', amount: '1000', remark: 'e2e cards' },
  });
  expect(paid.code, paid.msg).toBe(1);
  await apiCall(request, 'POST', '/platform/logout', { token: admin });
  const partnerToken = await apiLogin(request, `cp_${tag}`, PASSWORD);
  const merchant = await apiCall<{ id: number }>(
    request,
    'POST',
    '/provider_service/add_by_service',
    { token: partnerToken, body: { user_type: 2, username: `cm_${tag}`, password: PASSWORD } },
  );
  expect(merchant.code, merchant.msg).toBe(1);
  return {
    partnerToken,
    merchant: { id: merchant.data.id, username: `cm_${tag}` },
  };
}

const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true });
const cardRows = (page: Page, locale: Record<MessageId, string>) =>
  page.getByRole('table', { name: locale['cards.list'], exact: true }).locator('tbody tr');

/** The row of a card (its batch number contains the first card's number: match the cell). */
const cardRow = (page: Page, locale: Record<MessageId, string>, cardNo: string) =>
  cardRows(page, locale).filter({ has: page.getByText(cardNo, { exact: true }) });

async function noSeriousViolations(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
}

test('a partner generates, transfers, redeems, exports and deletes cards (zh-CN)', async ({
  page,
  request,
  playwright,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { partnerToken, merchant } = await partnerWithMerchant(request);
  expect(await money(request, partnerToken)).toBe('1000.00');
  await storeToken(page, partnerToken, 'zh-CN');
  await page.goto('/promotion/card-password');
  await expect(heading1(page)).toHaveText(zhCN['route.cardPassword']);
  await expect(page.getByRole('table', { name: zhCN['cards.list'] })).toBeVisible();
  await expect(page.getByText(zhCN['table.empty'])).toBeVisible();
  await noSeriousViolations(page, 'card page');

  // Generate 3 money cards of 10: the confirmation names the total the partner pays.
  await button(page, zhCN['cards.generate']).click();
  const generate = page.getByRole('dialog', { name: zhCN['cards.generate'] });
  await expect(generate).toBeVisible();
  await noSeriousViolations(page, 'generate dialog');
  await generate
    .getByRole('textbox', { name: fill(zhCN['cards.faceValueMoney'], { moneyName: MONEY }) })
    .fill('10');
  await generate.getByRole('textbox', { name: zhCN['cards.quantity'] }).fill('3');
  await button(generate, zhCN['property.next']).click();
  await expect(generate.getByTestId('generate-total')).toHaveText(`30.00 ${MONEY}`);
  await noSeriousViolations(page, 'generate confirmation');
  await button(generate, zhCN['cards.generateConfirm']).click();
  await expect(generate.getByRole('status')).toHaveText(
    fill(zhCN['cards.generated'], { count: 3 }),
  );
  const batchNo = (await generate.getByTestId('generated-batch').textContent())!;
  expect(batchNo).toMatch(/^BC\d{5}\d{12}$/);
  expect(await money(request, partnerToken)).toBe('970.00');
  await button(generate, zhCN['cards.showBatch']).click();
  await expect(generate).toBeHidden();
  await expect(page.getByRole('textbox', { name: zhCN['cards.batchNo'], exact: true })).toHaveValue(
    batchNo,
  );
  await expect(cardRows(page, zhCN)).toHaveCount(3);
  await expect(cardRows(page, zhCN).getByTestId('card-status')).toHaveText([
    zhCN['cards.statusUnused'],
    zhCN['cards.statusUnused'],
    zhCN['cards.statusUnused'],
  ]);

  const [third, second, first] = await cardsOf(request, partnerToken, batchNo);
  // The holder's password shows masked until asked for, and can be copied.
  const firstRow = cardRow(page, zhCN, first.card_no);
  await expect(firstRow.getByTestId('card-pwd')).toHaveText(
    `${first.card_pwd.slice(0, 4)}********${first.card_pwd.slice(-4)}`,
  );
  await firstRow
    .getByRole('button', { name: fill(zhCN['cards.showPwdOf'], { card: first.card_no }) })
    .click();
  await expect(firstRow.getByTestId('card-pwd')).toHaveText(first.card_pwd);

  // Transfer the first card to the merchant.
  await firstRow
    .getByRole('checkbox', { name: fill(zhCN['cards.selectCard'], { card: first.card_no }) })
    .check({ force: true });
  await button(page, fill(zhCN['cards.transferSelected'], { count: 1 })).click();
  const transfer = page.getByRole('dialog', { name: zhCN['cards.transfer'] });
  await transfer.getByRole('searchbox', { name: zhCN['cards.searchUser'] }).fill(merchant.username);
  const target = transfer.getByRole('combobox', { name: zhCN['cards.transferTo'] });
  await expect(target.locator('option', { hasText: merchant.username })).toHaveCount(1);
  await target.selectOption({ value: String(merchant.id) });
  await noSeriousViolations(page, 'transfer dialog');
  await button(transfer, zhCN['property.next']).click();
  await button(transfer, zhCN['cards.transferConfirm']).click();
  await expect(transfer.getByRole('status')).toHaveText(
    fill(zhCN['cards.transferred'], { count: 1, user: merchant.username }),
  );
  await button(transfer, zhCN['form.close']).first().click();
  // The partner no longer holds it: its password is masked, with no copy.
  await expect(firstRow.getByTestId('card-pwd')).toHaveText(/\*{8}/);
  await expect(
    firstRow.getByRole('button', { name: fill(zhCN['cards.copyPwdOf'], { card: first.card_no }) }),
  ).toHaveCount(0);

  // The merchant, in a browser session of its own, redeems it from its property page.
  const merchantApi = await playwright.request.newContext({ baseURL });
  const merchantToken = await apiLogin(merchantApi, merchant.username, PASSWORD);
  const held = (await cardsOf(merchantApi, merchantToken, batchNo)).find((c) => c.id === first.id)!;
  expect(held.pwd_masked).toBe(false);
  expect(await money(merchantApi, merchantToken)).toBe('0.00');
  const merchantContext = await contextWithToken(browser, baseURL!, merchantToken);
  const merchantPage = await merchantContext.newPage();
  await merchantPage.goto('/account/property');
  await button(merchantPage, zhCN['cards.redeem']).click();
  const merchantRedeem = merchantPage.getByRole('dialog', { name: zhCN['cards.redeemTitle'] });
  await merchantRedeem.getByRole('textbox', { name: zhCN['cards.cardNo'] }).fill(held.card_no);
  await merchantRedeem.getByRole('textbox', { name: zhCN['cards.cardPwd'] }).fill(held.card_pwd);
  await button(merchantRedeem, zhCN['cards.redeemSubmit']).click();
  await expect(merchantRedeem.getByRole('status')).toHaveText(zhCN['cards.redeemed']);
  await button(merchantRedeem, zhCN['form.close']).first().click();
  await expect(merchantPage.getByTestId('balance-money')).toContainText('10.00');
  expect(await money(merchantApi, merchantToken)).toBe('10.00');
  await merchantContext.close();
  await merchantApi.dispose();

  // The partner's list shows it used, by the merchant.
  await button(page, zhCN['filter.search']).click();
  await expect(firstRow.getByTestId('card-status')).toHaveText(zhCN['cards.statusUsed']);
  await expect(firstRow).toContainText(merchant.username);

  // Redeeming it again is refused with the server's words; a card of its own is credited.
  await button(page, zhCN['cards.redeem']).click();
  const redeem = page.getByRole('dialog', { name: zhCN['cards.redeemTitle'] });
  await noSeriousViolations(page, 'redeem dialog');
  await redeem.getByRole('textbox', { name: zhCN['cards.cardNo'] }).fill(first.card_no);
  await redeem.getByRole('textbox', { name: zhCN['cards.cardPwd'] }).fill(held.card_pwd);
  await button(redeem, zhCN['cards.redeemSubmit']).click();
  await expect(redeem.getByRole('alert')).toContainText('该卡密已被使用');
  await noSeriousViolations(page, 'redeem refused');
  await button(redeem, zhCN['cards.tryAgain']).click();
  await redeem.getByRole('textbox', { name: zhCN['cards.cardNo'] }).fill(second.card_no);
  await redeem.getByRole('textbox', { name: zhCN['cards.cardPwd'] }).fill(second.card_pwd);
  await button(redeem, zhCN['cards.redeemSubmit']).click();
  await expect(redeem.getByRole('status')).toHaveText(zhCN['cards.redeemed']);
  await expect(redeem).toContainText(`10.00 ${MONEY}`);
  expect(await money(request, partnerToken)).toBe('980.00');
  await button(redeem, zhCN['form.close']).first().click();
  await expect(cardRow(page, zhCN, second.card_no).getByTestId('card-status')).toHaveText(
    zhCN['cards.statusUsed'],
  );

  // Export the batch's unused cards: the CSV holds exactly that row, password in full.
  await page
    .getByRole('combobox', { name: zhCN['cards.status'], exact: true })
    .selectOption({ value: '0' });
  await button(page, zhCN['filter.search']).click();
  await expect(cardRows(page, zhCN)).toHaveCount(1);
  const downloading = page.waitForEvent('download');
  await button(page, zhCN['cards.export']).click();
  const download = await downloading;
  await expect(page.getByTestId('export-status')).toHaveText(zhCN['cards.exportStarted']);
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = csv.trim().split(/\r\n/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(third.card_no);
  expect(lines[1]).toContain(third.card_pwd);
  expect(download.url()).not.toContain(partnerToken);
  // In the language the export was asked for in (the ticket's: a link sends no `lang`).
  expect(lines[0]).toMatch(/^卡号,/);

  // Delete the batch: the confirmation says what is refunded; the unused card's value comes back.
  await button(page, zhCN['filter.reset']).click();
  await button(page, fill(zhCN['cards.showBatchOf'], { batch: batchNo }))
    .first()
    .click();
  await expect(cardRows(page, zhCN)).toHaveCount(3);
  await button(page, fill(zhCN['cards.deleteBatch'], { batch: batchNo })).click();
  const confirm = page.getByRole('dialog', { name: zhCN['cards.deleteTitle'] });
  await expect(confirm).toContainText(zhCN['cards.deleteRefund']);
  await noSeriousViolations(page, 'delete dialog');
  await button(confirm, zhCN['cards.delete']).click();
  await expect(confirm).toBeHidden();
  expect(await money(request, partnerToken)).toBe('990.00');
  // The used cards stay, as history.
  await expect(cardRows(page, zhCN)).toHaveCount(2);
  await expect(cardRows(page, zhCN).getByTestId('card-status')).toHaveText([
    zhCN['cards.statusUsed'],
    zhCN['cards.statusUsed'],
  ]);
});

test('an admin mints cards, voids, restores, remarks one and sets its expiry (en-US)', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await apiLogin(request, 'admin');
  await storeToken(page, admin, 'en-US');
  await page.goto('/promotion/card-password');
  await expect(heading1(page)).toHaveText(enUS['route.cardPassword']);
  // Admins have no balance to credit: no redeem.
  await expect(button(page, enUS['cards.redeem'])).toHaveCount(0);

  await button(page, enUS['cards.generate']).click();
  const generate = page.getByRole('dialog', { name: enUS['cards.generate'] });
  await generate
    .getByRole('combobox', { name: enUS['cards.asset'] })
    .selectOption({ value: 'digital_man' });
  const face = generate.getByRole('textbox', { name: enUS['cards.faceValueMinutes'] });
  await face.fill('0');
  await generate.getByRole('textbox', { name: enUS['cards.quantity'] }).fill('2');
  await button(generate, enUS['property.next']).click();
  // The contract's rule, in the form: nothing is sent.
  await expect(generate.getByText(/greater than 0|whole number/i).first()).toBeVisible();
  await face.fill('30');
  await button(generate, enUS['property.next']).click();
  await expect(generate).toContainText(enUS['cards.minted']);
  await expect(generate).toContainText('30 min');
  await noSeriousViolations(page, 'admin confirmation');
  await button(generate, enUS['cards.generateConfirm']).click();
  await expect(generate.getByRole('status')).toHaveText('2 cards generated');
  await button(generate, enUS['cards.showBatch']).click();
  await expect(cardRows(page, enUS)).toHaveCount(2);
  await noSeriousViolations(page, 'card page (en-US)');

  const row = cardRows(page, enUS).first();
  const cardNo = (await row.locator('td').nth(1).innerText()).trim();
  await button(row, fill(enUS['cards.voidCard'], { card: cardNo })).click();
  await expect(row.getByTestId('card-status')).toHaveText(enUS['cards.statusVoid']);
  await button(row, fill(enUS['cards.restoreCard'], { card: cardNo })).click();
  await expect(row.getByTestId('card-status')).toHaveText(enUS['cards.statusUnused']);

  await button(row, fill(enUS['cards.remarkCard'], { card: cardNo })).click();
  const remark = page.getByRole('dialog', {
    name: fill(enUS['cards.remarkTitle'], { card: cardNo }),
  });
  await remark.getByRole('textbox', { name: enUS['cards.remark'] }).fill('for the spring fair');
  await noSeriousViolations(page, 'remark dialog');
  await button(remark, enUS['form.save']).click();
  await expect(row).toContainText(
    fill(enUS['cards.remarkAdmin'], { remark: 'for the spring fair' }),
  );

  // Expiry: a past day is refused in the form; a future day is saved; empty means never.
  const expiryOf = fill(enUS['cards.expiryOf'], { card: cardNo });
  await button(row, expiryOf).click();
  const expiry = page.getByRole('dialog', { name: expiryOf });
  const day = expiry.getByLabel(enUS['cards.expiry'], { exact: true });
  await day.fill('2020-01-01');
  await button(expiry, enUS['form.save']).click();
  await expect(expiry.getByText(enUS['cards.expiryPast'])).toBeVisible();
  await noSeriousViolations(page, 'expiry dialog');
  // The console's calendar opens inside the dialog; a day picked there is written YYYY-MM-DD.
  await button(expiry, fill(enUS['date.open'], { field: enUS['cards.expiry'] })).click();
  const calendar = page.getByRole('application', {
    name: fill(enUS['date.calendar'], { field: enUS['cards.expiry'] }),
  });
  await expect(calendar).toBeVisible();
  await noSeriousViolations(page, 'expiry calendar');
  await calendar.getByRole('button', { name: 'Choose Wednesday, January 15, 2020' }).click();
  await expect(calendar).toBeHidden();
  await expect(expiry).toBeVisible();
  await expect(day).toHaveValue('2020-01-15');
  const next = new Date();
  next.setFullYear(next.getFullYear() + 1);
  const iso = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-${String(next.getDate()).padStart(2, '0')}`;
  await day.fill(iso);
  await button(expiry, enUS['form.save']).click();
  await expect(expiry).toBeHidden();
  const listed = async () => {
    const reply = await apiCall<{ list: { card_no: string; expire_at: number | null }[] }>(
      request,
      'GET',
      `/recharge_card/card_list?card_no=${cardNo}`,
      { token: admin },
    );
    return reply.data.list.find((c) => c.card_no === cardNo)?.expire_at;
  };
  await expect.poll(listed).toBeGreaterThan(Date.now());
  await expect(row).not.toContainText(enUS['cards.never']);
  await button(row, expiryOf).click();
  await expect(day).toHaveValue(iso);
  await day.fill('');
  await button(expiry, enUS['form.save']).click();
  await expect(expiry).toBeHidden();
  await expect.poll(listed).toBeNull();
});
