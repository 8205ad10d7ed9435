import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  formatFaceValue,
  type CardFilter,
  type CardRow,
  type CardStatus,
} from '../../../src/api/contract/cards';
import { formatUnits } from '../../../src/api/contract/money';
import type { Role } from '../../../src/api/contract/roles';
import { allOf, rowCount, type Condition } from '../../platform/db/conditions';
import type { Engine } from '../../platform/db/dialect';
import { readPage, type PageStart } from '../../platform/db/list-cache';
import type { Executor, RechargeCardRow, RechargeCardsTable } from '../../platform/db/schema';
import type { Insertable } from 'kysely';

/** Who looks at or changes cards: the role decides the scope, the id the holder's view. */
export interface CardViewer {
  role: Role;
  id: number;
}

// The card conditions are SQL fragments (db/conditions.ts), shared by the page query and the
// builder queries (totals, anchors, export, pickers).

/**
 * The cards a caller may see and act on (docs/domain.md §2 `visible`, docs/decisions.md "Recharge
 * cards"): admin – every card; partner – the cards of its service and the cards it holds;
 * merchant, agent – the cards they hold or redeemed.
 */
export function visibleCards(viewer: CardViewer): Condition {
  switch (viewer.role) {
    case 'admin':
      return sql<SqlBool>`1 = 1`;
    // Unary `+` keeps these terms off the indexes: pages are then read newest-first along the
    // primary key and stop after `limit` rows, instead of sorting every card of the scope
    // (100 000 cards: 0.2 ms instead of 80 ms on SQLite; see docs/performance.md).
    case 'partner':
      return sql<SqlBool>`(+c.service_id = ${viewer.id} or +c.owner_id = ${viewer.id})`;
    default:
      return sql<SqlBool>`(+c.owner_id = ${viewer.id} or +c.used_by = ${viewer.id})`;
  }
}

/** Not past its expiry at `now` (no expiry: never expires). */
export function notExpired(now: number): Condition {
  return sql<SqlBool>`(c.expire_at is null or c.expire_at > ${now})`;
}

/** Live (not deleted) cards. */
const LIVE: Condition = sql<SqlBool>`c.deleted_at is null`;

/** The cards (as `c`) that meet every condition, for a builder query. */
function matching(db: Executor, conditions: Condition[]) {
  return db.selectFrom('recharge_cards as c').where(allOf(conditions));
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** The list's filters. */
function filterConditions(filter: CardFilter & { ids?: number[] }, now: number): Condition[] {
  const out: Condition[] = [];
  if (filter.ids) {
    out.push(
      filter.ids.length > 0 ? sql<SqlBool>`c.id in (${sql.join(filter.ids)})` : sql<SqlBool>`1 = 0`,
    );
  }
  if (filter.card_no) {
    // upper() on both sides: LIKE is case-sensitive on PostgreSQL and not on SQLite.
    const pattern = `%${escapeLike(filter.card_no.toUpperCase())}%`;
    out.push(sql<SqlBool>`upper(c.card_no) like ${pattern} escape '\\'`);
  }
  if (filter.batch_no) out.push(sql<SqlBool>`c.batch_no = ${filter.batch_no}`);
  if (filter.asset) out.push(sql<SqlBool>`c.asset = ${filter.asset}`);
  switch (filter.status) {
    case '0':
      out.push(sql<SqlBool>`c.status = ${0}`, notExpired(now));
      break;
    case 'expired':
      out.push(sql<SqlBool>`c.status = ${0}`, sql<SqlBool>`c.expire_at <= ${now}`);
      break;
    case '1':
    case '2':
      out.push(sql<SqlBool>`c.status = ${Number(filter.status)}`);
      break;
    default:
      break;
  }
  if (filter.owner_id !== undefined) out.push(sql<SqlBool>`c.owner_id = ${filter.owner_id}`);
  if (filter.used_by !== undefined) out.push(sql<SqlBool>`c.used_by = ${filter.used_by}`);
  if (filter.start !== undefined) out.push(sql<SqlBool>`c.created_at >= ${filter.start}`);
  if (filter.end !== undefined) out.push(sql<SqlBool>`c.created_at <= ${filter.end}`);
  return out;
}

/** The live cards of the viewer's scope that match the filter. */
function listConditions(
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  now: number,
): Condition[] {
  return [LIVE, visibleCards(viewer), ...filterConditions(filter, now)];
}

/** A card as the lists select it: its columns and the three user names. */
type CardSelection = Omit<RechargeCardRow, 'paid_by' | 'deleted_at'> & {
  creator_username: string;
  owner_username: string;
  used_by_username: string | null;
};

const CARD_COLUMNS = sql.raw(
  'c.id, c.card_no, c.card_pwd, c.batch_no, c.asset, c.face_value, c.price, c.status, ' +
    'c.expire_at, c.service_id, c.creator_id, creator.username as creator_username, ' +
    'c.owner_id, owner.username as owner_username, c.used_by, ' +
    'u.username as used_by_username, c.used_at, c.remark_admin, c.remark_owner, c.created_at, ' +
    'c.updated_at',
);

/** Rows of the cards that meet every condition, newest first, then `tail` (limit, offset). */
function cardRows(conditions: Condition[], tail: RawBuilder<unknown>) {
  return sql<CardSelection>`select ${CARD_COLUMNS} from recharge_cards c inner join users owner on owner.id = c.owner_id inner join users creator on creator.id = c.creator_id left join users u on u.id = c.used_by where ${allOf(conditions)} order by c.id desc ${tail}`;
}

/** `ABCD********WXYZ`: enough to tell cards apart, not enough to redeem one. */
export function maskPassword(pwd: string): string {
  if (pwd.length <= 8) return '*'.repeat(pwd.length);
  return `${pwd.slice(0, 4)}${'*'.repeat(pwd.length - 8)}${pwd.slice(-4)}`;
}

const num = (v: number | null) => (v === null ? null : Number(v));

function toRow(row: CardSelection, viewer: CardViewer, now: number): CardRow {
  const holder = Number(row.owner_id) === viewer.id;
  const expireAt = num(row.expire_at);
  return {
    id: Number(row.id),
    card_no: row.card_no,
    card_pwd: holder ? row.card_pwd : maskPassword(row.card_pwd),
    pwd_masked: !holder,
    batch_no: row.batch_no,
    asset: row.asset,
    face_value: formatFaceValue(row.asset, Number(row.face_value)),
    price: formatUnits('money', Number(row.price)),
    status: Number(row.status) as CardStatus,
    expired: expireAt !== null && expireAt <= now,
    expire_at: expireAt,
    service_id: Number(row.service_id),
    creator_id: Number(row.creator_id),
    creator_username: row.creator_username,
    owner_id: Number(row.owner_id),
    owner_username: row.owner_username,
    used_by: num(row.used_by),
    used_by_username: row.used_by_username ?? null,
    used_at: num(row.used_at),
    remark_admin: viewer.role === 'admin' ? row.remark_admin : '',
    remark_owner: row.remark_owner,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export interface CardPage {
  page: number;
  limit: number;
}

/**
 * The query of one page of the cards in the viewer's scope that match the filter, newest first
 * (exported so a test can check its plan: a 1000-row page must not sort the scope).
 */
export function cardPageQuery(
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  { page, limit }: CardPage,
  now: number,
  start?: PageStart,
) {
  const conditions = listConditions(viewer, filter, now);
  if (start?.from !== undefined) conditions.push(sql<SqlBool>`c.id <= ${start.from}`);
  const skip = start ? start.skip : (page - 1) * limit;
  return cardRows(conditions, sql`limit ${rowCount(limit)} offset ${rowCount(skip)}`);
}

/**
 * The number of cards of the scope that match the filter. Unused and expired cards change with
 * the time: such a total holds until the next unused card of the scope expires.
 */
async function countCards(
  db: Executor,
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  now: number,
): Promise<{ total: number; until?: number }> {
  const scoped = (f: CardFilter & { ids?: number[] }) =>
    matching(db, listConditions(viewer, f, now));
  const count = scoped(filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (filter.status !== '0' && filter.status !== 'expired') {
    return { total: Number((await count).n) };
  }
  const next = scoped({ ...filter, status: undefined })
    .where('c.status', '=', 0)
    .where('c.expire_at', '>', now)
    .select((eb) => eb.fn.min('c.expire_at').as('at'))
    .executeTakeFirst();
  const [counted, upcoming] = await Promise.all([count, next]);
  const at = upcoming?.at;
  return {
    total: Number(counted.n),
    until: at === null || at === undefined ? undefined : Number(at),
  };
}

/**
 * One page of the cards in the viewer's scope that match the filter, newest first. The total is
 * counted once per state of the cards and a deep page starts from a cached anchor
 * (db/list-cache.ts), so neither costs a pass over the scope on every page.
 */
export async function listCards(
  db: Executor,
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  page: CardPage,
  now: number,
): Promise<{ list: CardRow[]; total: number }> {
  const key = `cards ${viewer.role} ${viewer.id} ${JSON.stringify(filter)}`;
  const keyAt = async (offset: number) => {
    const row = await matching(db, listConditions(viewer, filter, now))
      .select('c.id')
      .orderBy('c.id', 'desc')
      .limit(rowCount(1))
      .offset(rowCount(offset))
      .executeTakeFirst();
    return row && Number(row.id);
  };
  const { rows, total } = await readPage(db, {
    key,
    filtered: () => matching(db, listConditions(viewer, filter, now)),
    now,
    offset: (page.page - 1) * page.limit,
    keyAt,
    rows: (start) =>
      cardPageQuery(viewer, filter, page, now, start)
        .execute(db)
        .then((r) => r.rows),
    count: () => countCards(db, viewer, filter, now),
  });
  return { list: rows.map((r) => toRow(r, viewer, now)), total };
}

/** Unused, unexpired cards the viewer holds (the pickers). */
export async function listOperableCards(
  db: Executor,
  viewer: CardViewer,
  filter: Pick<CardFilter, 'asset' | 'batch_no' | 'card_no'>,
  page: CardPage,
  now: number,
): Promise<{ list: CardRow[]; total: number }> {
  const conditions = [
    LIVE,
    sql<SqlBool>`c.owner_id = ${viewer.id}`,
    sql<SqlBool>`c.status = ${0}`,
    notExpired(now),
    ...filterConditions(filter, now),
  ];
  const offset = (page.page - 1) * page.limit;
  const [{ rows }, count] = await Promise.all([
    cardRows(conditions, sql`limit ${rowCount(page.limit)} offset ${rowCount(offset)}`).execute(db),
    matching(db, conditions)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toRow(r, viewer, now)), total: Number(count.n) };
}

export async function findCardRow(
  db: Executor,
  viewer: CardViewer,
  id: number,
  now: number,
): Promise<CardRow | undefined> {
  const { rows } = await cardRows(
    [LIVE, visibleCards(viewer), sql<SqlBool>`c.id = ${id}`],
    sql`limit 1`,
  ).execute(db);
  return rows[0] && toRow(rows[0], viewer, now);
}

/** What an export writes of a card: as in the list, the password masked unless the viewer holds it. */
export type ExportCard = Pick<
  CardRow,
  | 'id'
  | 'card_no'
  | 'card_pwd'
  | 'batch_no'
  | 'asset'
  | 'face_value'
  | 'status'
  | 'expired'
  | 'expire_at'
>;

/**
 * The rows of an export, page by page (keyset on id, newest first), so that an export of any
 * size holds at most one page in memory.
 */
export async function* exportCards(
  db: Executor,
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  now: number,
  pageSize = 1000,
): AsyncGenerator<ExportCard[]> {
  let before: number | undefined;
  for (;;) {
    let q = matching(db, listConditions(viewer, filter, now));
    if (before !== undefined) q = q.where('c.id', '<', before);
    // Only the file's columns, without the list's joins: a third of the values to read and
    // build per row (PostgreSQL: 7.0 → 3.4 s for 100 000 cards, docs/performance.md).
    const rows = await q
      .select([
        'c.id',
        'c.card_no',
        'c.card_pwd',
        'c.batch_no',
        'c.asset',
        'c.face_value',
        'c.status',
        'c.expire_at',
        'c.owner_id',
      ])
      .orderBy('c.id', 'desc')
      .limit(rowCount(pageSize))
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => {
      const expireAt = num(r.expire_at);
      return {
        id: Number(r.id),
        card_no: r.card_no,
        card_pwd: Number(r.owner_id) === viewer.id ? r.card_pwd : maskPassword(r.card_pwd),
        batch_no: r.batch_no,
        asset: r.asset,
        face_value: formatFaceValue(r.asset, Number(r.face_value)),
        status: Number(r.status) as CardStatus,
        expired: expireAt !== null && expireAt <= now,
        expire_at: expireAt,
      };
    });
    if (rows.length < pageSize) return;
    before = Number(rows[rows.length - 1].id);
  }
}

/** A card by its number (deleted cards are gone). */
export function findCardByNo(db: Executor, cardNo: string): Promise<RechargeCardRow | undefined> {
  return db
    .selectFrom('recharge_cards')
    .selectAll()
    .where('card_no', '=', cardNo)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findCardById(db: Executor, id: number): Promise<RechargeCardRow | undefined> {
  return db.selectFrom('recharge_cards').selectAll().where('id', '=', id).executeTakeFirst();
}

export type Selection = { ids: number[] } | { batch_no: string };

/**
 * The live cards of a selection in the viewer's scope, in id order, locked for the rest of the
 * transaction on PostgreSQL (rows locked in id order: two calls over the same cards queue, never
 * deadlock; SQLite runs one writer at a time anyway).
 */
export function lockSelection(
  db: Executor,
  engine: Engine,
  viewer: CardViewer,
  selection: Selection,
): Promise<RechargeCardRow[]> {
  let q = matching(db, [LIVE, visibleCards(viewer)]).selectAll('c');
  q =
    'ids' in selection
      ? q.where('c.id', 'in', selection.ids)
      : q.where('c.batch_no', '=', selection.batch_no);
  return q
    .orderBy('c.id')
    .$if(engine === 'postgres', (qb) => qb.forUpdate())
    .execute();
}

/** The largest sequence number of a card number (`{prefix}{yyMMdd}{6 digits}`). */
export const MAX_SEQUENCE = 999_999;

/**
 * Reserves `count` numbers of a prefix's day sequence in the caller's transaction (the row is
 * locked until it ends) and returns the first; undefined when the day's numbers would run out.
 */
export async function reserveSequence(
  db: Executor,
  key: string,
  count: number,
): Promise<number | undefined> {
  await db
    .insertInto('card_sequences')
    .values({ prefix: key, last_value: 0 })
    .onConflict((oc) => oc.column('prefix').doNothing())
    .execute();
  const row = await db
    .updateTable('card_sequences')
    .set({ last_value: sql<number>`last_value + ${count}` })
    .where('prefix', '=', key)
    .where('last_value', '<=', MAX_SEQUENCE - count)
    .returning('last_value')
    .executeTakeFirst();
  return row ? Number(row.last_value) - count + 1 : undefined;
}

/** Inserts cards; answers their ids (for the audit row). */
export async function insertCards(
  db: Executor,
  rows: Insertable<RechargeCardsTable>[],
): Promise<number[]> {
  const CHUNK = 200;
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const inserted = await db
      .insertInto('recharge_cards')
      .values(rows.slice(i, i + CHUNK))
      .returning('id')
      .execute();
    ids.push(...inserted.map((row) => Number(row.id)));
  }
  return ids;
}
