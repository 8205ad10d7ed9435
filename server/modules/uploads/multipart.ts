import { S3ServiceException } from '@aws-sdk/client-s3';
import type { UploadDoneReply } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import type { DirectUploads } from '../../platform/storage/storage';
import { overQuotaNow } from './quota';
import { findOwnUpload, moveUpload, type UploadRow } from './repo';

/** The caller's pending multipart upload, or the same refusal as an unknown key. */
async function pendingMultipart(
  ctx: AppContext,
  ownerId: number,
  uploadKey: string,
): Promise<{ row: UploadRow & { s3_upload_id: string }; direct: DirectUploads }> {
  const row = await findOwnUpload(ctx.db, ownerId, uploadKey);
  // The storage the upload was granted in (the one in use may have changed since).
  const direct = row ? await ctx.storage.directUploadsOf(row.storage_key) : null;
  if (!row || row.method !== 'multipart' || !row.s3_upload_id || !direct) {
    throw refuse('validation.uploadKey');
  }
  if (row.state !== 'pending') throw refuse('validation.uploadKey');
  return { row: row as UploadRow & { s3_upload_id: string }, direct };
}

/** `GET /upload/part_urls`: fresh part URLs of the caller's pending multipart upload (a resume). */
export async function partUrls(
  ctx: AppContext,
  ownerId: number,
  uploadKey: string,
  numbers: readonly number[],
) {
  if (numbers.some((n) => n < 1 || n > 10_000)) throw refuse('validation.invalid');
  const { row, direct } = await pendingMultipart(ctx, ownerId, uploadKey);
  const urls = await direct.partUrls(row.storage_key, row.s3_upload_id, [...new Set(numbers)]);
  return { parts: urls.map((p) => ({ part_number: p.partNumber, url: p.url })) };
}

/**
 * `POST /upload/complete`: completes the caller's multipart upload from its parts' ETags. Parts
 * that S3 refuses (missing, wrong ETag, too small) leave the upload pending so that the browser
 * sends them again; a completed object of another size than declared is deleted and the upload
 * refused (a grant admits exactly its declared size).
 */
export async function completeMultipart(
  ctx: AppContext,
  ownerId: number,
  body: { upload_key: string; parts: { part_number: number; etag: string }[] },
  audit: AuditTrail,
): Promise<UploadDoneReply> {
  const { row, direct } = await pendingMultipart(ctx, ownerId, body.upload_key);
  audit.target(row.id);
  let size: number;
  try {
    const info = await direct.completeMultipart(
      row.storage_key,
      row.s3_upload_id,
      body.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
    );
    size = info.size;
  } catch (error) {
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : 0;
    if (status && status >= 400 && status < 500) throw refuse('upload.partsInvalid');
    throw error;
  }
  if (size !== row.size) {
    if (
      await moveUpload(ctx.db, row.id, 'pending', 'refused', {
        refusedReason: 'upload.sizeMismatch',
      })
    ) {
      await ctx.storage.delete(row.storage_key);
    }
    throw refuse('upload.sizeMismatch', { actual: size, declared: row.size });
  }
  const over = await overQuotaNow(ctx, row);
  if (over) {
    if (
      await moveUpload(ctx.db, row.id, 'pending', 'refused', { refusedReason: 'upload.overQuota' })
    ) {
      await ctx.storage.delete(row.storage_key);
    }
    throw refuse('upload.overQuota', over);
  }
  audit.change({ state: 'pending' }, { state: 'uploaded', size });
  await runInTransaction(
    ctx.db,
    async (trx) => {
      if (!(await moveUpload(trx, row.id, 'pending', 'uploaded', { finishedAt: ctx.now() }))) {
        throw refuse('validation.uploadKey');
      }
    },
    { audit },
  );
  return { upload_key: row.upload_key, size };
}
