import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseRange } from '../../platform/http/byte-range';
import { AppError } from '../../platform/http/errors';
import { fileUrlSecret } from '../../platform/storage/create';
import { verifyFileSignature } from '../../platform/storage/signed-urls';
import { contentDisposition, RangeNotSatisfiableError } from '../../platform/storage/storage';

/** Documentation of the signed URL's query (checked by `verifyFileSignature`, not by zod). */
const signedQuery = z.strictObject({
  exp: z.string().regex(/^\d+$/).describe('expiry, epoch seconds'),
  dl: z.string().optional().describe('a download link: served as an attachment under this name'),
  sig: z.string().describe('HMAC-SHA256 of the key and the expiry, base64url'),
});

/** Missing file, wrong or expired signature, invalid key: one answer, so none can be told apart. */
const notFound = () => new AppError('common.notFound', {}, 404);

/**
 * `GET /api/v1/files/<key>?exp=…&sig=…`: a stored file read through a signed URL (the local
 * disk's; S3 hands out its own presigned URLs). Public: the signature is the credential, never
 * the session token. Range requests answer 206 (416 past the end) so a player seeks; the reply
 * carries the stored content type, `nosniff`, a Content-Disposition (inline for media) and may be
 * kept by the holder's browser until the URL expires (`private`), no longer.
 */
export function fileRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const secret = fileUrlSecret(ctx.config);
  app.route({
    method: 'GET',
    url: '/files/*',
    exposeHeadRoute: false,
    // Media are compressed already, and a compressed body would not match Content-Range.
    compress: false,
    config: {
      policy: { roles: 'public', scope: 'the one file a signed URL names, until it expires' },
      ownCacheControl: true,
      doc: {
        query: signedQuery,
        raw: {
          contentType: '*/*',
          description:
            'the file’s bytes with its stored content type (206 for a Range; 416 past the end; 404 envelope for a missing file and for a wrong or expired signature alike)',
        },
      },
    },
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const { exp, sig, dl } = request.query as Record<string, unknown>;
      const now = ctx.now();
      // The signature first: nothing about the storage is looked at for an unsigned request.
      if (!verifyFileSignature(secret, key, exp, sig, now, dl)) throw notFound();
      const info = await ctx.storage.stat(key);
      if (!info) throw notFound();
      const range = parseRange(request.headers.range, info.size);
      const unsatisfiable = () => {
        reply.header('content-range', `bytes */${info.size}`);
        return new AppError('file.rangeNotSatisfiable', {}, 416);
      };
      if (range === 'unsatisfiable') throw unsatisfiable();
      let read;
      try {
        read = await ctx.storage.get(key, range);
      } catch (error) {
        if (error instanceof RangeNotSatisfiableError) throw unsatisfiable();
        throw error;
      }
      if (!read) throw notFound();
      const served = read.range;
      const secondsLeft = Math.max(0, Math.floor((Number(exp) * 1000 - now) / 1000));
      reply
        .status(served ? 206 : 200)
        .header('content-type', read.info.contentType)
        .header('content-length', served ? served.end - served.start + 1 : read.info.size)
        .header('accept-ranges', 'bytes')
        .header(
          'content-disposition',
          contentDisposition(read.info, typeof dl === 'string' ? dl : undefined),
        )
        .header('cache-control', `private, max-age=${secondsLeft}`);
      if (served) reply.header('content-range', `bytes ${served.start}-${served.end}/${info.size}`);
      return reply.send(read.body);
    },
  });
}
