/**
 * The cached lists' totals (server/platform/db/list-cache.ts) are outdated by writes to the columns their
 * conditions read, and those columns are read from the conditions themselves
 * (server/platform/db/list-source.ts). Here every filterable column of every cached list is changed
 * straight in the database, by the same handle, and the filtered total must change at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListReply } from '../../src/api/contract/money';
import type { Database } from '../../server/platform/db/schema';
import { api, createTestApp, engines, HOUR, T0, type TestApp } from './helpers';

const LATER = T0 + 10 * HOUR;

interface Case {
  name: string;
  url: string;
  who: 'admin' | 'partner';
  query: () => Promise<Record<string, string>>;
  table: keyof Database;
  column: string;
  /** The row whose column changes. */
  row: () => Promise<number>;
  /** Its new value (the row enters or leaves the filter). */
  value: () => Promise<unknown>;
}

describe.each(engines)('the cached lists follow every column they filter on, on %s', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const name of ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2']) {
      ids[name] = (await t.user(name)).id;
    }
    tokens.admin = await t.login('admin');
    tokens.partner = await t.login('partner');
    const minted = await t.call('POST', api('/recharge_card/add'), {
      token: tokens.admin,
      body: { asset: 'digital_voice', face_value: 1, quantity: 3 },
    });
    expect(minted.status, minted.raw).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const total = async (c: Case, query: Record<string, string>) => {
    const reply = await t.call<ListReply<unknown>>('GET', api(c.url), {
      token: tokens[c.who],
      query,
    });
    expect(reply.body?.code, reply.raw).toBe(1);
    return reply.body.data.total;
  };
  const newest = (table: 'recharge_cards' | 'transfers') => async () =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select('id')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id,
    );
  const columnOf = async (table: keyof Database, column: string, id: number) =>
    (
      (await t.db
        .selectFrom(table)
        .select(column as never)
        .where('id' as never, '=', id as never)
        .executeTakeFirstOrThrow()) as Record<string, unknown>
    )[column];
  const user = (name: string) => async () => ids[name];
  const is = (value: unknown) => async () => value;
  const merchants =
    (extra: Record<string, string> = {}) =>
    async () => ({
      user_type: '2',
      ...extra,
    });

  const customers = (
    column: string,
    query: () => Promise<Record<string, string>>,
    row: () => Promise<number>,
    value: () => Promise<unknown>,
  ): Case => ({
    name: `customers: users.${column}`,
    url: '/provider_service',
    who: 'admin',
    table: 'users',
    column,
    query,
    row,
    value,
  });
  const card = newest('recharge_cards');
  const cards = (
    column: string,
    query: () => Promise<Record<string, string>>,
    value: () => Promise<unknown>,
    who: 'admin' | 'partner' = 'admin',
  ): Case => ({
    name: `cards (${who}): recharge_cards.${column}`,
    url: '/recharge_card/card_list',
    who,
    table: 'recharge_cards',
    column,
    query,
    row: card,
    value,
  });
  const transfer = newest('transfers');
  const transfers = (
    column: string,
    query: () => Promise<Record<string, string>>,
    value: () => Promise<unknown>,
  ): Case => ({
    name: `transfers: transfers.${column}`,
    url: '/platform/transfer_record',
    who: 'admin',
    table: 'transfers',
    column,
    query,
    row: transfer,
    value,
  });
  const merchantEntry = async () =>
    Number(
      (
        await t.db
          .selectFrom('ledger')
          .select('id')
          .where('user_id', '=', ids.merchant)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id,
    );
  const ledger = (
    column: string,
    query: () => Promise<Record<string, string>>,
    value: () => Promise<unknown>,
  ): Case => ({
    name: `ledger: ledger.${column}`,
    url: '/platform/user_money_log',
    who: 'admin',
    table: 'ledger',
    column,
    query: async () => ({ user_id: String(ids.merchant), ...(await query()) }),
    row: merchantEntry,
    value,
  });
  const transferTo = async () =>
    String(await columnOf('transfers', 'to_user_id', await transfer()));
  const transferFrom = async () =>
    String(await columnOf('transfers', 'from_user_id', await transfer()));
  const transferAsset = async () => String(await columnOf('transfers', 'asset', await transfer()));
  const entryAsset = async () => String(await columnOf('ledger', 'asset', await merchantEntry()));
  const entryType = async () => String(await columnOf('ledger', 'type', await merchantEntry()));

  const cases: Case[] = [
    customers('user_type', merchants(), user('merchant'), is(3)),
    customers('deleted_at', merchants(), user('merchant'), is(T0)),
    customers('name', merchants({ keyword: 'zq-name' }), user('merchant2'), is('zq-name')),
    customers('username', merchants({ keyword: 'zq-user' }), user('merchant2'), is('zq-user')),
    customers('mobile', merchants({ keyword: '1390000' }), user('merchant2'), is('13900009999')),
    customers(
      'status',
      async () => ({
        user_type: '2',
        status: String(await columnOf('users', 'status', ids.merchant)),
      }),
      user('merchant'),
      async () => 1 - Number(await columnOf('users', 'status', ids.merchant)),
    ),
    customers(
      'service_id',
      async () => ({ user_type: '2', service_id: String(ids.partner) }),
      user('merchant'),
      async () => ids.partner2,
    ),
    customers(
      'agent_id',
      async () => ({ user_type: '2', agent_id: String(ids.agent) }),
      user('merchant'),
      is(null),
    ),
    customers(
      'pid',
      async () => ({ user_type: '2', pid: String(ids.partner2) }),
      user('merchant2'),
      async () => ids.partner,
    ),
    customers(
      'created_at',
      merchants({ created_from: String(LATER) }),
      user('merchant'),
      is(LATER + HOUR),
    ),
    cards('deleted_at', async () => ({}), is(T0)),
    cards('card_no', async () => ({ card_no: 'ZQ9' }), is('ZQ9000001')),
    cards('batch_no', async () => ({ batch_no: 'BZQ9' }), is('BZQ9')),
    // The newest card is one of the digital-voice cards minted above.
    cards('asset', async () => ({ asset: 'money' }), is('money')),
    cards('status', async () => ({ status: '2' }), is(2)),
    cards('expire_at', async () => ({ status: '0' }), is(T0 - 1)),
    cards(
      'owner_id',
      async () => ({ owner_id: String(ids.admin) }),
      async () => ids.partner,
    ),
    cards(
      'used_by',
      async () => ({ used_by: String(ids.merchant) }),
      async () => ids.merchant,
    ),
    cards('created_at', async () => ({ start: String(LATER) }), is(LATER + HOUR)),
    cards(
      'service_id',
      async () => ({}),
      async () => ids.partner,
      'partner',
    ),
    transfers(
      'asset',
      async () => ({ asset: await transferAsset() }),
      async () => ((await transferAsset()) === 'money' ? 'digital_man' : 'money'),
    ),
    transfers('transfer_no', async () => ({ transfer_no: 'ZQ9T' }), is('ZQ9T')),
    transfers(
      'from_user_id',
      async () => ({ user_id: await transferFrom(), direction: 'out' }),
      async () => ((await transferFrom()) === String(ids.agent) ? ids.merchant : ids.agent),
    ),
    transfers(
      'to_user_id',
      async () => ({ user_id: await transferTo(), direction: 'in' }),
      async () => ((await transferTo()) === String(ids.agent) ? ids.merchant : ids.agent),
    ),
    transfers('created_at', async () => ({ start: String(LATER) }), is(LATER + HOUR)),
    {
      name: 'transfers (partner): users.service_id',
      url: '/platform/transfer_record',
      who: 'partner',
      table: 'users',
      column: 'service_id',
      query: async () => ({}),
      row: user('merchant2'),
      value: async () => ids.partner,
    },
    ledger(
      'asset',
      async () => ({ asset: await entryAsset() }),
      async () => ((await entryAsset()) === 'money' ? 'digital_man' : 'money'),
    ),
    ledger(
      'type',
      async () => ({ type: await entryType() }),
      async () => ((await entryType()) === 'card_redeem' ? 'transfer_in' : 'card_redeem'),
    ),
    ledger('created_at', async () => ({ start: String(LATER) }), is(LATER + HOUR)),
    ledger(
      'user_id',
      async () => ({}),
      async () => ids.merchant2,
    ),
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const query = await c.query();
    const before = await total(c, query);
    expect(await total(c, query)).toBe(before); // from the cache now
    const id = await c.row();
    const previous = await columnOf(c.table, c.column, id);
    const value = await c.value();
    expect(value, 'the case changes the column').not.toEqual(previous);
    const set = (v: unknown) =>
      t.db
        .updateTable(c.table)
        .set({ [c.column]: v } as never)
        .where('id' as never, '=', id as never)
        .execute();
    await set(value);
    try {
      expect(await total(c, query)).not.toBe(before);
    } finally {
      await set(previous);
    }
    expect(await total(c, query)).toBe(before);
  });
});
