import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReplyCode, type Envelope } from '../../../src/api/contract/envelope';
import type { AppError } from '../../platform/http/errors';
import { t, type MessageId } from '../../platform/i18n';

/**
 * The bridge between Fastify and @tus/server's `handleWeb` (a web Request in, a web Response
 * out), so tus's answers leave through Fastify's reply like every other: its hooks add the app's
 * security headers, and failures become the envelope in the caller's locale.
 */

/**
 * The headers of tus's reply a tus client reads; nothing else is passed on — above all not its
 * CORS headers (`Access-Control-Allow-Origin: *`): the console uploads from its own origin, and
 * S3 direct uploads go to the bucket, whose own CORS rule applies.
 */
const TUS_HEADERS = [
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-offset',
  'upload-length',
  'upload-metadata',
  'upload-expires',
  'location',
  'cache-control',
  'connection',
];

/** The request as tus reads it; the bytes stay a stream (never held in memory). */
export function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, one);
    }
  }
  const hasBody = request.method === 'POST' || request.method === 'PATCH';
  // Node's web streams and the DOM lib's are the same objects under two type declarations; the
  // DOM lib's RequestInit lacks `duplex` (required by Node for a streamed body).
  const body = hasBody ? Readable.toWeb(request.raw) : undefined;
  // Only the path matters to tus (its Location is relative); the origin is a placeholder.
  return new Request(new URL(request.url, 'http://upload.invalid'), {
    method: request.method,
    headers,
    ...(body ? { body: body as unknown as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** tus's own refusals by status, as our messages (its texts are English protocol notes). */
function tusRefusal(status: number): { status: number; id: MessageId } {
  if (status === 412) return { status, id: 'upload.tusVersion' };
  if (status === 404 || status === 410) return { status, id: 'validation.uploadKey' };
  if (status === 409) return { status, id: 'upload.offsetConflict' };
  if (status === 413) return { status, id: 'upload.tooManyBytes' };
  // An extension the store lacks (Upload-Concat): the client asked for it, no fault of ours.
  if (status === 501) return { status: 400, id: 'upload.badTusRequest' };
  if (status >= 500) return { status, id: 'server.internal' };
  return { status, id: 'upload.badTusRequest' };
}

/**
 * Sends tus's `response` through `reply`: its status and protocol headers, no body on success,
 * the envelope on failure — `failure`'s message when one of our hooks refused (the quota at the
 * last byte), else the one for tus's status.
 */
export async function sendTusResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  response: Response,
  failure?: AppError,
): Promise<FastifyReply> {
  await response.body?.cancel();
  for (const name of TUS_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  if (response.status < 400) return reply.code(response.status).send();
  const refusal = failure
    ? { status: failure.httpStatus, id: failure.messageId, params: failure.params }
    : tusRefusal(response.status);
  const body: Envelope<null> = {
    code: failure?.code ?? ReplyCode.FAIL,
    msg: t(request.locale, refusal.id, 'params' in refusal ? refusal.params : {}),
    data: null,
  };
  return reply.code(refusal.status).send(body);
}
