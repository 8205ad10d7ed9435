/**
 * The card list pages up to 1000 rows (the card page shows a whole `add` batch on one
 * page); other lists stay at 100. A 1000-row page is read newest-first along the primary key.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddCardsReply, CardListReply } from '../../src/api/contract/cards';
import { cardPageQuery } from '../../server/modules/cards/repo';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, T0, type Reply, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

describe.each(engines)('card list pages of up to 1000 rows on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partnerId: number;

  const get = <T>(token: string, path: string, query: Record<string, string>, headers = EN) =>
    t.call<T>('GET', api(`/recharge_card${path}`), { token, query, headers });
  const ok = <T>(reply: Reply<T>): T => {
    expect(reply.body, reply.raw).toMatchObject({ code: 1 });
    return reply.body.data;
  };
  const refused = (reply: Reply, msg: string) => {
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, msg, data: null });
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    partner = await t.login('partner');
    partnerId = (await t.user('partner')).id;
    // 1000 cards of the platform (one `add` at most), then one of the partner's: 1001 in all.
    const minted = await t.call<AddCardsReply>('POST', api('/recharge_card/add'), {
      token: admin,
      body: { asset: 'digital_voice', face_value: 1, quantity: 1000 },
      headers: EN,
    });
    expect(ok(minted).count).toBe(1000);
    const own = await t.call<AddCardsReply>('POST', api('/recharge_card/add'), {
      token: partner,
      body: { asset: 'money', face_value: '1', quantity: 1 },
      headers: EN,
    });
    expect(ok(own).count).toBe(1);
  });
  afterAll(async () => {
    expect(await reconcile(t.db)).toEqual([]);
    await t.close();
  });

  it('accepts 1000 rows per page and returns 1000 rows, newest first', async () => {
    const first = ok(await get<CardListReply>(admin, '/card_list', { limit: '1000' }));
    expect(first.total).toBe(1001);
    expect(first.list).toHaveLength(1000);
    const ids = first.list.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(1000);
    // The newest is the partner's card; page 2 holds the one card left, the oldest.
    expect(first.list[0]).toMatchObject({ asset: 'money', owner_username: 'partner' });
    const second = ok(await get<CardListReply>(admin, '/card_list', { limit: '1000', page: '2' }));
    expect(second.list).toHaveLength(1);
    expect(second.list[0].id).toBeLessThan(ids[999]);
  });

  it('refuses 1001 rows per page with a clear message, in the caller’s language', async () => {
    const tooMany = 'Rows per page: a whole number from 1 to 1000';
    refused(await get(admin, '/card_list', { limit: '1001' }), tooMany);
    refused(await get(admin, '/card_list', { limit: '0' }), tooMany);
    refused(await get(admin, '/card_list', { limit: '2.5' }), tooMany);
    refused(await get(admin, '/card_list', { limit: '1001' }, ZH), '每页条数为 1–1000 的整数');
  });

  it('keeps the pickers’ list at 100 rows per page', async () => {
    const page = ok(await get<CardListReply>(partner, '/can_operate_card_list', { limit: '100' }));
    expect(page.list).toHaveLength(1);
    refused(await get(partner, '/can_operate_card_list', { limit: '101' }), 'limit: Invalid value');
  });

  it.runIf(engine === 'sqlite')(
    'reads a 1000-row page along the primary key, without sorting the scope',
    async () => {
      for (const viewer of [
        { role: 'admin' as const, id: 1 },
        { role: 'partner' as const, id: partnerId },
      ]) {
        const { sql: text, parameters } = cardPageQuery(
          viewer,
          {},
          { page: 1, limit: 1000 },
          T0,
        ).compile(t.db);
        // The page's size is in the text (a bound LIMIT is compiled again on every run).
        expect(text).toMatch(/limit 1000 offset 0$/);
        const plan = await t.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
        );
        const details = plan.rows.map((r) => r.detail).join(' | ');
        expect(details, viewer.role).toMatch(/SCAN c\b/);
        expect(details, viewer.role).not.toMatch(/TEMP B-TREE/);
      }
    },
  );
});
