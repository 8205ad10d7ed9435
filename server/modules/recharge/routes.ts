import type { FastifyInstance } from 'fastify';
import {
  deletedPackageSchema,
  orderCreateReplySchema,
  rechargeOrderPageSchema,
  rechargeOrderSchema,
  rechargePackagePageSchema,
  rechargePackageSchema,
  sortedPackagesSchema,
  notificationReplySchema,
} from '../../../src/api/contract/replies';
import { ReplyCode, type Envelope } from '../../../src/api/contract/envelope';
import {
  orderCreateBody,
  orderDetailQuery,
  orderListQuery,
  packageAddBody,
  packageDeleteBody,
  packageEditBody,
  packageListQuery,
  packageSortBody,
  packageStatusBody,
  type PayWay,
} from '../../../src/api/contract/recharge';
import { BODY_LIMIT } from '../../platform/http/body-parsing';
import { AppError, refuse } from '../../platform/http/errors';
import { defineRoute } from '../../platform/http/route';
import { t } from '../../platform/i18n';
import { holdsDemoData } from '../system';
import { receiveNotification, type NotificationResult } from './notify';
import { sandboxRoutes } from './sandbox';
import {
  addPackage,
  createOrder,
  deletePackage,
  editPackage,
  orderDetail,
  orderList,
  packageList,
  setPackageStatus,
  sortPackages,
} from './service';

const ORDER_SCOPE = 'admin: all; partner: its subtree (itself included); merchant: its own';
const packageId = ({ body }: { body: { id: number } }) => body.id;

/** Recharge packages, orders, payment notifications and the sandbox provider (docs/domain.md §6). */
export function rechargeRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const { byWay: providers, sandbox } = ctx.integrations.payment;
  /**
   * Sandbox payments credit balances without real money: on with PAYMENT_SANDBOX=1, else only on
   * a database that holds the demo data (asked on each use: the demo seed may run after start).
   */
  const sandboxOn = async () => ctx.config.paymentSandbox ?? (await holdsDemoData(ctx.db));
  const usable = async (way: PayWay) => way !== 'sandbox' || (await sandboxOn());
  if (sandbox) sandboxRoutes(app, sandbox, sandboxOn);

  // ---- packages (admin manages; partners and merchants buy)

  defineRoute(app, {
    method: 'GET',
    url: '/recharge_package/list',
    reply: rechargePackagePageSchema,
    policy: { roles: ['admin', 'partner', 'merchant'], scope: 'admin: all; others: on sale' },
    query: packageListQuery,
    handler: ({ auth, query }) => packageList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/add',
    reply: rechargePackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageAddBody,
    audit: { action: 'recharge_package.add', resource: 'recharge_package', id: 'result' },
    successMessage: 'recharge.packageCreated',
    handler: ({ body, audit }) => addPackage(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/edit',
    reply: rechargePackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageEditBody,
    audit: { action: 'recharge_package.edit', resource: 'recharge_package', id: packageId },
    successMessage: 'recharge.packageSaved',
    handler: ({ body, audit }) => editPackage(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/sort',
    reply: sortedPackagesSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageSortBody,
    audit: {
      action: 'recharge_package.sort',
      resource: 'recharge_package',
      id: ({ body }) => body.ids,
    },
    successMessage: 'recharge.sorted',
    handler: ({ body, audit }) => sortPackages(ctx, body.ids, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/set_status',
    reply: rechargePackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageStatusBody,
    audit: { action: 'recharge_package.set_status', resource: 'recharge_package', id: packageId },
    successMessage: 'recharge.packageSaved',
    handler: ({ body, audit }) => setPackageStatus(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/delete',
    reply: deletedPackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageDeleteBody,
    audit: { action: 'recharge_package.delete', resource: 'recharge_package', id: packageId },
    successMessage: 'recharge.packageDeleted',
    handler: ({ body, audit }) => deletePackage(ctx, body, audit),
  });

  // ---- orders

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_order/create',
    reply: orderCreateReplySchema,
    // The accounts that hold balances buy; the platform (admin) does not buy from itself.
    policy: { roles: ['partner', 'merchant'], scope: 'self' },
    body: orderCreateBody,
    audit: { action: 'recharge_order.create', resource: 'recharge_order', id: 'result' },
    successMessage: 'recharge.orderCreated',
    handler: async ({ auth, body, audit }) => {
      if (!(await usable(body.pay_way))) throw refuse('recharge.sandboxOff');
      return createOrder(ctx, auth, body, audit);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/recharge_order/detail',
    reply: rechargeOrderSchema,
    policy: { roles: ['admin', 'partner', 'merchant'], scope: ORDER_SCOPE },
    query: orderDetailQuery,
    handler: ({ auth, query }) => orderDetail(ctx, auth, query.order_no),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/recharge_order/list',
    reply: rechargeOrderPageSchema,
    // The page /account/recharge-order is admin's and partners'; a merchant's own orders are
    // listed on its property page (docs/domain.md §2: recharge orders, merchant: own).
    policy: { roles: ['admin', 'partner', 'merchant'], scope: ORDER_SCOPE },
    query: orderListQuery,
    handler: ({ auth, query }) => orderList(ctx, auth, query),
  });

  // ---- payment notifications: the raw body is kept for the signature check

  for (const provider of providers.values()) {
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      scope.route({
        method: 'POST',
        url: `/pay/notify/${provider.way}`,
        config: {
          policy: { roles: 'public', scope: 'the provider, by its signature' },
          audit: {
            none: 'the provider’s notification: the order’s paid state and the ledger’s recharge entry record it',
          },
          doc: {
            bodyType: 'the provider’s signed notification, as it sends it',
            reply: notificationReplySchema,
          },
        },
        handler: async (request): Promise<Envelope<NotificationResult>> => {
          // A sandbox turned off credits nothing, not even an order it signed before.
          if (!(await usable(provider.way))) throw new AppError('recharge.sandboxOff', {}, 404);
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const data = await receiveNotification(ctx, provider, request.headers, raw);
          return { code: ReplyCode.SUCCESS, msg: t(request.locale, 'payment.received'), data };
        },
      });
    });
  }
}
