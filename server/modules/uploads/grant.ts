import { randomBytes } from 'node:crypto';
import {
  UPLOAD_GRANT_HEADER,
  type ResourceType,
  type UploadTokenReply,
} from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { API_PREFIX } from '../../platform/http/policy';
import { fileUrlSecret } from '../../platform/storage/create';
import { newFileKey } from '../../platform/storage/keys';
import { UPLOAD_GRANT_SECONDS } from '../../platform/storage/storage';
import { lockUsers } from '../ledger';
import { signGrant } from './grant-token';
import { quotaOf } from './quota';
import { insertUpload, type NewUpload } from './repo';
import { checkName, checkSize, formatBytes } from './upload-rules';

/** The local disk's resumable endpoint (tus.ts). */
export const TUS_PATH = '/upload/tus';
export const TUS_ENDPOINT = `${API_PREFIX}${TUS_PATH}`;

/** A new upload's key: 32 unguessable URL-safe characters (the contract's 16–64). */
export const newUploadKey = () => randomBytes(24).toString('base64url');

/**
 * Refuses when `size` more bytes would pass the owner's quota. Holds the owner's row on
 * PostgreSQL (SQLite runs one write transaction at a time), so parallel grants cannot pass the
 * quota together.
 */
export async function checkQuota(
  ctx: AppContext,
  trx: Executor,
  ownerId: number,
  size: number,
): Promise<void> {
  await lockUsers(ctx, trx, [ownerId]);
  const { used, quota } = await quotaOf(ctx, ownerId, trx);
  if (used + size > quota) throw overQuota(size, used, quota);
}

/** The refusal of `size` more bytes when `used` of `quota` are taken. */
export const overQuota = (size: number, used: number, quota: number) =>
  refuse('upload.overQuota', {
    size: formatBytes(size),
    free: formatBytes(Math.max(0, quota - used)),
    quota: formatBytes(quota),
  });

/**
 * `GET /upload/generate_sts_token {type, name, size}`: checks the name (no path, no control
 * character, an extension the type takes), the type's size limit and the quota against the
 * declared size before any byte is sent, records a pending upload (its declared size counts
 * against the quota until it ends) and answers how to send the bytes: the tus endpoint with a
 * grant token (local disk) or presigned multipart part URLs (S3). The grant lives 1 hour.
 */
export async function grantUpload(
  ctx: AppContext,
  ownerId: number,
  input: { type: ResourceType; name: string; size: number },
  audit: AuditTrail,
): Promise<UploadTokenReply> {
  const { type, name, size } = input;
  const { served } = checkName(type, name);
  checkSize(type, size);
  // Before object storage starts anything; again in the transaction that records the upload.
  const before = await quotaOf(ctx, ownerId);
  if (before.used + size > before.quota) throw overQuota(size, before.used, before.quota);

  const now = ctx.now();
  const expiresAt = now + UPLOAD_GRANT_SECONDS * 1000;
  const uploadKey = newUploadKey();
  const storageKey = newFileKey('uploads', now);
  // Object storage in use now: the browser uploads there (the key is that storage's from now on).
  const direct = await ctx.storage.directUploadsFor(storageKey);
  const multipart = direct
    ? await direct.createMultipart(storageKey, { contentType: served, size, filename: name })
    : null;
  const upload: NewUpload = {
    uploadKey,
    ownerId,
    type,
    name,
    size,
    storageKey,
    method: multipart ? 'multipart' : 'tus',
    s3UploadId: multipart?.uploadId ?? null,
    state: 'pending',
    createdAt: now,
    expiresAt,
    finishedAt: null,
  };
  try {
    audit.change(null, { name, type, size, method: upload.method });
    await runInTransaction(
      ctx.db,
      async (trx) => {
        await checkQuota(ctx, trx, ownerId, size);
        return insertUpload(trx, upload);
      },
      { audit },
    );
  } catch (error) {
    if (multipart && direct) {
      await direct.abortMultipart(storageKey, multipart.uploadId).catch(() => undefined);
    }
    throw error;
  }

  if (multipart) {
    return {
      upload_key: uploadKey,
      expire_at: expiresAt,
      method: 'multipart',
      tus: null,
      multipart: {
        part_size: multipart.partSize,
        part_count: multipart.partCount,
        parts: multipart.parts.map((p) => ({ part_number: p.partNumber, url: p.url })),
      },
    };
  }
  const token = signGrant(fileUrlSecret(ctx.config), {
    k: uploadKey,
    o: ownerId,
    s: size,
    e: expiresAt,
  });
  return {
    upload_key: uploadKey,
    expire_at: expiresAt,
    method: 'tus',
    tus: { endpoint: TUS_ENDPOINT, headers: { [UPLOAD_GRANT_HEADER]: token } },
    multipart: null,
  };
}
