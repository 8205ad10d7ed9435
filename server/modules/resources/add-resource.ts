import type { Resource } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { checkUpload, claimUpload } from '../uploads';
import { findGroup, findResource } from './repo';
import { toResource } from './resource-reply';

/**
 * POST /resource/add: finishes a complete upload of the caller (`ownerId`) into a resource. The upload is
 * checked first (its real type from the content, limits, quota, probe and poster: a refused file
 * is deleted, server/modules/uploads/check-upload.ts); then, in one transaction, the upload is
 * claimed (`uploaded → used`, at most once) and the resource inserted. A second add of the same
 * upload (a double click, a retry, a concurrent request) finds it claimed and is refused as an
 * unknown upload: an upload makes one resource.
 */
export async function addResource(
  ctx: AppContext,
  ownerId: number,
  body: { upload_key: string; name: string; group_id?: number },
  /** The call's (none when the demo data is seeded). */
  audit?: AuditTrail,
): Promise<Resource> {
  const groupId = body.group_id ?? null;
  if (groupId !== null && !(await findGroup(ctx.db, ownerId, groupId))) {
    throw refuse('resource.groupNotFound');
  }
  const checked = await checkUpload(ctx, ownerId, body.upload_key);
  const dropPoster = async () => {
    if (checked.posterKey) await ctx.storage.delete(checked.posterKey);
  };
  let id: number;
  try {
    id = await runInTransaction(
      ctx.db,
      async (trx) => {
        if (!(await claimUpload(trx, checked.uploadId))) throw refuse('validation.uploadKey');
        // The group may have been deleted while the file was checked.
        if (groupId !== null && !(await findGroup(trx, ownerId, groupId))) {
          throw refuse('resource.groupNotFound');
        }
        const now = ctx.now();
        const row = await trx
          .insertInto('resources')
          .values({
            owner_id: ownerId,
            group_id: groupId,
            type: checked.type,
            name: body.name,
            upload_id: checked.uploadId,
            storage_key: checked.storageKey,
            poster_key: checked.posterKey,
            content_type: checked.contentType,
            size: checked.size,
            duration_ms: checked.durationMs,
            width: checked.width,
            height: checked.height,
            codec: checked.codec,
            has_audio: checked.hasAudio === null ? null : Number(checked.hasAudio),
            created_at: now,
            updated_at: now,
            deleted_at: null,
            file_deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        audit?.change(null, {
          name: body.name,
          type: checked.type,
          group_id: groupId,
          size: checked.size,
        });
        return Number(row.id);
      },
      { audit },
    );
  } catch (error) {
    await dropPoster();
    throw error;
  }
  const row = await findResource(ctx.db, ownerId, id);
  if (!row) throw refuse('resource.notFound');
  return toResource(ctx, row);
}
