/**
 * Large lists count their total once per state of the table and start deep pages from cached
 * anchors (server/platform/db/list-cache.ts; docs/decisions.md "List totals, deep pages and the speed
 * bench"). What a person sees must not change: every write shows in the next page, by the API
 * or straight to the database, and a deep page holds exactly the rows an offset would give.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  DummyDriver,
  type DatabaseConnection,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddCardsReply, CardListReply } from '../../src/api/contract/cards';
import type { CustomerPage } from '../../src/api/contract/customers';
import { ANCHOR_EVERY } from '../../server/platform/db/list-cache';
import type { Database } from '../../server/platform/db/schema';
import { WriteVersions, writtenKeys } from '../../server/platform/db/write-versions';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { api, createTestApp, engines, HOUR, T0, type Reply, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

describe('which writes a statement makes', () => {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });

  it('names the table of an insert or delete and the table.column of each update', () => {
    expect(
      writtenKeys(
        db
          .insertInto('users')
          .values({ username: 'x' } as never)
          .compile().query,
      ),
    ).toEqual(['users']);
    expect(writtenKeys(db.deleteFrom('sessions').where('id', '=', 1).compile().query)).toEqual([
      'sessions',
    ]);
    expect(
      writtenKeys(
        db.updateTable('recharge_cards as c').set({ status: 2, updated_at: 1 }).compile().query,
      ),
    ).toEqual(['recharge_cards.status', 'recharge_cards.updated_at']);
    expect(writtenKeys(db.selectFrom('users').selectAll().compile().query)).toEqual([]);
    const cteUpdate = db
      .with('changed', (qb) => qb.updateTable('users').set({ status: 1 }).returning('id'))
      .selectFrom('changed')
      .selectAll();
    expect(writtenKeys(cteUpdate.compile().query)).toEqual(['users.status']);
  });

  it('takes raw SQL that writes as a change to everything, and raw reads as nothing', () => {
    const raw = (text: string) => writtenKeys(CompiledQuery.raw(text).query);
    expect(raw('update users set money = 0')).toBe('all');
    expect(raw('with gone as (delete from sessions returning id) select count(*) from gone')).toBe(
      'all',
    );
    expect(raw('with x as (select id from users) update users set status = 1')).toBe('all');
    expect(raw('begin')).toEqual([]);
    expect(raw('select 1')).toEqual([]);
    expect(raw('select id, updated_at from users where id in (1) for update')).toEqual([]);
  });

  it('changes a version on inserts, deletes and updates of the columns it reads, not others', () => {
    const versions = new WriteVersions();
    const version = () => versions.versionOf('users', ['deleted_at']);
    const start = version();
    versions.bump(['users.money']);
    expect(version()).toBe(start);
    versions.bump(['users.deleted_at']);
    const afterDelete = version();
    expect(afterDelete).not.toBe(start);
    versions.bump(['users']);
    expect(version()).not.toBe(afterDelete);
    const beforeRaw = version();
    versions.bump('all');
    expect(version()).not.toBe(beforeRaw);
  });

  it('counts a write made in a transaction again when the transaction ends', () => {
    const versions = new WriteVersions();
    const version = () => versions.versionOf('users', ['status']);
    const connection = {} as DatabaseConnection;
    versions.transactionBegan(connection);
    versions.wrote(['users.status']);
    // Another connection counted its total from the state before the commit, at this version.
    const seenBeforeCommit = version();
    versions.transactionEnded(connection);
    expect(version()).not.toBe(seenBeforeCommit);
    const afterCommit = version();
    versions.transactionBegan(connection);
    versions.transactionEnded(connection); // nothing written: nothing outdated
    expect(version()).toBe(afterCommit);
  });
});

describe.each(engines)('list totals and deep pages on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partnerId: number;

  const ok = <T>(reply: Reply<T>): T => {
    expect(reply.body, reply.raw).toMatchObject({ code: 1 });
    return reply.body.data;
  };
  const cardPage = async (query: Record<string, string> = {}) =>
    ok(
      await t.call<CardListReply>('GET', api('/recharge_card/card_list'), {
        token: admin,
        query,
        headers: EN,
      }),
    );
  const mint = async (quantity: number, extra: Record<string, unknown> = {}) =>
    ok(
      await t.call<AddCardsReply>('POST', api('/recharge_card/add'), {
        token: admin,
        body: { asset: 'digital_voice', face_value: 1, quantity, ...extra },
        headers: EN,
      }),
    );
  /** The admin's cards as an offset would page them: every live card, newest first. */
  const liveCardIds = async () =>
    (
      await t.db
        .selectFrom('recharge_cards')
        .select('id')
        .where('deleted_at', 'is', null)
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => Number(r.id));
  const expectPagesLikeOffset = async (ids: number[], pages: number[], limit = 20) => {
    for (const page of pages) {
      const got = await cardPage({ page: String(page), limit: String(limit) });
      expect(got.total).toBe(ids.length);
      expect(
        got.list.map((r) => r.id),
        `page ${page} of ${limit}`,
      ).toEqual(ids.slice((page - 1) * limit, page * limit));
    }
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    partner = await t.login('partner');
    partnerId = (await t.user('partner')).id;
    expect((await mint(2 * ANCHOR_EVERY + 50)).count).toBe(2 * ANCHOR_EVERY + 50);
  });
  afterAll(async () => {
    expect(await reconcile(t.db)).toEqual([]);
    await t.close();
  });

  it('shows every write in the next total: through the API or straight to the database', async () => {
    const start = (await cardPage()).total;
    expect(start).toBe((await liveCardIds()).length);
    await mint(5);
    expect((await cardPage()).total).toBe(start + 5);
    const [newest] = await liveCardIds();
    // Through the same database handle, but not through a service: still seen (the void
    // cards' total was counted before the change).
    const voidBefore = (await cardPage({ status: '2' })).total;
    await t.db.updateTable('recharge_cards').set({ status: 2 }).where('id', '=', newest).execute();
    expect((await cardPage({ status: '2' })).total).toBe(voidBefore + 1);
    await t.db.updateTable('recharge_cards').set({ status: 0 }).where('id', '=', newest).execute();
    expect((await cardPage({ status: '2' })).total).toBe(voidBefore);
    // Raw SQL whose write follows a CTE.
    await sql`with target as (select id from recharge_cards where id = ${newest}) update recharge_cards set status = 2 where id in (select id from target)`.execute(
      t.db,
    );
    expect((await cardPage({ status: '2' })).total).toBe(voidBefore + 1);
    await t.db.updateTable('recharge_cards').set({ status: 0 }).where('id', '=', newest).execute();
    ok(
      await t.call('POST', api('/recharge_card/batch_del'), {
        token: admin,
        body: { ids: [newest] },
        headers: EN,
      }),
    );
    expect((await cardPage()).total).toBe(start + 4);
  });

  it.runIf(engine === 'sqlite')(
    'sees at once what another connection wrote to the SQLite file (no time limit needed)',
    async () => {
      const ids = await liveCardIds();
      const deepPage = Math.floor(ids.length / 20); // starts from an anchor
      await expectPagesLikeOffset(ids, [1, deepPage]);
      const other = new BetterSqlite3(path.join(t.dataDir, 'app.db'));
      try {
        other.prepare('update recharge_cards set deleted_at = ? where id = ?').run(T0, ids[3]);
        const after = ids.filter((id) => id !== ids[3]);
        await expectPagesLikeOffset(after, [1, deepPage]);
        other.prepare('update recharge_cards set deleted_at = null where id = ?').run(ids[3]);
        await expectPagesLikeOffset(ids, [1, deepPage]);
      } finally {
        other.close();
      }
    },
  );

  it('gives deep pages exactly the rows an offset gives, before and after new cards', async () => {
    const anchorPage = ANCHOR_EVERY / 20 + 1; // the first page that starts from an anchor
    const pages = [
      1,
      anchorPage - 1,
      anchorPage,
      anchorPage + 1,
      2 * anchorPage,
      2 * anchorPage + 1,
    ];
    // Pages of 7 rows start between anchors: from the anchor before, skipping the rest.
    const sevens = [1, 3, 4, 5, 9, 10, Math.floor((2 * ANCHOR_EVERY) / 7) + 1];
    await expectPagesLikeOffset(await liveCardIds(), pages);
    await expectPagesLikeOffset(await liveCardIds(), pages); // from the cache this time
    await expectPagesLikeOffset(await liveCardIds(), sevens, 7);
    await mint(7); // newer cards: every page shifts by 7
    await expectPagesLikeOffset(await liveCardIds(), pages);
    await expectPagesLikeOffset(await liveCardIds(), sevens, 7);
    const ids = await liveCardIds();
    const past = await cardPage({ page: String(Math.ceil(ids.length / 20) + 30), limit: '20' });
    expect(past).toEqual({ list: [], total: ids.length });
  });

  it('counts unused cards again when one expires, with no write at all', async () => {
    const unused = () => cardPage({ status: '0' }).then((p) => p.total);
    const expired = () => cardPage({ status: 'expired' }).then((p) => p.total);
    await mint(3, { expire_at: t.clock() + HOUR });
    const [unusedBefore, expiredBefore] = [await unused(), await expired()];
    t.clock.advance(HOUR - 1);
    expect(await unused()).toBe(unusedBefore);
    t.clock.advance(1); // the 3 cards expire now
    expect(await unused()).toBe(unusedBefore - 3);
    expect(await expired()).toBe(expiredBefore + 3);
  });

  it.runIf(engine === 'postgres')(
    'counts again after a commit what was counted while the transaction was open',
    async () => {
      const before = (await cardPage()).total;
      const template = await t.db
        .selectFrom('recharge_cards')
        .selectAll()
        .where('deleted_at', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const { id: _id, ...row } = template;
      await t.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('recharge_cards')
          .values({ ...row, card_no: `TX${Date.now()}`, status: 1, used_at: T0 })
          .execute();
        // Another connection, while the insert is not committed: the old total.
        expect((await cardPage()).total).toBe(before);
      });
      expect((await cardPage()).total).toBe(before + 1);
      await t.db.deleteFrom('recharge_cards').where('card_no', 'like', 'TX%').execute();
      expect((await cardPage()).total).toBe(before);
    },
  );

  it('follows new merchants in a customer list’s total and deep pages, in both orders', async () => {
    const merchant = await t.user('merchant');
    await t.db
      .insertInto('users')
      .values(
        Array.from({ length: 2 * ANCHOR_EVERY + 30 }, (_, i) => ({
          user_type: 2,
          pid: partnerId,
          service_id: partnerId,
          username: `lc_m${i}`,
          password_hash: merchant.password_hash,
          name: `LC ${i}`,
          created_at: T0,
          updated_at: T0,
        })),
      )
      .execute();
    const expected = async (order: 'asc' | 'desc') =>
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('user_type', '=', 2)
          .where('service_id', '=', partnerId)
          .where('id', '!=', partnerId)
          .where('deleted_at', 'is', null)
          .orderBy('id', order)
          .execute()
      ).map((r) => Number(r.id));
    const check = async (order: 'asc' | 'desc') => {
      const ids = await expected(order);
      for (const page of [1, 10, 11, 12, 21, 22]) {
        const got = ok(
          await t.call<CustomerPage>('GET', api('/provider_service'), {
            token: partner,
            query: { user_type: '2', order, page: String(page), limit: '20' },
            headers: EN,
          }),
        );
        expect(got.total).toBe(ids.length);
        expect(
          got.list.map((r) => r.id),
          `${order} page ${page}`,
        ).toEqual(ids.slice((page - 1) * 20, page * 20));
      }
    };
    await check('desc');
    await check('asc');
    ok(
      await t.call('POST', api('/provider_service/add_by_service'), {
        token: partner,
        body: { user_type: 2, username: 'lc_new', password: 'Lc#20260', mobile: '13900000001' },
        headers: EN,
      }),
    );
    await check('desc');
    await check('asc');
  });

  it('follows new ledger rows in a ledger list’s total and deep pages', async () => {
    const merchant = await t.user('merchant');
    const merchantToken = await t.login('merchant');
    const give = async () =>
      ok(
        await t.call('POST', api('/platform/transfer'), {
          token: partner,
          body: { to_user_id: merchant.id, asset: 'money', amount: '0.01' },
          headers: EN,
        }),
      );
    for (let i = 0; i < 2 * ANCHOR_EVERY + 5; i += 1) await give();
    const check = async (query: Record<string, string>) => {
      const ids = (
        await t.db
          .selectFrom('ledger')
          .select('id')
          .where('user_id', '=', merchant.id)
          .$if(query.asset !== undefined, (q) => q.where('asset', '=', query.asset as 'money'))
          .orderBy('id', 'desc')
          .execute()
      ).map((r) => Number(r.id));
      for (const page of [1, 2, 3, 4, 7]) {
        const got = ok(
          await t.call<{ list: { id: number }[]; total: number }>(
            'GET',
            api('/platform/user_money_log'),
            {
              token: merchantToken,
              query: { ...query, page: String(page), limit: '7' },
              headers: EN,
            },
          ),
        );
        expect(got.total).toBe(ids.length);
        expect(
          got.list.map((r) => r.id),
          `${JSON.stringify(query)} page ${page}`,
        ).toEqual(ids.slice((page - 1) * 7, page * 7));
      }
    };
    await check({});
    await check({ asset: 'money' });
    await give();
    await check({});
    await check({ asset: 'money' });

    // The partner's transfer records: the same, with the users' side of its scope joined.
    const records = async (query: Record<string, string>) => {
      const ids = (
        await t.db
          .selectFrom('transfers as t')
          .innerJoin('users as f', 'f.id', 't.from_user_id')
          .innerJoin('users as r', 'r.id', 't.to_user_id')
          .select('t.id')
          .where((eb) =>
            eb.or([eb('f.service_id', '=', partnerId), eb('r.service_id', '=', partnerId)]),
          )
          .$if(query.direction === 'in', (q) => q.where('t.to_user_id', '=', partnerId))
          .orderBy('t.id', 'desc')
          .execute()
      ).map((r) => Number(r.id));
      for (const page of [1, 2, 3, 7]) {
        const got = ok(
          await t.call<{ list: { id: number }[]; total: number }>(
            'GET',
            api('/platform/transfer_record'),
            { token: partner, query: { ...query, page: String(page), limit: '7' }, headers: EN },
          ),
        );
        expect(got.total).toBe(ids.length);
        expect(
          got.list.map((r) => r.id),
          `transfers ${JSON.stringify(query)} page ${page}`,
        ).toEqual(ids.slice((page - 1) * 7, page * 7));
      }
    };
    await records({});
    await records({ direction: 'in' });
    await give();
    await records({});
    ok(
      await t.call('POST', api('/platform/transfer'), {
        token: admin,
        body: { to_user_id: partnerId, asset: 'money', amount: '0.01' },
        headers: EN,
      }),
    );
    await records({});
    await records({ direction: 'in' });
  });
});
