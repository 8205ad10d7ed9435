import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { CustomerSort } from '../../../src/api/contract/customers';
import { listTotal, pageStart, type ListSource, type PageStart } from '../../db/list-cache';
import type { Database, Executor } from '../../db/schema';
import { visibleUsers, type ScopeSubject } from '../users/scope';

/** user_type of the rows these calls manage (never admins). */
export const PARTNER = 1;
export const MERCHANT = 2;
export const AGENT = 3;
const CUSTOMER_TYPES = [PARTNER, MERCHANT, AGENT];

// The row's computed columns are SQL text of our own (constants only, no input), compiled once:
// the page query is written as SQL, since Kysely's building and compiling of 35 selections cost
// more than the query itself (docs/performance.md, issue 4).

/**
 * The parent in the tree (DOMAIN.md §1: partner → agent → merchant): a merchant's agent when it
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

/**
 * Partners: merchants of their subtree; agents: merchants they referred. Correlated subqueries on
 * the indexes (service_id, user_type) and (agent_id).
 */
const MERCHANT_COUNT = `case
  when users.user_type = ${PARTNER} then (select count(*) from users m where m.service_id = users.id and m.user_type = ${MERCHANT} and m.deleted_at is null)
  when users.user_type = ${AGENT} then ${referredCount('m')}
  else 0 end`;

/** The rows listed with `pid = users.id`. */
const CHILD_COUNT = `case
  when users.user_type = ${PARTNER} then (select count(*) from users c where c.service_id = users.id and c.id <> users.id and c.deleted_at is null and (c.user_type = ${AGENT} or (c.user_type = ${MERCHANT} and c.agent_id is null)))
  when users.user_type = ${AGENT} then ${referredCount('c')}
  else 0 end`;

const nameOf = (id: string) =>
  `coalesce((select case when p.name <> '' then p.name else p.username end from users p where p.id = ${id}), '')`;

/** Sort keys → expressions (a whitelist: nothing from the request reaches the SQL text). */
const SORT_EXPRESSIONS: Record<CustomerSort, RawBuilder<unknown>> = {
  id: sql`users.id`,
  created_at: sql`users.created_at`,
  username: sql`users.username`,
  name: sql`users.name`,
  money: sql`users.money`,
  digital_man_seconds: sql`users.digital_man_seconds`,
  voice_clone_count: sql`users.voice_clone_count`,
  image_clone_count: sql`users.image_clone_count`,
  merchant_count: sql.raw(MERCHANT_COUNT),
  child_count: sql.raw(CHILD_COUNT),
  last_login_at: sql`users.last_login_at`,
  expire_at: sql`users.expire_at`,
};
const NULLABLE_SORTS: ReadonlySet<CustomerSort> = new Set(['last_login_at', 'expire_at']);

/** One customer as selected (the service shapes it into the contract's row). */
export interface CustomerRecord {
  id: number;
  username: string;
  name: string;
  nickname: string;
  mobile: string | null;
  email: string;
  user_type: number;
  tree_pid: number;
  parent_name: string;
  service_id: number;
  service_name: string;
  agent_id: number | null;
  agent_name: string;
  status: number;
  money: number;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
  merchant_count: number;
  merchant_count_limit: number;
  child_count: number;
  service_prefix_no: string | null;
  service_type: number;
  can_transfer_money: number;
  can_transfer_digital_man: number;
  can_transfer_digital_voice: number;
  show_clip_menu: number;
  open_oem: number;
  digital_man_money_exchange_num: string;
  digital_voice_money_exchange_num: string;
  mini_appid: string;
  expire_at: number | null;
  remark: string;
  created_at: number;
  last_login_at: number | null;
}

/** The columns of a customer row (the main table is `users`). */
const CUSTOMER_COLUMNS = sql.raw(
  [
    'users.id',
    'users.username',
    'users.name',
    'users.nickname',
    'users.mobile',
    'users.email',
    'users.user_type',
    `${TREE_PARENT} as tree_pid`,
    `${nameOf(TREE_PARENT)} as parent_name`,
    'users.service_id',
    `${nameOf('users.service_id')} as service_name`,
    'users.agent_id',
    `${nameOf('users.agent_id')} as agent_name`,
    'users.status',
    'users.money',
    'users.digital_man_seconds',
    'users.voice_clone_count',
    'users.image_clone_count',
    `${MERCHANT_COUNT} as merchant_count`,
    'users.merchant_count_limit',
    `${CHILD_COUNT} as child_count`,
    'users.service_prefix_no',
    'users.service_type',
    'users.can_transfer_money',
    'users.can_transfer_digital_man',
    'users.can_transfer_digital_voice',
    'users.show_clip_menu',
    'users.open_oem',
    'users.digital_man_money_exchange_num',
    'users.digital_voice_money_exchange_num',
    'users.mini_appid',
    'users.expire_at',
    'users.remark',
    'users.created_at',
    'users.last_login_at',
  ].join(', '),
);

/**
 * Integers PostgreSQL may return as strings (count(*) is fine, but be strict anyway). In place:
 * the row is the driver's own fresh object (a copy of 35 columns cost 12 µs a row).
 */
function normalise(row: CustomerRecord): CustomerRecord {
  row.tree_pid = Number(row.tree_pid ?? 0);
  row.merchant_count = Number(row.merchant_count ?? 0);
  row.child_count = Number(row.child_count ?? 0);
  return row;
}

/** `lower(x) LIKE '%kw%'` with the keyword's own % _ \ taken literally. */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
function customerConditions(subject: ScopeSubject, filter: CustomerFilter) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [
      eb('users.deleted_at', 'is', null),
      eb('users.user_type', '=', filter.userType),
      visibleUsers(subject)(eb),
    ];
    if (subject.role !== 'admin') all.push(eb('users.id', '!=', subject.user.id));
    if (filter.keyword) {
      const pattern = likePattern(filter.keyword);
      all.push(
        sql<SqlBool>`(lower(users.name) like ${pattern} escape '\\' or lower(users.username) like ${pattern} escape '\\' or users.mobile like ${pattern} escape '\\')`,
      );
    }
    if (filter.status !== undefined) all.push(eb('users.status', '=', filter.status));
    if (filter.serviceId !== undefined) all.push(eb('users.service_id', '=', filter.serviceId));
    if (filter.agentId !== undefined) all.push(eb('users.agent_id', '=', filter.agentId));
    if (filter.parentId !== undefined) {
      all.push(sql<SqlBool>`${treeParent} = ${filter.parentId}`);
      // The same rows, said in a way the indexes can use.
      if (filter.parentType === PARTNER) all.push(eb('users.service_id', '=', filter.parentId));
      if (filter.parentType === AGENT) all.push(eb('users.agent_id', '=', filter.parentId));
    }
    if (filter.createdFrom !== undefined) {
      all.push(eb('users.created_at', '>=', filter.createdFrom));
    }
    if (filter.createdTo !== undefined) all.push(eb('users.created_at', '<', filter.createdTo));
    return eb.and(all);
  };
}

/**
 * One page of customers and the total: two queries. The page query picks the page's ids in a CTE
 * that carries only the sort key, then computes the row columns (names, counts) for those rows
 * alone; a sort by money over 200 000 users does not compute 200 000 rows of subqueries.
 */
export async function listCustomers(
  db: Executor,
  subject: ScopeSubject,
  filter: CustomerFilter,
): Promise<{ rows: CustomerRecord[]; total: number }> {
  const where = customerConditions(subject, filter);
  const sortExpr = SORT_EXPRESSIONS[filter.sort];
  // Rows without a value last, in either direction and on both engines.
  const nullable = NULLABLE_SORTS.has(filter.sort);
  const nullLast = nullable
    ? sql<number>`case when ${sortExpr} is null then 1 else 0 end`
    : sql<number>`0`;
  const direction = sql.raw(filter.order === 'desc' ? 'desc' : 'asc');
  const pageQuery = (start: PageStart) => {
    const page = db
      .selectFrom('users')
      .select(['users.id as page_id', nullLast.as('null_last'), sortExpr.as('sort_key')])
      .where(where)
      .$if(start.from !== undefined, (q) =>
        q.where('users.id', filter.order === 'desc' ? '<=' : '>=', start.from!),
      )
      .$if(nullable, (q) => q.orderBy(sql.ref('null_last')))
      .orderBy(sql.ref('sort_key'), filter.order)
      .orderBy('users.id', filter.order)
      .limit(filter.limit)
      .offset(start.skip);
    // Kysely writes the embedded query in parentheses: `with page as (select …)`.
    return sql<CustomerRecord>`with page as ${page} select ${CUSTOMER_COLUMNS} from users inner join page on page.page_id = users.id order by ${nullable ? sql`page.null_last, ` : sql``}page.sort_key ${direction}, users.id ${direction}`
      .execute(db)
      .then((r) => r.rows);
  };
  // The total and the anchors of deep pages (sorted by id, the default) are cached per state of
  // the users table (db/list-cache.ts): neither costs a pass over the scope on every page.
  const { offset: _offset, limit: _limit, sort, order, ...conditions } = filter;
  const key = `customers ${subject.role} ${subject.user.id} ${JSON.stringify(conditions)}`;
  const idAt = async (offset: number) => {
    const row = await db
      .selectFrom('users')
      .select('users.id')
      .where(where)
      .orderBy('users.id', order)
      .limit(1)
      .offset(offset)
      .executeTakeFirst();
    return row && row.id;
  };
  const now = Date.now(); // nothing here depends on the time: only the cache's own clock
  const [rows, total] = await Promise.all([
    (sort === 'id'
      ? pageStart(db, `${key} ${order}`, CUSTOMER_LIST_SOURCE, now, filter.offset, idAt)
      : Promise.resolve<PageStart>({ skip: filter.offset })
    ).then((start) => (start.empty ? [] : pageQuery(start))),
    listTotal(db, key, CUSTOMER_LIST_SOURCE, now, async () => {
      const count = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(where)
        .executeTakeFirstOrThrow();
      return { total: Number(count.n) };
    }),
  ]);
  return { rows: rows.map(normalise), total };
}

/** What a customer list's total and page anchors depend on: the columns its conditions read. */
const CUSTOMER_LIST_SOURCE: ListSource = {
  table: 'users',
  columns: [
    'deleted_at',
    'user_type',
    'service_id',
    'agent_id',
    'pid',
    'status',
    'name',
    'username',
    'mobile',
    'created_at',
  ],
};

/** One customer by id (no scope: the caller checked it). */
export async function findCustomer(db: Executor, id: number): Promise<CustomerRecord | undefined> {
  const { rows } =
    await sql<CustomerRecord>`select ${CUSTOMER_COLUMNS} from users where users.id = ${id} and users.deleted_at is null and users.user_type in (${sql.join(CUSTOMER_TYPES)})`.execute(
      db,
    );
  return rows[0] && normalise(rows[0]);
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
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function ownsDomains(db: Executor, partnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('partner_id', '=', partnerId)
    .limit(1)
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
  const where = (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [
      eb('users.deleted_at', 'is', null),
      eb('users.id', '!=', subject.user.id),
      visibleUsers(subject)(eb),
    ];
    if (filter.userType !== undefined) all.push(eb('users.user_type', '=', filter.userType));
    if (filter.keyword) {
      const pattern = likePattern(filter.keyword);
      all.push(
        sql<SqlBool>`(lower(users.name) like ${pattern} escape '\\' or lower(users.username) like ${pattern} escape '\\' or users.mobile like ${pattern} escape '\\')`,
      );
    }
    return eb.and(all);
  };
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'username', 'name', 'nickname', 'mobile', 'user_type', 'service_id', 'status'])
      .where(where)
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
