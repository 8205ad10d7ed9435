import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UPLOAD_GRANT_HEADER } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { AppError } from '../../platform/http/errors';
import type { RouteDoc } from '../../platform/http/route-doc';
import { fileUrlSecret } from '../../platform/storage/create';
import { TUS_ENDPOINT, TUS_PATH } from './grant';
import { verifyGrant, type GrantClaims } from './grant-token';
import { overQuotaNow } from './quota';
import { findUploadByKey, moveUpload, type UploadRow } from './repo';
import { sendTusResponse, webRequestOf } from './tus-reply';
import { EXTENSION_TYPES, extensionOf } from './upload-rules';

/** Where tus keeps unfinished uploads (`<upload_key>` and its `.json`), under DATA_DIR. */
export const tusDirectory = (ctx: Pick<AppContext, 'config'>) =>
  path.join(ctx.config.dataDir, 'tus');

/** The tus protocol version the endpoint speaks (the `Tus-Resumable` header). */
const TUS_VERSION = '1.0.0';

const grantInvalid = () => new AppError('upload.grantInvalid', {}, 401);
/** Another upload's, or one that is no longer open: one answer, as for a missing row. */
const notFound = () => new AppError('validation.uploadKey', {}, 404);

/**
 * Deletes an unfinished tus upload's bytes and its record (the sweep; a refused upload). No error
 * when there are none.
 */
export async function removeTusFiles(ctx: Pick<AppContext, 'config'>, uploadKey: string) {
  const dir = tusDirectory(ctx);
  await fsp.rm(path.join(dir, uploadKey), { force: true });
  await fsp.rm(path.join(dir, `${uploadKey}.json`), { force: true });
}

/**
 * Moves a finished tus upload into the storage under its key (a rename: the tus directory and
 * DATA_DIR/files share a file system) and marks it `uploaded` — before the last PATCH answers,
 * so the browser may make it a resource at once.
 */
async function finishUpload(ctx: AppContext, upload: Upload): Promise<void> {
  const row = await findUploadByKey(ctx.db, upload.id);
  const local = ctx.storage.localFiles;
  if (!row || row.state !== 'pending' || !local) throw new Error(`tus upload ${upload.id} is gone`);
  // The quota again, now that the bytes are complete (it may have been lowered since the grant).
  const over = await overQuotaNow(ctx, row);
  if (over) {
    if (
      await moveUpload(ctx.db, row.id, 'pending', 'refused', { refusedReason: 'upload.overQuota' })
    ) {
      await removeTusFiles(ctx, row.upload_key);
    }
    throw new AppError('upload.overQuota', over, 403);
  }
  const served = EXTENSION_TYPES[extensionOf(row.name)]?.served ?? 'application/octet-stream';
  await local.adopt(row.storage_key, path.join(tusDirectory(ctx), upload.id), {
    contentType: served,
    filename: row.name,
  });
  await fsp.rm(path.join(tusDirectory(ctx), `${upload.id}.json`), { force: true });
  await moveUpload(ctx.db, row.id, 'pending', 'uploaded', { finishedAt: ctx.now() });
}

/** What the API reference says of the tus calls (the protocol's, not the envelope). */
const tusDoc = (description: string): RouteDoc => ({
  bodyType: 'application/offset+octet-stream',
  query: z.strictObject({}),
  raw: { contentType: 'text/plain', description: `${description}; a refusal: the envelope` },
});

/**
 * The local disk's resumable upload endpoint (tus 1.0, @tus/server with @tus/file-store), at
 * `/api/v1/upload/tus` (POST creates) and `/api/v1/upload/tus/<upload_key>` (HEAD: the offset to
 * resume from; PATCH: the next bytes; DELETE: give up). Every request carries the grant of
 * `generate_sts_token` in the `Upload-Grant` header, never the session token: a missing,
 * tampered or expired grant answers 401, a grant for another upload (or an upload no longer
 * open) 404. The upload's id is its upload_key, its length must be the declared size, and the
 * bytes stream to a file under DATA_DIR/tus (never held in memory); when the last byte arrives
 * the file moves into the storage and the upload is `uploaded`. Every reply leaves through
 * Fastify's reply (tus-reply.ts): the app's headers, `Tus-Resumable`, refusals as the envelope.
 */
export function tusRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const secret = fileUrlSecret(ctx.config);
  const grantOf = (headers: { get(name: string): string | null }) =>
    verifyGrant(secret, headers.get(UPLOAD_GRANT_HEADER) ?? undefined, ctx.now());

  /** Our hooks' refusals, by the request tus was handed: the reply tells them (tus-reply.ts). */
  const refusals = new WeakMap<object, AppError>();
  const tus = new Server({
    path: TUS_ENDPOINT,
    datastore: new FileStore({ directory: tusDirectory(ctx) }),
    relativeLocation: true,
    // Checked by the route before tus sees the request: the grant names the upload.
    namingFunction: (req) => {
      const claims = grantOf(req.headers);
      if (!claims) throw grantInvalid();
      return claims.k;
    },
    onUploadFinish: async (_req, upload) => {
      await finishUpload(ctx, upload);
      return {};
    },
    onResponseError: (req, error) => {
      if (error instanceof AppError) {
        refusals.set(req, error);
        return { status_code: error.httpStatus, body: '' };
      }
      if ('status_code' in error && error.status_code < 500) return undefined;
      ctx.log.error({ err: error }, 'tus upload failed');
      return undefined;
    },
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // On every reply, refusals included (the error handler keeps the headers already set).
    reply.header('tus-resumable', TUS_VERSION);
    const header = request.headers[UPLOAD_GRANT_HEADER.toLowerCase()];
    const claims = verifyGrant(secret, typeof header === 'string' ? header : undefined, ctx.now());
    if (!claims) throw grantInvalid();
    const id = request.method === 'POST' ? claims.k : (request.params as { '*': string })['*'];
    if (id !== claims.k) throw notFound();
    const row = await findUploadByKey(ctx.db, claims.k);
    if (!row || !grantFits(row, claims) || row.method !== 'tus') throw notFound();
    if (request.method === 'HEAD' && (row.state === 'uploaded' || row.state === 'used')) {
      // Finished (its file moved into the storage): all bytes are there.
      return reply
        .code(200)
        .header('upload-offset', String(row.size))
        .header('upload-length', String(row.size))
        .header('cache-control', 'no-store')
        .send();
    }
    if (row.state !== 'pending') throw notFound();
    if (request.method === 'POST') {
      if (request.headers['upload-length'] !== String(row.size)) {
        throw new AppError(
          'upload.sizeMismatch',
          { actual: String(request.headers['upload-length'] ?? '?'), declared: row.size },
          400,
        );
      }
      const started = await fsp
        .stat(path.join(tusDirectory(ctx), `${row.upload_key}.json`))
        .catch(() => undefined);
      // Created once; a second POST would truncate what arrived (resume with HEAD instead).
      if (started) throw new AppError('upload.incomplete', {}, 409);
    }
    if (request.method === 'DELETE') {
      // Given up: its bytes go, and its declared size no longer counts against the quota.
      await moveUpload(ctx.db, row.id, 'pending', 'expired', { refusedReason: 'cancelled' });
      await removeTusFiles(ctx, row.upload_key);
      return reply.code(204).send();
    }
    const webRequest = webRequestOf(request);
    const response = await tus.handleWeb(webRequest);
    return sendTusResponse(request, reply, response, refusals.get(webRequest));
  };

  app.register(async (scope) => {
    // The bytes stay in the request stream for tus (Fastify reads no upload body), whatever
    // their type: tus refuses a PATCH that is not application/offset+octet-stream itself.
    scope.addContentTypeParser('*', (_request, _payload, done) => {
      done(null);
    });
    const policy = {
      roles: 'public' as const,
      scope: 'the one upload its Upload-Grant header names, until the grant expires',
    };
    const audit = {
      none: 'the bytes of an upload whose grant generate_sts_token recorded (upload.grant); no session',
    };
    scope.route({
      method: 'POST',
      url: TUS_PATH,
      exposeHeadRoute: false,
      compress: false,
      config: {
        policy,
        audit,
        doc: tusDoc('201 Created, `Location` the upload’s URL (tus creation)'),
      },
      handler: handle,
    });
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${TUS_PATH}/*`,
      exposeHeadRoute: false,
      compress: false,
      config: {
        policy,
        audit,
        doc: tusDoc(
          'HEAD: 200 with `Upload-Offset`; PATCH: 204 with the new `Upload-Offset`; DELETE: 204',
        ),
      },
      handler: handle,
    });
  });
}

const grantFits = (row: UploadRow, claims: GrantClaims) =>
  row.owner_id === claims.o && row.size === claims.s;
