import type { FastifyInstance } from 'fastify';
import { imitateTitleBody, imitateTitleReplySchema } from '../../../src/api/contract/ai-text';
import { defineRoute } from '../../platform/http/route';
import { imitateTitles } from './imitate';

/** AI text for matrix distribution: a partner's or merchant's tool (admin and agent publish nothing). */
export function aiTitleRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/ai_imitate_title',
    reply: imitateTitleReplySchema,
    policy: { roles: ['partner', 'merchant'], scope: 'none: no rows are read or written' },
    body: imitateTitleBody,
    audit: {
      none: 'writes titles for the caller to copy: nothing is stored, charged or published',
    },
    handler: ({ body }) => imitateTitles(ctx, body),
  });
}
