import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Query parameters whose values open something: export tickets, payment and file URL signatures
 * (`sign`, `sig`), tokens, codes, passwords, keys. Whole words of the name (`card_pwd`, `sign`),
 * so `keyword` is kept.
 */
const SECRET_PARAM = /(^|_)(ticket|sig|sign|signature|token|secret|password|pwd|code|key)(_|$)/i;

/** A request URL as it may be logged: the path, and the query with secret values replaced. */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // a malformed name is logged as sent
      }
      return equals >= 0 && SECRET_PARAM.test(name) ? `${rawName}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/**
 * Fastify's request serializer (its public `serializers` logger option) with the URL redacted:
 * the default one writes `request.url` whole, so export tickets and sandbox payment signatures
 * would land in the log.
 */
const requestLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: loggableUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

/**
 * Request headers never reach the log: they carry sessions (`token`), platform access tokens
 * (`access-token`, the sandbox platform's uploads) and signatures. @fastify/multipart logs its
 * busboy options, headers included, at trace level.
 */
const REDACTED = ['headers', '*.headers', 'busboyOptions.headers'];

/** The app's logger option: the caller's (or the configured level) with the serializers above. */
export function loggerOptions(
  given: FastifyServerOptions['logger'],
  level: string,
): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const base = typeof given === 'object' && given !== null ? given : { level };
  return {
    ...base,
    serializers: { ...base.serializers, ...requestLogSerializers },
    redact: { paths: REDACTED, censor: '[redacted]' },
  };
}
