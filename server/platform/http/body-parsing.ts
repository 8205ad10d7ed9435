import type { FastifyInstance } from 'fastify';

/** docs/decisions.md: bodies over 64 KB answer 413. */
export const BODY_LIMIT = 64 * 1024;

/**
 * JSON only: text/plain is refused (415) rather than handed to the handlers as a string, and an
 * empty JSON body counts as no body (calls without a payload may send the header anyway).
 */
export function installBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      const text = String(body);
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, done);
    },
  );
}
