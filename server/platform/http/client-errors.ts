import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { ReplyCode, type Envelope } from '../../../src/api/contract/envelope';
import { localeOf, t, type MessageId } from '../i18n';

/** Errors Node's HTTP parser raises before Fastify sees a request, as our status and message. */
const PARSER_ERRORS: Readonly<Record<string, [number, MessageId]>> = {
  HPE_HEADER_OVERFLOW: [431, 'request.headersTooLarge'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request.timeout'],
};

/**
 * The `lang` / `Accept-Language` headers read from the raw bytes the parser refused (a header
 * too large is usually not one of them), so the refusal still speaks the caller's language.
 */
function headersOf(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  // Node sets `rawPacket` to the bytes received so far (Fastify's type says otherwise).
  if (!Buffer.isBuffer(raw)) return headers;
  for (const line of raw.subarray(0, 16_384).toString('latin1').split('\r\n').slice(1)) {
    const match = /^(lang|accept-language):[ \t]*(.{0,200})/i.exec(line);
    if (match) headers[match[1].toLowerCase()] ??= match[2];
  }
  return headers;
}

/**
 * Fastify's `clientErrorHandler` option: a request Node's parser refused (headers or URL over
 * the size limit, malformed HTTP, too slow) gets the `{code, msg, data}` envelope like every
 * other error, in place of Fastify's default body. The socket is raw: we write the whole reply.
 */
export function clientErrorReply(
  this: FastifyInstance,
  error: ConnectionError,
  socket: Socket,
): void {
  // A reset connection has nobody left to answer (Node's own handler does the same).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, id] = (error.code && PARSER_ERRORS[error.code]) || [400, 'request.bad'];
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const envelope: Envelope<null> = {
      code: ReplyCode.FAIL,
      msg: t(localeOf(headersOf(error.rawPacket)), id),
      data: null,
    };
    const body = JSON.stringify(envelope);
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}
