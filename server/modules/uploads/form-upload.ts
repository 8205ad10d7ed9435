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
import { parseInput } from '../../platform/http/validation';
import { newFileKey } from '../../platform/storage/keys';
import { drain, readFormFile, storeFormFile } from './form-file';
import { checkQuota, newUploadKey } from './grant';
import { insertUpload } from './repo';
import { checkName } from './upload-rules';

/**
 * `POST /upload/oss_upload` (multipart form: `type`, then `file`): a small file (≤ 10 MB, and the
 * type's own limit) in one request, streamed to storage (never held in memory), recorded as an
 * `uploaded` upload within the quota. The `type` field must come before the file, so that the
 * name and the limit are known before the bytes arrive. The content is checked when the upload
 * becomes a resource (checkUpload), as for the other methods.
 */
export async function formUpload(
  ctx: AppContext,
  ownerId: number,
  request: FastifyRequest,
  audit: AuditTrail,
): Promise<UploadDoneReply> {
  const { fields, part } = await readFormFile(request, {
    fileSize: FORM_UPLOAD_MAX_BYTES + 1,
    fields: 4,
  });
  let input;
  let served: string;
  try {
    input = parseInput(
      uploadTokenQuery,
      { type: fields.type, name: part.filename ?? '', size: 1 },
      request.locale,
    );
    ({ served } = checkName(input.type, input.name));
  } catch (error) {
    drain(part);
    throw error;
  }
  const maxBytes = Math.min(FORM_UPLOAD_MAX_BYTES, MAX_UPLOAD_BYTES[MEDIA_KIND[input.type]]);

  const now = ctx.now();
  const storageKey = newFileKey('uploads', now);
  const size = await storeFormFile(ctx, part, storageKey, {
    contentType: served,
    filename: input.name,
    maxBytes,
  });

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
