import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/errors';
import { findPlatformImage } from './platform-images';

/** A year: an image's name is new for every upload and its bytes never change. */
const CACHE_SECONDS = 365 * 24 * 3600;

const notFound = () => new AppError('common.notFound', {}, 404);

/**
 * `GET /api/v1/images/<name>`: a platform image's bytes (docs/domain.md §8 "Platform images").
 * Public: the login page shows a domain's logo to signed-out visitors and readers see articles'
 * images. Only names of recorded images are served (never any other stored file), with their
 * checked type, `nosniff` (the app's headers) and inline; any cache may keep them for a year.
 */
export function platformImageRoute(app: FastifyInstance): void {
  const { ctx } = app;
  app.route({
    method: 'GET',
    url: '/images/:name',
    exposeHeadRoute: false,
    // PNG, JPEG, WebP are compressed already (and ICO files are small).
    compress: false,
    config: {
      policy: { roles: 'public', scope: 'the platform images (logos, favicons, content images)' },
      ownCacheControl: true,
      doc: {
        raw: {
          contentType: 'image/*',
          description:
            'the image’s bytes with its checked content type (404 envelope for an unknown name)',
        },
      },
    },
    handler: async (request, reply) => {
      const { name } = request.params as { name: string };
      const image = await findPlatformImage(ctx.db, name);
      if (!image) throw notFound();
      const read = await ctx.storage.get(image.storage_key);
      if (!read) throw notFound();
      return reply
        .header('content-type', image.content_type)
        .header('content-length', read.info.size)
        .header('content-disposition', 'inline')
        .header('cache-control', `public, max-age=${CACHE_SECONDS}, immutable`)
        .send(read.body);
    },
  });
}
