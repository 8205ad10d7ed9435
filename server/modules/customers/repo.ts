import { likePattern } from '../../platform/db/conditions';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { CustomerRow, CustomerSort } from '../../../src/api/contract/customers';
import { allOf, rowCount, type Condition } from '../../platform/db/conditions';
import type { Engine } from '../../platform/db/dialect';
import { readPage, type PageStart } from '../../platform/db/list-cache';
import type { Executor } from '../../platform/db/schema';
import { visibleUsers, type ScopeSubject } from '../users';

/** user_type of the rows these calls manage (never admins). */
export const PARTNER = 1;
export const MERCHANT = 2;
export const AGENT = 3;
const CUSTOMER_TYPES = [PARTNER, MERCHANT, AGENT];

// The row's computed columns are SQL text of our own (constants only, no input), compiled once:
// the page query is written as SQL, since Kysely's building and compiling of 35 selections cost
// more than the query itself (docs/performance.md).

/**
 * The parent in the tree (docs/domain.md §1: partner → agent → merchant): a merchant's agent when it
 * has one, else the stored `pid` (its partner; a partner's is the admin who created it).
 */
const TREE_PARENT = `case when users.user_type = ${MERCHANT} and users.agent_id is not null then users.agent_id else users.pid end`;
const treeParent = sql.raw<number>(TREE_PARENT);

/**
 * Merchants an agent referred. `+m.user_type` keeps SQLite on the agent_id index: most users have
 * no agent, and SQLite's statistics count those NULLs, so it would otherwise scan by user_type
 * (PostgreSQL plans by its own statistics and ignores the unary plus).
 */
const referredCount = (alias: 'm' | 'c') =>
  `(select count(*) from users ${alias} where ${alias}.agent_id = users.id and +${alias}.user_type = ${MERCHANT} and ${alias}.deleted_at is null)`;

/** A customer's counts: partners – merchants of their subtree, children in the tree. */
interface Counts {
  merchant_count: string;
  /** The rows listed with `pid = users.id`. */
  child_count: string;
}

/**
 * The counts by the row's user_type (a list is of one type: its rows carry only their type's
 * subqueries, which PostgreSQL then plans alone). Correlated subqueries on the indexes
 * (service_id, user_type) and (agent_id); merchants have neither.
 */
const COUNTS: Record<number, Counts> = {
  [PARTNER]: {
    merchant_count: `(select count(*) from users m where m.service_id = users.id and m.user_type = ${MERCHANT} and m.deleted_at is null)`,
    child_count: `(select count(*) from users c where c.service_id = users.id and c.id <> users.id and c.deleted_at is null and (c.user_type = ${AGENT} or (c.user_type = ${MERCHANT} and c.agent_id is null)))`,
  },
  [AGENT]: { merchant_count: referredCount('m'), child_count: referredCount('c') },
  [MERCHANT]: { merchant_count: '0', child_count: '0' },
};

/** The counts of a row of any type (one customer by id), chosen by its user_type. */
const ANY_COUNTS: Counts = {
  merchant_count: `case when users.user_type = ${PARTNER} then ${COUNTS[PARTNER].merchant_count} when users.user_type = ${AGENT} then ${COUNTS[AGENT].merchant_count} else 0 end`,
  child_count: `case when users.user_type = ${PARTNER} then ${COUNTS[PARTNER].child_count} when users.user_type = ${AGENT} then ${COUNTS[AGENT].child_count} else 0 end`,
};

const countsOf = (userType: number | undefined): Counts =>
  (userType !== undefined && COUNTS[userType]) || ANY_COUNTS;

const nameOf = (id: string) =>
  `coalesce((select case when p.name <> '' then p.name else p.username end from users p where p.id = ${id}), '')`;

/** Sort keys → expressions (a whitelist: nothing from the request reaches the SQL text). */
const SORT_EXPRESSIONS: Record<Exclude<CustomerSort, keyof Counts>, RawBuilder<unknown>> = {
  id: sql`users.id`,
  created_at: sql`users.created_at`,
  username: sql`users.username`,
  name: sql`users.name`,
  money: sql`users.money`,
  digital_man_seconds: sql`users.digital_man_seconds`,
  voice_clone_count: sql`users.voice_clone_count`,
  image_clone_count: sql`users.image_clone_count`,
  last_login_at: sql`users.last_login_at`,
  expire_at: sql`users.expire_at`,
};
const NULLABLE_SORTS: ReadonlySet<CustomerSort> = new Set(['last_login_at', 'expire_at']);

function sortExpression(sort: CustomerSort, userType: number): RawBuilder<unknown> {
  return sort === 'merchant_count' || sort === 'child_count'
    ? sql.raw(countsOf(userType)[sort])
    : SORT_EXPRESSIONS[sort];
}

/**
 * A balance in cents as the contract's money text ("12.05"; lib/money.ts formatCents), in SQL
 * both engines read alike. Balances are never negative (a check on the column).
 */
const moneyText = (cents: string) =>
  `cast(${cents} / 100 as text) || '.' || (case when ${cents} % 100 < 10 then '0' else '' end) || cast(${cents} % 100 as text)`;

/**
 * The contract's customer row (CustomerRow, in its order) as SQL expressions over `users`. The
 * database writes each row as JSON text (below): a page's 700 values are not made into
 * JavaScript values to be written as JSON again (docs/decisions.md "Customers").
 */
const rowFields = (counts: Counts): Record<keyof CustomerRow, string> => ({
  id: 'users.id',
  username: 'users.username',
  name: 'users.name',
  nickname: 'users.nickname',
  mobile: "coalesce(users.mobile, '')",
  email: 'users.email',
  user_type: 'users.user_type',
  pid: `coalesce(${TREE_PARENT}, 0)`,
  parent_name: nameOf(TREE_PARENT),
  service_id: 'users.service_id',
  service_name: nameOf('users.service_id'),
  agent_id: 'users.agent_id',
  agent_name: nameOf('users.agent_id'),
  status: 'users.status',
  money: moneyText('users.money'),
  digital_man_seconds: 'users.digital_man_seconds',
  voice_clone_count: 'users.voice_clone_count',
  image_clone_count: 'users.image_clone_count',
  merchant_count: counts.merchant_count,
  merchant_count_limit: 'users.merchant_count_limit',
  child_count: counts.child_count,
  service_prefix_no: "coalesce(users.service_prefix_no, '')",
  service_type: 'users.service_type',
  can_transfer_money: 'users.can_transfer_money',
  can_transfer_digital_man: 'users.can_transfer_digital_man',
  can_transfer_digital_voice: 'users.can_transfer_digital_voice',
  show_clip_menu: 'users.show_clip_menu',
  open_oem: 'users.open_oem',
  digital_man_money_exchange_num: 'users.digital_man_money_exchange_num',
  digital_voice_money_exchange_num: 'users.digital_voice_money_exchange_num',
  mini_appid: 'users.mini_appid',
  expire_at: 'users.expire_at',
  remark: 'users.remark',
  created_at: 'users.created_at',
  last_login_at: 'users.last_login_at',
});

/** The row as one JSON object (the engines' functions differ in name only). */
function rowJson(engine: Engine, counts: Counts): RawBuilder<string> {
  const args = Object.entries(rowFields(counts))
    .map(([key, expression]) => `'${key}', ${expression}`)
    .join(', ');
  return sql.raw(
    engine === 'postgres' ? `json_build_object(${args})::text` : `json_object(${args})`,
  );
}

/** rowJson for each engine and count set, built once. */
const ROW_JSON = new Map<string, RawBuilder<string>>();
function rowJsonOf(engine: Engine, userType?: number): RawBuilder<string> {
  const key = `${engine} ${userType}`;
  let text = ROW_JSON.get(key);
  if (!text) ROW_JSON.set(key, (text = rowJson(engine, countsOf(userType))));
  return text;
}

/** A row as the database wrote it: the contract's row as JSON text. */
interface JsonRow {
  row_json: string;
}

export interface CustomerFilter {
  userType: number;
  keyword?: string;
  status?: number;
  serviceId?: number;
  agentId?: number;
  /** Direct children in the tree of this user; `parentType` is its user_type (index hint). */
  parentId?: number;
  parentType?: number;
  createdFrom?: number;
  createdTo?: number;
  sort: CustomerSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * The conditions of a customer list: not deleted, the subject's scope (a partner never lists
 * itself), and the filters.
 */
function customerConditions(subject: ScopeSubject, filter: CustomerFilter): Condition[] {
  const out: Condition[] = [
    sql<SqlBool>`users.deleted_at is null`,
    sql<SqlBool>`users.user_type = ${filter.userType}`,
    visibleUsers(subject),
  ];
  if (subject.role !== 'admin') out.push(sql<SqlBool>`users.id <> ${subject.user.id}`);
  if (filter.keyword) out.push(keywordCondition(filter.keyword));
  if (filter.status !== undefined) out.push(sql<SqlBool>`users.status = ${filter.status}`);
  if (filter.serviceId !== undefined) {
    out.push(sql<SqlBool>`users.service_id = ${filter.serviceId}`);
  }
  if (filter.agentId !== undefined) out.push(sql<SqlBool>`users.agent_id = ${filter.agentId}`);
  if (filter.parentId !== undefined) {
    out.push(sql<SqlBool>`${treeParent} = ${filter.parentId}`);
    // The same rows, said in a way the indexes can use.
    if (filter.parentType === PARTNER) {
      out.push(sql<SqlBool>`users.service_id = ${filter.parentId}`);
    }
    if (filter.parentType === AGENT) out.push(sql<SqlBool>`users.agent_id = ${filter.parentId}`);
  }
  if (filter.createdFrom !== undefined) {
    out.push(sql<SqlBool>`users.created_at >= ${filter.createdFrom}`);
  }
  if (filter.createdTo !== undefined) {
    out.push(sql<SqlBool>`users.created_at < ${filter.createdTo}`);
  }
  return out;
}

/** Name, account or mobile contains the keyword (its own % _ \ taken literally). */
function keywordCondition(keyword: string): Condition {
  const pattern = likePattern(keyword);
  return sql<SqlBool>`(lower(users.name) like ${pattern} escape '\\' or lower(users.username) like ${pattern} escape '\\' or users.mobile like ${pattern} escape '\\')`;
}

/**
 * One page of customers, each row the contract's row as JSON text, and the total: two queries.
 * Sorted by anything but the id, the page query picks the page's ids in a CTE that carries only
 * the sort key, then computes the row (names, counts) for those rows alone: a sort by money over
 * 200 000 users does not compute 200 000 rows of subqueries. In id order (the default) it reads
 * the page directly (PostgreSQL plans the CTE's join at every run: 0.13 ms).
 */
export async function listCustomers(
  db: Executor,
  engine: Engine,
  subject: ScopeSubject,
  filter: CustomerFilter,
): Promise<{ rows: string[]; total: number }> {
  const where = customerConditions(subject, filter);
  const sortExpr = sortExpression(filter.sort, filter.userType);
  // Rows without a value last, in either direction and on both engines.
  const nullable = NULLABLE_SORTS.has(filter.sort);
  const nullLast = nullable ? sql`case when ${sortExpr} is null then 1 else 0 end` : sql`0`;
  const nullsFirst = (prefix: string) => (nullable ? sql.raw(`${prefix}null_last, `) : sql``);
  const direction = sql.raw(filter.order === 'desc' ? 'desc' : 'asc');
  const pageQuery = (start: PageStart) => {
    const conditions = [...where];
    if (start.from !== undefined) {
      conditions.push(
        filter.order === 'desc'
          ? sql<SqlBool>`users.id <= ${start.from}`
          : sql<SqlBool>`users.id >= ${start.from}`,
      );
    }
    const json = rowJsonOf(engine, filter.userType);
    const window = sql`limit ${rowCount(filter.limit)} offset ${rowCount(start.skip)}`;
    const query =
      filter.sort === 'id'
        ? // In the indexes' order: the rows are computed for the page alone anyway.
          sql<JsonRow>`select ${json} as row_json from users where ${allOf(conditions)} order by users.id ${direction} ${window}`
        : sql<JsonRow>`with page as (select users.id as page_id, ${nullLast} as null_last, ${sortExpr} as sort_key from users where ${allOf(conditions)} order by ${nullsFirst('')}sort_key ${direction}, users.id ${direction} ${window}) select ${json} as row_json from users inner join page on page.page_id = users.id order by ${nullsFirst('page.')}page.sort_key ${direction}, users.id ${direction}`;
    return query.execute(db).then((r) => r.rows.map((row) => row.row_json));
  };
  // The total and the anchors of deep pages (sorted by id, the default) are cached per state of
  // the users table (db/list-cache.ts): neither costs a pass over the scope on every page.
  const { offset: _offset, limit: _limit, sort, order, ...conditions } = filter;
  const key = `customers ${subject.role} ${subject.user.id} ${JSON.stringify(conditions)}`;
  const idAt = async (offset: number) => {
    const row = await db
      .selectFrom('users')
      .select('users.id')
      .where(allOf(where))
      .orderBy('users.id', order)
      .limit(rowCount(1))
      .offset(rowCount(offset))
      .executeTakeFirst();
    return row && row.id;
  };
  return readPage(db, {
    key,
    filtered: () => db.selectFrom('users').where(allOf(where)),
    now: Date.now(), // nothing here depends on the time: only the cache's own clock
    offset: filter.offset,
    keyAt: sort === 'id' ? idAt : undefined,
    anchorKey: `${key} ${order}`,
    rows: pageQuery,
    count: async () => {
      const count = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(allOf(where))
        .executeTakeFirstOrThrow();
      return { total: Number(count.n) };
    },
  });
}

/** One customer by id (no scope: the caller checked it), the contract's row as JSON text. */
export async function findCustomer(
  db: Executor,
  engine: Engine,
  id: number,
): Promise<string | undefined> {
  const { rows } =
    await sql<JsonRow>`select ${rowJsonOf(engine)} as row_json from users where users.id = ${id} and users.deleted_at is null and users.user_type in (${sql.join(CUSTOMER_TYPES)})`.execute(
      db,
    );
  return rows[0]?.row_json;
}

/** Prefixes are unique whatever their case (deleted partners keep theirs). */
export async function isPrefixTaken(
  db: Executor,
  prefix: string,
  exceptId?: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<SqlBool>`upper(service_prefix_no) = ${prefix.toUpperCase()}`)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
  return !!row;
}

export async function isUsernameTakenByOther(
  db: Executor,
  username: string,
  id: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .where('id', '!=', id)
    .executeTakeFirst();
  return !!row;
}

export async function isMobileTakenByOther(
  db: Executor,
  mobile: string,
  id: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', mobile)
    .where('id', '!=', id)
    .executeTakeFirst();
  return !!row;
}

/** Any live user under this one: in its subtree (partners), referred by it (agents), or its child. */
export async function hasChildren(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('id', '!=', id)
    .where((eb) => eb.or([eb('service_id', '=', id), eb('agent_id', '=', id), eb('pid', '=', id)]))
    .limit(rowCount(1))
    .executeTakeFirst();
  return !!row;
}

export async function ownsDomains(db: Executor, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('owner_id', '=', partnerId)
    .limit(rowCount(1))
    .executeTakeFirst();
  return !!row;
}

/** Every prefix in use (deleted partners included: their prefixes stay taken). */
export async function listUsedPrefixes(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('service_prefix_no')
    .where('service_prefix_no', 'is not', null)
    .orderBy('service_prefix_no')
    .execute();
  return rows.map((r) => r.service_prefix_no!);
}

export interface PickerFilter {
  userType?: number;
  keyword?: string;
  offset: number;
  limit: number;
}

/** Users the subject may pick (never itself), newest first. */
export async function pickUsers(db: Executor, subject: ScopeSubject, filter: PickerFilter) {
  const conditions: Condition[] = [
    sql<SqlBool>`users.deleted_at is null`,
    sql<SqlBool>`users.id <> ${subject.user.id}`,
    visibleUsers(subject),
  ];
  if (filter.userType !== undefined) {
    conditions.push(sql<SqlBool>`users.user_type = ${filter.userType}`);
  }
  if (filter.keyword) conditions.push(keywordCondition(filter.keyword));
  const where = allOf(conditions);
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'username', 'name', 'nickname', 'mobile', 'user_type', 'service_id', 'status'])
      .where(where)
      .orderBy('id', 'desc')
      .limit(rowCount(filter.limit))
      .offset(rowCount(filter.offset))
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
