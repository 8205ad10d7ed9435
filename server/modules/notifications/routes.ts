import type { FastifyInstance } from 'fastify';
import {
  notificationCountSchema,
  notificationListQuery,
  notificationPageSchema,
  notificationReadBody,
  notificationReadReplySchema,
} from '../../../src/api/contract/notifications';
import { defineRoute } from '../../platform/http/route';
import { listNotifications, markRead, unreadCount } from './repo';

/** Every signed-in user's own notifications (docs/domain.md §18). */
export function notificationRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const scope = 'own rows only (user_id = the caller)';

  defineRoute(app, {
    method: 'GET',
    url: '/notification/list',
    reply: notificationPageSchema,
    policy: { roles: 'any', scope },
    query: notificationListQuery,
    handler: ({ auth, query, request }) =>
      listNotifications(ctx.db, auth.user.id, query, request.locale),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/notification/unread_count',
    reply: notificationCountSchema,
    policy: { roles: 'any', scope },
    handler: async ({ auth }) => ({ count: await unreadCount(ctx.db, auth.user.id) }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/notification/read',
    reply: notificationReadReplySchema,
    // A login-as session looks at the merchant's notices without reading them for it.
    policy: { roles: 'any', scope, overstep: false },
    body: notificationReadBody,
    // docs/decisions.md "Notifications": the row's own read_at records it.
    audit: {
      none: "marks the caller's own notifications read: each row's read_at records when, and nothing else changes",
    },
    handler: async ({ auth, body }) => ({
      count: await markRead(
        ctx.db,
        auth.user.id,
        body.all ? 'all' : { ids: body.ids ?? [] },
        ctx.now(),
      ),
    }),
  });
}
