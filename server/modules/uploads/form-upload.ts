import type { MultipartFile } from '@fastify/multipart';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  FORM_UPLOAD_MAX_BYTES,
  MAX_UPLOAD_BYTES,
  MEDIA_KIND,
  uploadTokenQuery,
  type UploadDoneReply,
} from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { AppError, refuse } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { newFileKey } from '../../platform/storage/keys';
import { FileTooLargeError } from '../../platform/storage/storage';
import { checkQuota, newUploadKey } from './grant';
import { insertUpload } from './repo';
import { checkName, formatBytes } from './upload-rules';

/**
 * `POST /upload/oss_upload` (multipart form: `type`, then `file`): a small file (≤ 10 MB, and the
 * type's own limit) in one request, streamed to storage (never held in memory), recorded as an
 * `uploaded` upload within the quota. The `type` field must come before the file, so that the
 * name and the limit are known before the bytes arrive. The content is checked when the upload
 * becomes a resource (checkUpload), as for the other methods.
 */
/** A form the parser cannot read (cut short, malformed, over its limits): the client's mistake. */
function badForm(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  return new AppError('request.bad', {}, status && status >= 400 && status < 500 ? status : 400);
}

export async function formUpload(
  ctx: AppContext,
  ownerId: number,
  request: FastifyRequest,
  audit: AuditTrail,
): Promise<UploadDoneReply> {
  // Parts in their order: the `type` field must have arrived when the file starts. Busboy stops
  // the file one byte past the larger limit; the storage's own limit refuses it.
  if (!request.isMultipart()) throw refuse('upload.fileMissing');
  let type: unknown;
  let part: MultipartFile | undefined;
  try {
    // The name as sent (busboy would drop a path silently): a path is refused, as by the grant.
    for await (const next of request.parts({
      limits: { fileSize: FORM_UPLOAD_MAX_BYTES + 1, files: 1, fields: 4, parts: 6 },
      preservePath: true,
    })) {
      if (next.type === 'file') {
        part = next;
        break;
      }
      if (next.fieldname === 'type') type = next.value;
    }
  } catch (error) {
    throw badForm(error);
  }
  if (!part) throw refuse('upload.fileMissing');
  let input;
  let served: string;
  try {
    input = parseInput(
      uploadTokenQuery,
      { type, name: part.filename ?? '', size: 1 },
      request.locale,
    );
    ({ served } = checkName(input.type, input.name));
  } catch (error) {
    part.file.resume(); // let the rest of the request drain
    throw error;
  }
  const maxBytes = Math.min(FORM_UPLOAD_MAX_BYTES, MAX_UPLOAD_BYTES[MEDIA_KIND[input.type]]);

  const now = ctx.now();
  const storageKey = newFileKey('uploads', now);
  let size: number;
  // An error of the file's own stream is the request's (cut short, malformed), not the storage's:
  // the storage reads a pass-through, so its own failures never show on the file's stream.
  const file = part.file;
  let streamError: unknown = file.errored ?? undefined;
  const body = new PassThrough();
  // The storage may attach to `body` only after an await (a directory made, a connection): an
  // error before that would be an unhandled 'error' event and end the process. It is kept in
  // `streamError` and answered below; the storage still sees `body` destroyed.
  body.on('error', () => undefined);
  file.on('error', (error) => {
    streamError = error;
    body.destroy(error);
  });
  if (streamError !== undefined) body.destroy(streamError as Error);
  else file.pipe(body);
  try {
    ({ size } = await ctx.storage.put(storageKey, body, {
      contentType: served,
      filename: input.name,
      maxBytes,
    }));
  } catch (error) {
    part.file.resume(); // let the rest of the request drain
    await ctx.storage.delete(storageKey).catch(() => undefined);
    const tooLarge =
      error instanceof FileTooLargeError ||
      (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
    if (tooLarge) throw refuse('upload.tooLarge', { max: formatBytes(maxBytes) });
    if (streamError !== undefined) throw badForm(streamError);
    throw error;
  }
  if (size === 0) {
    await ctx.storage.delete(storageKey);
    throw refuse('validation.fileSize');
  }

  const uploadKey = newUploadKey();
  try {
    audit.change(null, { name: input.name, type: input.type, size, method: 'form' });
    await runInTransaction(
      ctx.db,
      async (trx) => {
        await checkQuota(ctx, trx, ownerId, size);
        return insertUpload(trx, {
          uploadKey,
          ownerId,
          type: input.type,
          name: input.name,
          size,
          storageKey,
          method: 'form',
          s3UploadId: null,
          state: 'uploaded',
          createdAt: now,
          expiresAt: now,
          finishedAt: ctx.now(),
        });
      },
      { audit },
    );
  } catch (error) {
    await ctx.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
  return { upload_key: uploadKey, size };
}
