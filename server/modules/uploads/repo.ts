import type { Selectable } from 'kysely';
import type { Executor, UploadsTable } from '../../platform/db/schema';

export type UploadRow = Selectable<UploadsTable>;
export type UploadState = 'pending' | 'uploaded' | 'used' | 'refused' | 'expired';
export type UploadMethod = 'tus' | 'multipart' | 'form';

export interface NewUpload {
  uploadKey: string;
  ownerId: number;
  type: string;
  name: string;
  size: number;
  storageKey: string;
  method: UploadMethod;
  s3UploadId: string | null;
  state: UploadState;
  createdAt: number;
  expiresAt: number;
  finishedAt: number | null;
}

export async function insertUpload(db: Executor, upload: NewUpload): Promise<number> {
  const row = await db
    .insertInto('uploads')
    .values({
      upload_key: upload.uploadKey,
      owner_id: upload.ownerId,
      type: upload.type,
      name: upload.name,
      size: upload.size,
      storage_key: upload.storageKey,
      method: upload.method,
      s3_upload_id: upload.s3UploadId,
      state: upload.state,
      refused_reason: null,
      created_at: upload.createdAt,
      expires_at: upload.expiresAt,
      finished_at: upload.finishedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The upload by its key, only when it is the owner's (another's answers like a missing one). */
export function findOwnUpload(
  db: Executor,
  ownerId: number,
  uploadKey: string,
): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('upload_key', '=', uploadKey)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export function findUploadByKey(db: Executor, uploadKey: string): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('upload_key', '=', uploadKey)
    .executeTakeFirst();
}

/** Moves an upload from one state to another; false when it was no longer in `from`. */
export async function moveUpload(
  db: Executor,
  id: number,
  from: UploadState,
  to: UploadState,
  changes: { refusedReason?: string; finishedAt?: number; size?: number } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({
      state: to,
      ...(changes.refusedReason !== undefined ? { refused_reason: changes.refusedReason } : {}),
      ...(changes.finishedAt !== undefined ? { finished_at: changes.finishedAt } : {}),
      ...(changes.size !== undefined ? { size: changes.size } : {}),
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Uploads pending, or uploaded but never made a resource, created before `before` (the sweep's). */
export function unfinishedBefore(db: Executor, before: number, limit: number) {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('state', 'in', ['pending', 'uploaded'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
