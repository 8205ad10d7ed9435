import type { FastifyInstance } from 'fastify';
import { jobStatsSchema } from '../../../src/api/contract/replies';
import { defineRoute } from '../../platform/http/route';

/** `GET /jobs/stats`: counts per kind and state of the kinds the app runs (`kinds`). */
export function jobRoutes(app: FastifyInstance, kinds: readonly string[]): void {
  const { ctx } = app;
  defineRoute(app, {
    method: 'GET',
    url: '/jobs/stats',
    reply: jobStatsSchema,
    policy: { roles: ['admin'], scope: 'the platform (every kind of job)' },
    handler: async () => ({
      adapter: ctx.jobs.adapter,
      kinds: await ctx.jobs.stats(kinds),
    }),
  });
}
