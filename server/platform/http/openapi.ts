import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ReplyCode } from '../../../src/api/contract/envelope';
import { API_PREFIX, type RegisteredRoute } from './policy';

/**
 * The API reference, generated from the routes as registered (path, method, policy, and the zod
 * schemas of query, body and reply): an OpenAPI 3.1 document, served at GET /api/v1/openapi.json
 * and rendered into docs/api.md (scripts/docs-api.ts). Nothing in it is written by hand.
 */

type Json = Record<string, unknown>;

/** The failure every route may answer: `{code, msg, data: null}` (docs/decisions.md). */
export const failureEnvelope = z.strictObject({
  code: z.number().refine((code) => code !== ReplyCode.SUCCESS),
  msg: z.string(),
  data: z.null(),
});

/** The success envelope around a route's reply data. */
export const successEnvelope = (data: z.ZodType) =>
  z.strictObject({ code: z.literal(ReplyCode.SUCCESS), msg: z.string(), data });

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect). Named parts (`.meta({ id })`,
 * recursive ones) go to `components.schemas`.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Json & { $defs?: Json };
  const text = (value: unknown) =>
    JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/');
  for (const [name, def] of Object.entries($defs ?? {})) {
    const known = components[name];
    if (known !== undefined && text(known) !== text(def)) {
      throw new Error(`two different schemas are named ${name}`);
    }
    components[name] = JSON.parse(text(def));
  }
  return JSON.parse(text(rest)) as Json;
}

function parameters(query: z.ZodType, components: Json): Json[] {
  const schema = jsonSchema(query, 'input', components);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function operation(route: RegisteredRoute, components: Json): Json {
  const { policy, doc = {} } = route;
  const op: Json = {
    operationId: `${route.method.toLowerCase()}${route.url.slice(API_PREFIX.length)}`,
    'x-policy': {
      roles: policy.roles,
      ...(policy.scope ? { scope: policy.scope } : {}),
      overstep: policy.overstep ?? true,
    },
    security: policy.roles === 'public' ? [] : [{ token: [] }],
  };
  // What the call audits (docs/architecture.md §Audit): its action and resource, or why nothing.
  if (route.audit) {
    op['x-audit'] =
      'none' in route.audit
        ? { none: route.audit.none }
        : { action: route.audit.action, resource: route.audit.resource };
  }
  if (doc.raw) op['x-raw'] = true;
  if (doc.query) op.parameters = parameters(doc.query, components);
  if (doc.body || doc.bodyType) {
    const type = doc.bodyType ?? 'application/json';
    op.requestBody = {
      required: true,
      content: {
        [doc.bodyType && !doc.body ? '*/*' : type]: doc.body
          ? { schema: jsonSchema(doc.body, 'input', components) }
          : { 'x-description': type },
      },
    };
  }
  const success = doc.raw
    ? {
        description: doc.raw.description,
        content: {
          [doc.raw.contentType]: doc.raw.schema
            ? { schema: jsonSchema(doc.raw.schema, 'output', components) }
            : {},
        },
      }
    : {
        description: 'Success: the envelope with the reply data',
        content: {
          'application/json': {
            schema: jsonSchema(successEnvelope(doc.reply ?? z.unknown()), 'output', components),
          },
        },
      };
  op.responses = {
    '200': success,
    default: {
      description:
        'A refusal (HTTP 200, code 0), an ended session (code 50008/50012/50014), or an HTTP 4xx/5xx failure',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    },
  };
  return op;
}

/** The OpenAPI 3.1 document of the routes (sorted: the same routes give the same text). */
export function buildOpenApi(routes: readonly RegisteredRoute[]): Json {
  const components: Json = {};
  components.Failure = jsonSchema(failureEnvelope, 'output', components);
  const paths: Record<string, Json> = {};
  const sorted = [...routes].sort(
    (a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method),
  );
  for (const route of sorted) {
    const path = route.url.slice(API_PREFIX.length);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AI short-video console API',
      version: '1',
      description:
        'Generated from the route definitions (server/platform/http/openapi.ts). Every JSON reply is the envelope {code, msg, data}; code 1 is success.',
    },
    servers: [{ url: API_PREFIX }],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(components).sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } },
    },
  };
}

/** Routes whose success reply nobody described (must be none: a test lists them). */
export function routesWithoutReply(routes: readonly RegisteredRoute[]): string[] {
  return routes
    .filter((route) => !route.doc?.reply && !route.doc?.raw)
    .map((route) => `${route.method} ${route.url}`);
}

/** GET /api/v1/openapi.json: the document above, for tools (Swagger UI, client generators). */
export function openApiRoutes(app: FastifyInstance): void {
  let document: Json | undefined;
  app.route({
    method: 'GET',
    url: '/openapi.json',
    exposeHeadRoute: false,
    config: {
      policy: { roles: 'public', scope: 'the API reference: no data' },
      doc: {
        raw: {
          contentType: 'application/json; charset=utf-8',
          schema: z.looseObject({
            openapi: z.literal('3.1.0'),
            paths: z.record(z.string(), z.unknown()),
          }),
          description: 'This document (OpenAPI 3.1), not wrapped in the envelope',
        },
      },
    },
    // Built on first use: every route is registered by then.
    handler: async () => (document ??= buildOpenApi(app.apiRoutes)),
  });
}
