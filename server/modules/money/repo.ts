import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  formatUnits,
  type ListReply,
  type MoneyLogParams,
  type MoneyLogRow,
  type TransferRecord,
  type TransferRecordParams,
} from '../../../src/api/contract/money';
import type { Locale } from '../../../src/api/contract/messages';
import type { AuthContext } from '../../context';
import { rowCount } from '../../platform/db/conditions';
import { readPage } from '../../platform/db/list-cache';
import type { Asset, Executor } from '../../platform/db/schema';
import { memoColumns, memoText, type Memo } from '../ledger';
import { visibleUsers } from '../users';

export async function userVisibleTo(db: Executor, auth: AuthContext, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where(visibleUsers(auth))
    .executeTakeFirst();
  return !!row;
}

export async function insertTransfer(
  db: Executor,
  row: {
    from_user_id: number;
    to_user_id: number;
    asset: Asset;
    amount: number;
    remark: Memo;
    operator_id: number;
    created_at: number;
  },
): Promise<number> {
  const remark = memoColumns(row.remark);
  const inserted = await db
    .insertInto('transfers')
    .values({
      ...row,
      remark: remark.text,
      remark_id: remark.id,
      remark_params: remark.params,
      transfer_no: `tmp-${randomUUID()}`,
      from_before: 0,
      from_after: 0,
      to_before: 0,
      to_after: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** `TR` + yyMMdd (Asia/Shanghai) + the id, zero-padded: unique, readable, in order. */
export async function numberTransfer(
  db: Executor,
  id: number,
  now: number,
  moves: { from: number[]; to: number[] },
): Promise<void> {
  const day = new Date(now + 8 * 3600_000).toISOString().slice(2, 10).replaceAll('-', '');
  await db
    .updateTable('transfers')
    .set({
      transfer_no: `TR${day}${String(id).padStart(8, '0')}`,
      from_before: moves.from[0],
      from_after: moves.from[1],
      to_before: moves.to[0],
      to_after: moves.to[1],
    })
    .where('id', '=', id)
    .execute();
}

function transfersQuery(db: Executor) {
  return db
    .selectFrom('transfers as t')
    .innerJoin('users as f', 'f.id', 't.from_user_id')
    .innerJoin('users as r', 'r.id', 't.to_user_id')
    .innerJoin('users as o', 'o.id', 't.operator_id');
}

function transferColumns(q: ReturnType<typeof transfersQuery>) {
  return q.select([
    't.id',
    't.transfer_no',
    't.from_user_id',
    'f.username as from_username',
    'f.name as from_name',
    'f.user_type as from_type',
    't.to_user_id',
    'r.username as to_username',
    'r.name as to_name',
    'r.user_type as to_type',
    't.asset',
    't.amount',
    't.from_before',
    't.from_after',
    't.to_before',
    't.to_after',
    't.remark',
    't.remark_id',
    't.remark_params',
    't.operator_id',
    'o.username as operator_username',
    't.created_at',
  ]);
}

type TransferSelection = Awaited<
  ReturnType<ReturnType<typeof transferColumns>['executeTakeFirstOrThrow']>
>;

function toRecord(row: TransferSelection, locale: Locale): TransferRecord {
  const units = (value: number, platformSide: boolean) =>
    platformSide ? null : formatUnits(row.asset, Number(value));
  const fromPlatform = row.from_type === 0;
  const toPlatform = row.to_type === 0;
  return {
    id: row.id,
    transfer_no: row.transfer_no,
    from_user_id: row.from_user_id,
    from_username: row.from_username,
    from_name: row.from_name,
    to_user_id: row.to_user_id,
    to_username: row.to_username,
    to_name: row.to_name,
    asset: row.asset,
    amount: formatUnits(row.asset, Number(row.amount)),
    from_before: units(row.from_before, fromPlatform),
    from_after: units(row.from_after, fromPlatform),
    to_before: units(row.to_before, toPlatform),
    to_after: units(row.to_after, toPlatform),
    remark: memoText(locale, row.remark, row.remark_id, row.remark_params),
    operator_id: row.operator_id,
    operator_username: row.operator_username,
    created_at: Number(row.created_at),
  };
}

export async function findTransfer(
  db: Executor,
  id: number,
  locale: Locale,
): Promise<TransferRecord | undefined> {
  const row = await transferColumns(transfersQuery(db)).where('t.id', '=', id).executeTakeFirst();
  return row && toRecord(row, locale);
}

/**
 * Transfers in the caller's scope: admin – all; partner – those with either side in its subtree;
 * anyone else – its own. Filters: a user and a direction relative to it, asset, number, time.
 * The total and the anchors of deep pages are cached like the ledger's (db/list-cache.ts).
 */
export async function listTransfers(
  db: Executor,
  auth: AuthContext,
  query: TransferRecordParams,
  locale: Locale,
): Promise<ListReply<TransferRecord>> {
  let q = transfersQuery(db);
  const me = auth.user.id;
  if (auth.role === 'partner') {
    q = q.where((eb) => eb.or([eb('f.service_id', '=', me), eb('r.service_id', '=', me)]));
  } else if (auth.role !== 'admin') {
    q = q.where((eb) => eb.or([eb('t.from_user_id', '=', me), eb('t.to_user_id', '=', me)]));
  }
  const subject = query.user_id ?? (query.direction ? me : undefined);
  if (subject !== undefined) {
    if (query.direction === 'in') q = q.where('t.to_user_id', '=', subject);
    else if (query.direction === 'out') q = q.where('t.from_user_id', '=', subject);
    else {
      q = q.where((eb) =>
        eb.or([eb('t.from_user_id', '=', subject), eb('t.to_user_id', '=', subject)]),
      );
    }
  }
  if (query.asset) q = q.where('t.asset', '=', query.asset);
  if (query.transfer_no) q = q.where('t.transfer_no', '=', query.transfer_no);
  if (query.start !== undefined) q = q.where('t.created_at', '>=', Number(query.start));
  if (query.end !== undefined) q = q.where('t.created_at', '<=', Number(query.end));
  const { page, limit, ...conditions } = query;
  const key = `transfers ${auth.role} ${me} ${JSON.stringify(conditions)}`;
  const idAt = async (offset: number) => {
    const row = await q
      .select('t.id')
      .orderBy('t.id', 'desc')
      .limit(rowCount(1))
      .offset(rowCount(offset))
      .executeTakeFirst();
    return row && Number(row.id);
  };
  const { rows, total } = await readPage(db, {
    key,
    filtered: () => q,
    now: Date.now(), // nothing here depends on the time: only the cache's own clock
    offset: (page - 1) * limit,
    keyAt: idAt,
    rows: (start) =>
      transferColumns(q)
        .$if(start.from !== undefined, (qb) => qb.where('t.id', '<=', start.from!))
        .orderBy('t.id', 'desc')
        .limit(rowCount(limit))
        .offset(rowCount(start.skip))
        .execute(),
    count: async () => {
      const count = await q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { total: Number(count.n) };
    },
  });
  return { list: rows.map((row) => toRecord(row, locale)), total };
}

/**
 * One page of a user's ledger, newest first. The total and the anchors of deep pages are cached
 * per state of the ledger (db/list-cache.ts): a 200 000-row ledger is not counted on every page.
 */
export async function listMoneyLog(
  db: Executor,
  query: MoneyLogParams & { user_id: number },
  locale: Locale,
): Promise<ListReply<MoneyLogRow>> {
  let q = db
    .selectFrom('ledger as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .where('l.user_id', '=', query.user_id);
  if (query.asset) q = q.where('l.asset', '=', query.asset);
  if (query.type) q = q.where('l.type', '=', query.type);
  if (query.start !== undefined) q = q.where('l.created_at', '>=', Number(query.start));
  if (query.end !== undefined) q = q.where('l.created_at', '<=', Number(query.end));
  const { page, limit, ...conditions } = query;
  const key = `ledger ${JSON.stringify(conditions)}`;
  const idAt = async (offset: number) => {
    const row = await q
      .select('l.id')
      .orderBy('l.id', 'desc')
      .limit(rowCount(1))
      .offset(rowCount(offset))
      .executeTakeFirst();
    return row && Number(row.id);
  };
  const { rows, total } = await readPage(db, {
    key,
    filtered: () => q,
    now: Date.now(), // nothing here depends on the time: only the cache's own clock
    offset: (page - 1) * limit,
    keyAt: idAt,
    rows: (start) =>
      q
        .select([
          'l.id',
          'l.user_id',
          'u.username',
          'l.asset',
          'l.type',
          'l.change',
          'l.before',
          'l.after',
          'l.memo',
          'l.memo_id',
          'l.memo_params',
          'l.related_type',
          'l.related_id',
          'l.operator_id',
          'l.created_at',
        ])
        .$if(start.from !== undefined, (qb) => qb.where('l.id', '<=', start.from!))
        .orderBy('l.id', 'desc')
        .limit(rowCount(limit))
        .offset(rowCount(start.skip))
        .execute(),
    count: async () => {
      const count = await q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return { total: Number(count.n) };
    },
  });
  return {
    list: rows.map((row) => ({
      id: row.id,
      user_id: row.user_id,
      username: row.username,
      asset: row.asset,
      type: row.type,
      change: formatUnits(row.asset, Number(row.change)),
      before: formatUnits(row.asset, Number(row.before)),
      after: formatUnits(row.asset, Number(row.after)),
      memo: memoText(locale, row.memo, row.memo_id, row.memo_params),
      related_type: row.related_type,
      related_id: row.related_id === null ? null : Number(row.related_id),
      operator_id: row.operator_id === null ? null : Number(row.operator_id),
      created_at: Number(row.created_at),
    })),
    total,
  };
}
