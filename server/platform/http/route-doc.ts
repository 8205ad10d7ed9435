import type { z } from 'zod';

/**
 * What the API reference (server/platform/http/openapi.ts, docs/api.md) and the tests' reply check know of
 * a route, kept in its Fastify config next to the policy: defineRoute fills it from the route's
 * own schemas, routes registered by hand (a download, a provider's callback, a page) write it.
 */
export interface RouteDoc {
  /** The query string, as validated. */
  query?: z.ZodType;
  /** The JSON body, as validated. */
  body?: z.ZodType;
  /** The body is not JSON: its content type (e.g. a provider's raw notification). */
  bodyType?: string;
  /** `data` of the `{code: 1, msg, data}` envelope of a success. */
  reply?: z.ZodType;
  /** A success that is not the envelope: its content type, and its schema when it is JSON. */
  raw?: { contentType: string; schema?: z.ZodType; description: string };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
  }
}
