import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterEach, expect } from 'vitest';
import type { z } from 'zod';
import { ReplyCode } from '../../src/api/contract/envelope';
import { failureEnvelope, successEnvelope } from '../../server/platform/http/openapi';

/**
 * Every reply of the server suites is checked against what its route declares (the schemas the
 * API reference is built from): a success against the route's reply schema inside the envelope,
 * any failure against the failure envelope, a download or page against its declared content
 * type. A mismatch fails the test that made the request (tests/server/helpers.ts installs this
 * in every app it builds).
 */
const mismatches: string[] = [];

const mediaType = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();

function problemOf(schema: z.ZodType, body: unknown): string | undefined {
  const result = schema.safeParse(body);
  // Objects in the schemas drop unknown keys when parsing: a field the schema does not name (a
  // leak, or a schema behind the code) shows as a difference.
  if (result.success) {
    return isDeepStrictEqual(result.data, body) ? undefined : 'fields the schema does not name';
  }
  return result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`)
    .join('; ');
}

/** Installs the check (an onSend hook, before compression) on an app being built. */
export function checkReplies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const doc = request.routeOptions.config?.doc;
    const where = `${request.method} ${request.url.split('?')[0]} → ${reply.statusCode}`;
    const type = mediaType(String(reply.getHeader('content-type') ?? ''));
    if (type !== 'application/json') {
      // Not JSON: only where the route says so (a CSV download, a checkout page, a redirect).
      const declared = doc?.raw && mediaType(doc.raw.contentType);
      // `*/*`: a stored file, sent with the content type stored with it; `image/*`: any image.
      const matches =
        declared === type ||
        declared === '*/*' ||
        (!!declared?.endsWith('/*') && type.startsWith(declared.slice(0, -1)));
      if (payload !== null && payload !== undefined && payload !== '' && !matches) {
        mismatches.push(
          `${where}: ${type || 'no content type'} where the route declares ${declared ?? 'the JSON envelope'}`,
        );
      }
      return payload;
    }
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : undefined;
    if (text === undefined) return payload;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      mismatches.push(`${where}: not JSON`);
      return payload;
    }
    const code = (body as { code?: unknown } | null)?.code;
    let schema: z.ZodType | undefined;
    if (code === undefined && doc?.raw?.schema) schema = doc.raw.schema;
    else if (code === ReplyCode.SUCCESS) schema = doc?.reply && successEnvelope(doc.reply);
    else schema = failureEnvelope;
    const problem = schema ? problemOf(schema, body) : 'no reply schema declared';
    if (problem) mismatches.push(`${where}: ${problem}`);
    return payload;
  });
}

/** The mismatches seen since the last call (and forgets them). */
export function takeReplyMismatches(): string[] {
  return mismatches.splice(0);
}

// Replies made outside TestApp.call (direct injects, the sandbox's notification) are checked here.
afterEach(() => {
  expect(takeReplyMismatches(), 'replies that do not match their route’s schema').toEqual([]);
});
