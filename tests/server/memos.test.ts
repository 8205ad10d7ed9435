/**
 * Texts the server writes into the ledger and transfer records (demo data, trial credits) are
 * read in the viewer's language; a person's own remark is shown as written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyLogRow, TransferRecord } from '../../src/api/contract/money';
import * as memoIds from '../../server/platform/db/migrations/0004-memo-ids';
import { createTestApp, engines, type TestApp } from './helpers';

type Lang = 'en-US' | 'zh-CN';
type Page<T> = { list: T[]; total: number };

describe.each(engines)('server-written memos on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  async function read<T>(url: string, token: string, lang: Lang, query: Record<string, string>) {
    const reply = await t.call<Page<T>>('GET', `/api/v1${url}`, {
      token,
      query,
      headers: { lang },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.list;
  }
  const ledgerMemos = async (token: string, lang: Lang) =>
    (await read<MoneyLogRow>('/platform/user_money_log', token, lang, { asset: 'money' })).map(
      (r) => r.memo,
    );
  const transferRemarks = async (token: string, lang: Lang) =>
    (await read<TransferRecord>('/platform/transfer_record', token, lang, { asset: 'money' })).map(
      (r) => r.remark,
    );

  it('demo data and trial credits read in the viewer’s language; a person’s remark as written', async () => {
    const partner = await t.login('partner');
    const added = await t.call('POST', '/api/v1/provider_service/add_by_service', {
      token: partner,
      body: {
        user_type: 2,
        username: 'shop01',
        password: 'Shop#2026',
        name: '新店',
        mobile: '13912340001',
        trial_money: '10',
      },
    });
    expect(added.body.code, added.raw).toBe(1);
    const merchant = await t.user('merchant');
    const given = await t.post(
      '/platform/transfer',
      {
        to_user_id: merchant.id,
        asset: 'money',
        amount: '1',
        direction: 'give',
        remark: 'for June',
      },
      partner,
    );
    expect(given.body.code, given.raw).toBe(1);

    expect(await ledgerMemos(partner, 'zh-CN')).toEqual([
      'for June',
      '向 shop01 发放试用金',
      '演示划拨',
      '演示期初余额',
    ]);
    expect(await ledgerMemos(partner, 'en-US')).toEqual([
      'for June',
      'trial credit to shop01',
      'demo transfer',
      'demo opening balance',
    ]);
    const shop = await t.login('shop01', 'Shop#2026');
    expect(await ledgerMemos(shop, 'zh-CN')).toEqual(['来自 partner 的试用金']);
    expect(await transferRemarks(partner, 'zh-CN')).toEqual(['for June', '演示划拨']);
    expect(await transferRemarks(partner, 'en-US')).toEqual(['for June', 'demo transfer']);
  });

  it('the migration gives the memos written before it their ids', async () => {
    const partner = await t.login('partner');
    await t.call('POST', '/api/v1/provider_service/add_by_service', {
      token: partner,
      body: {
        user_type: 2,
        username: 'shop01',
        password: 'Shop#2026',
        name: '新店',
        mobile: '13912340001',
        trial_money: '10',
      },
    });
    // Back to the columns as they were (English text only), then forward again.
    await memoIds.down(t.db);
    await memoIds.up(t.db);
    expect(await ledgerMemos(partner, 'zh-CN')).toEqual([
      '向 shop01 发放试用金',
      '演示划拨',
      '演示期初余额',
    ]);
    expect(await transferRemarks(partner, 'zh-CN')).toEqual(['演示划拨']);
  });
});
