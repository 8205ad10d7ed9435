import type { FastifyInstance } from 'fastify';
import { jobStatsSchema } from '../../../src/api/contract/replies';
import { defineRoute } from '../../http/route';
import { appJobKinds } from '../../jobs/kinds';

export function jobRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  defineRoute(app, {
    method: 'GET',
    url: '/jobs/stats',
    reply: jobStatsSchema,
    policy: { roles: ['admin'], scope: 'the platform (every kind of job)' },
    handler: async () => ({
      adapter: ctx.jobs.adapter,
      kinds: await ctx.jobs.stats(appJobKinds(ctx).map((kind) => kind.kind)),
    }),
  });
}
