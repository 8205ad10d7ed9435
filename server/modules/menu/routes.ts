import type { FastifyInstance } from 'fastify';
import { menuSchema } from '../../../src/api/contract/replies';
import { defineRoute } from '../../platform/http/route';
import { menuFor } from './service';

export function menuRoutes(app: FastifyInstance): void {
  defineRoute(app, {
    method: 'POST',
    url: '/api/user/menu',
    reply: menuSchema,
    policy: { roles: 'any', scope: 'self' },
    audit: { none: 'reads only' },
    handler: async ({ auth }) =>
      menuFor({ role: auth.role, show_clip_menu: auth.user.show_clip_menu }),
  });
}
