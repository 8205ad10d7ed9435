import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import { formatUnits } from '../../../src/api/contract/money';
import type {
  ListReply,
  OrderListFilter,
  PackageListFilter,
  PackageStatus,
  PayStatus,
  RechargeOrder,
  RechargePackage,
} from '../../../src/api/contract/recharge';
import type { AuthContext } from '../../context';
import { rowCount } from '../../platform/db/conditions';
import type { Executor, RechargeOrderRow, RechargePackageRow } from '../../platform/db/schema';
import { likePattern } from '../../platform/db/conditions';

const money = (cents: number) => formatUnits('money', Number(cents));

// ---------------------------------------------------------------------------------------------
// Packages (platform packages: owner_id is null)

export function toPackage(row: RechargePackageRow): RechargePackage {
  return {
    id: row.id,
    name: row.name,
    price: money(row.price),
    money: money(row.money),
    gift_money: money(row.gift_money),
    sort: Number(row.sort),
    status: Number(row.status) as PackageStatus,
    description: row.description,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** A live (not deleted) platform package. */
export function findPackage(db: Executor, id: number): Promise<RechargePackageRow | undefined> {
  return db
    .selectFrom('recharge_packages')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', 'is', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listPackages(
  db: Executor,
  filter: PackageListFilter & { onSaleOnly: boolean },
): Promise<ListReply<RechargePackage>> {
  let q = db
    .selectFrom('recharge_packages')
    .where('owner_id', 'is', null)
    .where('deleted_at', 'is', null);
  if (filter.onSaleOnly) q = q.where('status', '=', 1);
  else if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.name) {
    q = q.where(sql<SqlBool>`lower(name) like ${likePattern(filter.name)} escape '\\'`);
  }
  const limit = filter.limit ?? 20;
  const page = filter.page ?? 1;
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('sort')
      .orderBy('id')
      .limit(rowCount(limit))
      .offset(rowCount((page - 1) * limit))
      .execute(),
    q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toPackage), total: Number(count.n) };
}

export async function insertPackage(
  db: Executor,
  values: {
    name: string;
    price: number;
    money: number;
    gift_money: number;
    sort: number;
    status: number;
    description: string;
    now: number;
  },
): Promise<number> {
  const { now, ...columns } = values;
  const row = await db
    .insertInto('recharge_packages')
    .values({ ...columns, owner_id: null, created_at: now, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePackage(
  db: Executor,
  id: number,
  changes: Partial<
    Pick<
      RechargePackageRow,
      'name' | 'price' | 'money' | 'gift_money' | 'sort' | 'status' | 'description' | 'deleted_at'
    >
  > & { updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('recharge_packages')
    .set(changes)
    .where('id', '=', id)
    .where('owner_id', 'is', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many of `ids` are live platform packages. */
export async function countLivePackages(db: Executor, ids: readonly number[]): Promise<number> {
  const row = await db
    .selectFrom('recharge_packages')
    .select(sql<number>`count(*)`.as('n'))
    .where('id', 'in', ids)
    .where('owner_id', 'is', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------------------------------------
// Orders

/** The status a viewer sees: a pending order past its expiry is closed (the job may lag). */
export function effectiveStatus(
  row: Pick<RechargeOrderRow, 'pay_status' | 'expires_at'>,
  now: number,
): PayStatus {
  return row.pay_status === 'pending' && Number(row.expires_at) <= now ? 'closed' : row.pay_status;
}

export async function insertOrder(
  db: Executor,
  values: Omit<
    RechargeOrderRow,
    'id' | 'order_no' | 'pay_status' | 'transaction_id' | 'paid_at' | 'closed_at'
  >,
): Promise<{ id: number; order_no: string }> {
  const inserted = await db
    .insertInto('recharge_orders')
    .values({
      ...values,
      order_no: `tmp${randomUUID().replaceAll('-', '')}`,
      pay_status: 'pending',
      transaction_id: null,
      paid_at: null,
      closed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // `RC` + yyMMdd (Asia/Shanghai) + the id, zero-padded: unique, readable, in order.
  const day = new Date(values.created_at + 8 * 3600_000)
    .toISOString()
    .slice(2, 10)
    .replaceAll('-', '');
  const orderNo = `RC${day}${String(inserted.id).padStart(8, '0')}`;
  await db
    .updateTable('recharge_orders')
    .set({ order_no: orderNo })
    .where('id', '=', inserted.id)
    .execute();
  return { id: inserted.id, order_no: orderNo };
}

export async function countOpenOrders(db: Executor, userId: number, now: number): Promise<number> {
  const row = await db
    .selectFrom('recharge_orders')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('pay_status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findOrderByNo(
  db: Executor,
  orderNo: string,
): Promise<RechargeOrderRow | undefined> {
  return db
    .selectFrom('recharge_orders')
    .selectAll()
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
}

export function findOrderByTransaction(
  db: Executor,
  transactionId: string,
): Promise<RechargeOrderRow | undefined> {
  return db
    .selectFrom('recharge_orders')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

/**
 * Marks an unpaid order paid; a closed one too (money received is never lost). Returns the row
 * when this call changed it, undefined when it was already paid (or refunded) or is unknown.
 */
export function markOrderPaid(
  db: Executor,
  orderNo: string,
  payment: { transaction_id: string; paid_at: number },
): Promise<
  Pick<RechargeOrderRow, 'id' | 'user_id' | 'money' | 'gift_money' | 'package_name'> | undefined
> {
  return db
    .updateTable('recharge_orders')
    .set({ pay_status: 'paid', transaction_id: payment.transaction_id, paid_at: payment.paid_at })
    .where('order_no', '=', orderNo)
    .where('pay_status', 'in', ['pending', 'closed'])
    .returning(['id', 'user_id', 'money', 'gift_money', 'package_name'])
    .executeTakeFirst();
}

/** Closes the pending orders past their expiry; their closed_at is the expiry. */
export async function closeExpired(db: Executor, now: number): Promise<number> {
  const result = await db
    .updateTable('recharge_orders')
    .set({ pay_status: 'closed', closed_at: sql<number>`expires_at` })
    .where('pay_status', '=', 'pending')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function ordersBase(db: Executor) {
  return db.selectFrom('recharge_orders as o').innerJoin('users as u', 'u.id', 'o.user_id');
}
type OrdersBase = ReturnType<typeof ordersBase>;

/** docs/domain.md §2 `visible(u)` over orders: admin – all; partner – its subtree; others – their own. */
function visibleTo(q: OrdersBase, auth: AuthContext): OrdersBase {
  if (auth.role === 'admin') return q;
  if (auth.role === 'partner') return q.where('o.service_id', '=', auth.user.id);
  return q.where('o.user_id', '=', auth.user.id);
}

function orderColumns(q: OrdersBase) {
  return q.select([
    'o.id',
    'o.order_no',
    'o.user_id',
    'u.username',
    'u.name',
    'o.service_id',
    'o.package_id',
    'o.package_name',
    'o.amount',
    'o.money',
    'o.gift_money',
    'o.pay_way',
    'o.pay_status',
    'o.transaction_id',
    'o.paid_at',
    'o.closed_at',
    'o.expires_at',
    'o.created_at',
  ]);
}

type OrderSelection = Awaited<
  ReturnType<ReturnType<typeof orderColumns>['executeTakeFirstOrThrow']>
>;

function toOrder(row: OrderSelection, now: number): RechargeOrder {
  const status = effectiveStatus(row, now);
  const closedAt =
    row.closed_at !== null
      ? Number(row.closed_at)
      : status === 'closed'
        ? Number(row.expires_at)
        : null;
  return {
    id: row.id,
    order_no: row.order_no,
    user_id: Number(row.user_id),
    username: row.username,
    name: row.name,
    service_id: Number(row.service_id),
    package_id: Number(row.package_id),
    package_name: row.package_name,
    amount: money(row.amount),
    money: money(row.money),
    gift_money: money(row.gift_money),
    pay_way: row.pay_way,
    pay_status: status,
    transaction_id: row.transaction_id,
    paid_at: row.paid_at === null ? null : Number(row.paid_at),
    closed_at: closedAt,
    expires_at: Number(row.expires_at),
    created_at: Number(row.created_at),
  };
}

/** One order in the caller's scope (undefined: missing or not visible — the same to the caller). */
export async function findVisibleOrder(
  db: Executor,
  auth: AuthContext,
  orderNo: string,
  now: number,
): Promise<RechargeOrder | undefined> {
  const row = await orderColumns(visibleTo(ordersBase(db), auth))
    .where('o.order_no', '=', orderNo)
    .executeTakeFirst();
  return row && toOrder(row, now);
}

export async function listOrders(
  db: Executor,
  auth: AuthContext,
  filter: OrderListFilter,
  now: number,
): Promise<ListReply<RechargeOrder>> {
  let q = visibleTo(ordersBase(db), auth);
  if (filter.order_no) q = q.where('o.order_no', 'like', `${filter.order_no}%`);
  if (filter.user_id !== undefined) q = q.where('o.user_id', '=', filter.user_id);
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    q = q.where(
      sql<SqlBool>`(lower(u.username) like ${pattern} escape '\\' or lower(u.name) like ${pattern} escape '\\' or u.mobile like ${pattern} escape '\\')`,
    );
  }
  // Statuses as the viewer sees them: an expired pending order counts as closed.
  if (filter.pay_status === 'pending') {
    q = q.where('o.pay_status', '=', 'pending').where('o.expires_at', '>', now);
  } else if (filter.pay_status === 'closed') {
    q = q.where((eb) =>
      eb.or([
        eb('o.pay_status', '=', 'closed'),
        eb.and([eb('o.pay_status', '=', 'pending'), eb('o.expires_at', '<=', now)]),
      ]),
    );
  } else if (filter.pay_status) {
    q = q.where('o.pay_status', '=', filter.pay_status);
  }
  if (filter.start !== undefined) q = q.where('o.created_at', '>=', filter.start);
  if (filter.end !== undefined) q = q.where('o.created_at', '<=', filter.end);
  const limit = filter.limit ?? 20;
  const page = filter.page ?? 1;
  const [rows, count] = await Promise.all([
    orderColumns(q)
      .orderBy('o.id', 'desc')
      .limit(rowCount(limit))
      .offset(rowCount((page - 1) * limit))
      .execute(),
    q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((row) => toOrder(row, now)), total: Number(count.n) };
}
