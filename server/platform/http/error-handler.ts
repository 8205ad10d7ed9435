import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ReplyCode, type Envelope } from '../../../src/api/contract/envelope';
import { localeOf, t, type MessageId } from '../i18n';
import { AppError } from './errors';
import { documentHeaders } from './security-headers';
import { ValidationError } from './validation';

/** Fastify's own client errors, as the HTTP status and message we answer with. */
const FASTIFY_CLIENT_ERRORS: Readonly<Record<string, [number, MessageId]>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'validation.malformed'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'validation.malformed'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'request.tooLarge'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'request.bad'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'request.unsupportedType'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'request.unsupportedType'],
  FST_ERR_BAD_URL: [400, 'request.bad'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'request.urlTooLong'],
};

function fail(reply: FastifyReply, status: number, code: number, msg: string) {
  const body: Envelope<null> = { code, msg, data: null };
  return reply.status(status).send(body);
}

/**
 * Every failure as `{code, msg, data: null}`: refusals in the caller's locale, client mistakes with
 * their 4xx status, and real faults as a logged 500 without details in the reply.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const locale = request.locale;
    if (error instanceof ValidationError) {
      return fail(reply, 200, ReplyCode.FAIL, error.rendered);
    }
    if (error instanceof AppError) {
      return fail(reply, error.httpStatus, error.code, t(locale, error.messageId, error.params));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return fail(reply, known[0], ReplyCode.FAIL, t(locale, known[1]));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return fail(reply, status, ReplyCode.FAIL, t(locale, 'request.bad'));
    }
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return fail(reply, 500, ReplyCode.FAIL, t(locale, 'server.internal'));
  });
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before a route (and its onRequest
 * hooks, which set the locale) runs, such as a malformed percent-encoding in the path.
 */
export function frameworkErrorReply(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  request.locale = localeOf(request.headers);
  // No onSend hook runs for these replies: they get the API's headers here.
  reply.headers({ ...documentHeaders(), 'cache-control': 'no-store' });
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (known) return fail(reply, known[0], ReplyCode.FAIL, t(request.locale, known[1]));
  request.log.error({ err: error, reqId: request.id }, 'request failed');
  return fail(reply, 500, ReplyCode.FAIL, t(request.locale, 'server.internal'));
}

/** Unknown /api paths answer 404 `{code: 0, msg}`. */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return fail(reply, 404, ReplyCode.FAIL, t(request.locale, 'api.notFound'));
}

export function plainNotFound(request: FastifyRequest, reply: FastifyReply) {
  return fail(reply, 404, ReplyCode.FAIL, t(request.locale, 'common.notFound'));
}
