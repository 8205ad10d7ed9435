import {
  ORDER_TTL_MS,
  type ListReply,
  type OrderCreateReply,
  type OrderListFilter,
  type PackageAddInput,
  type PackageEditInput,
  type PackageListFilter,
  type PackageStatus,
  type PayWay,
  type RechargeOrder,
  type RechargePackage,
} from '../../../src/api/contract/recharge';
import { formatUnits } from '../../../src/api/contract/money';
import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import { lockUsers } from '../ledger';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import {
  closeExpired,
  countLivePackages,
  countOpenOrders,
  findPackage,
  findVisibleOrder,
  insertOrder,
  insertPackage,
  listOrders,
  listPackages,
  toPackage,
  updatePackage,
} from './repo';

/** A buyer may hold this many unpaid, unexpired orders at once (each closes after 30 minutes). */
export const MAX_OPEN_ORDERS = 10;

// ---------------------------------------------------------------------------------------------
// Packages

/** Admin: every package, filtered; buyers: those on sale. */
export function packageList(
  ctx: AppContext,
  auth: AuthContext,
  filter: PackageListFilter,
): Promise<ListReply<RechargePackage>> {
  return listPackages(ctx.db, { ...filter, onSaleOnly: auth.role !== 'admin' });
}

async function packageOrFail(ctx: AppContext, id: number): Promise<RechargePackage> {
  const row = await findPackage(ctx.db, id);
  if (!row) throw refuse('recharge.packageNotFound');
  return toPackage(row);
}

export async function addPackage(
  ctx: AppContext,
  input: PackageAddInput,
  audit: AuditTrail,
): Promise<RechargePackage> {
  const now = ctx.now();
  const id = await runInTransaction(
    ctx.db,
    async (trx) => {
      const values = {
        name: input.name,
        price: input.price,
        money: input.money,
        gift_money: input.gift_money ?? 0,
        sort: input.sort ?? 0,
        status: input.status ?? 1,
        description: input.description ?? '',
      };
      audit.change(null, values);
      return insertPackage(trx, { ...values, now });
    },
    { audit },
  );
  return packageOrFail(ctx, id);
}

/** Changes a package; orders already created keep the price and amounts they were made with. */
export async function editPackage(
  ctx: AppContext,
  input: PackageEditInput,
  audit: AuditTrail,
): Promise<RechargePackage> {
  const { id, ...fields } = input;
  const changes = Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined),
  ) as Partial<Omit<PackageEditInput, 'id'>>;
  await savePackage(ctx, id, changes, audit);
  return packageOrFail(ctx, id);
}

export async function setPackageStatus(
  ctx: AppContext,
  input: { id: number; status: PackageStatus },
  audit: AuditTrail,
): Promise<RechargePackage> {
  await savePackage(ctx, input.id, { status: input.status }, audit);
  return packageOrFail(ctx, input.id);
}

/** Soft delete: the package leaves every list; orders keep its name. */
export async function deletePackage(
  ctx: AppContext,
  input: { id: number },
  audit: AuditTrail,
): Promise<{ id: number }> {
  await savePackage(ctx, input.id, { deleted_at: ctx.now() }, audit);
  return { id: input.id };
}

async function savePackage(
  ctx: AppContext,
  id: number,
  changes: Record<string, string | number>,
  audit: AuditTrail,
): Promise<void> {
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const before = await findPackage(trx, id);
      const updated = await updatePackage(trx, id, { ...changes, updated_at: now });
      if (!before || !updated) throw refuse('recharge.packageNotFound');
      audit.change(before, changes);
    },
    { audit },
  );
}

/** The listed packages get sort 1, 2, … in the order given; all of them must exist. */
export async function sortPackages(
  ctx: AppContext,
  ids: number[],
  audit: AuditTrail,
): Promise<{ ids: number[] }> {
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      if ((await countLivePackages(trx, ids)) !== ids.length) {
        throw refuse('recharge.packageNotFound');
      }
      for (const [index, id] of ids.entries()) {
        await updatePackage(trx, id, { sort: index + 1, updated_at: now });
      }
      audit.change(null, { order: ids });
    },
    { audit },
  );
  return { ids };
}

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * A pending order for a package on sale, at the package's current price; it closes unpaid after
 * 30 minutes. The provider is asked for the payment URL after the order is stored, so a provider
 * failure leaves a pending order that simply closes.
 */
export async function createOrder(
  ctx: AppContext,
  auth: AuthContext,
  body: { package_id: number; pay_way: PayWay },
  audit: AuditTrail,
): Promise<OrderCreateReply> {
  const provider = ctx.integrations.payment.byWay.get(body.pay_way);
  if (!provider) throw refuse('recharge.payWayUnavailable');
  const now = ctx.now();
  const expiresAt = now + ORDER_TTL_MS;
  const order = await runInTransaction(
    ctx.db,
    async (trx) => {
      const pkg = await findPackage(trx, body.package_id);
      if (!pkg) throw refuse('recharge.packageNotFound');
      if (Number(pkg.status) !== 1) throw refuse('recharge.packageOffSale');
      // Orders at once are counted one after the other (the buyer's row is locked first).
      await lockUsers(ctx, trx, [auth.user.id]);
      const open = await countOpenOrders(trx, auth.user.id, now);
      if (open >= MAX_OPEN_ORDERS) throw refuse('recharge.tooManyOpen', { count: open });
      const values = {
        user_id: auth.user.id,
        // A partner's own service_id is its id; set it explicitly all the same.
        service_id: auth.role === 'partner' ? auth.user.id : auth.user.service_id,
        package_id: pkg.id,
        package_name: pkg.name,
        amount: Number(pkg.price),
        money: Number(pkg.money),
        gift_money: Number(pkg.gift_money),
        pay_way: body.pay_way,
        expires_at: expiresAt,
        created_at: now,
      };
      const { id, order_no } = await insertOrder(trx, values);
      audit.change(null, {
        order_no,
        package_id: pkg.id,
        amount: formatUnits('money', values.amount),
        pay_way: body.pay_way,
      });
      return { ...values, id, order_no };
    },
    { audit },
  );
  const { pay_url } = await provider.createPayment({
    order_no: order.order_no,
    amount: order.amount,
    subject: order.package_name,
    expires_at: order.expires_at,
  });
  return {
    order_no: order.order_no,
    package_name: order.package_name,
    amount: formatUnits('money', order.amount),
    money: formatUnits('money', order.money),
    gift_money: formatUnits('money', order.gift_money),
    pay_way: body.pay_way,
    pay_status: 'pending',
    pay_url,
    expires_at: order.expires_at,
    created_at: order.created_at,
  };
}

export async function orderDetail(
  ctx: AppContext,
  auth: AuthContext,
  orderNo: string,
): Promise<RechargeOrder> {
  const order = await findVisibleOrder(ctx.db, auth, orderNo, ctx.now());
  if (!order) throw refuse('recharge.orderNotFound');
  return order;
}

export function orderList(
  ctx: AppContext,
  auth: AuthContext,
  filter: OrderListFilter,
): Promise<ListReply<RechargeOrder>> {
  return listOrders(ctx.db, auth, filter, ctx.now());
}

/** Closes unpaid orders past their expiry (server/modules/recharge/jobs.ts runs it). */
export function closeExpiredOrders(ctx: AppContext): Promise<number> {
  return closeExpired(ctx.db, ctx.now());
}
