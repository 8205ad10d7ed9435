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

/** Recharge packages, orders, payment notifications and the sandbox provider (DOMAIN.md §5). */
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
    successMessage: 'recharge.packageCreated',
    handler: ({ auth, body, request }) => addPackage(ctx, auth, body, { ip: request.ip }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/edit',
    reply: rechargePackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageEditBody,
    successMessage: 'recharge.packageSaved',
    handler: ({ auth, body, request }) => editPackage(ctx, auth, body, { ip: request.ip }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/sort',
    reply: sortedPackagesSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageSortBody,
    successMessage: 'recharge.sorted',
    handler: ({ auth, body, request }) => sortPackages(ctx, auth, body.ids, { ip: request.ip }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/set_status',
    reply: rechargePackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageStatusBody,
    successMessage: 'recharge.packageSaved',
    handler: ({ auth, body, request }) => setPackageStatus(ctx, auth, body, { ip: request.ip }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_package/delete',
    reply: deletedPackageSchema,
    policy: { roles: ['admin'], scope: 'platform packages' },
    body: packageDeleteBody,
    successMessage: 'recharge.packageDeleted',
    handler: ({ auth, body, request }) => deletePackage(ctx, auth, body, { ip: request.ip }),
  });

  // ---- orders

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_order/create',
    reply: orderCreateReplySchema,
    // The accounts that hold balances buy; the platform (admin) does not buy from itself.
    policy: { roles: ['partner', 'merchant'], scope: 'self' },
    body: orderCreateBody,
    successMessage: 'recharge.orderCreated',
    handler: async ({ auth, body }) => {
      if (!(await usable(body.pay_way))) throw refuse('recharge.sandboxOff');
      return createOrder(ctx, auth, body);
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
    // listed on its property page (DOMAIN.md §11: recharge orders, merchant: own).
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
