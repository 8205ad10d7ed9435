import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';
import { moveUpload, unfinishedBefore, type UploadState } from './repo';
import { removeTusFiles } from './tus';

/** An upload not made a resource this long after its grant is deleted (docs/domain.md §8). */
export const UNFINISHED_UPLOAD_MS = 24 * 3600 * 1000;
const BATCH = 200;

/**
 * Deletes the uploads still pending (or uploaded but never made a resource) 24 hours after they
 * began: their bytes (a tus upload's partial file, an S3 multipart upload, a stored file) go and
 * the upload is marked `expired`, so its declared size no longer counts against the quota. Each
 * upload is moved first (a conditional update): one claimed meanwhile keeps its file. Also
 * removes the checks' temp files a crash left behind. Answers how many uploads expired.
 */
export async function expireUploads(ctx: AppContext): Promise<number> {
  const before = ctx.now() - UNFINISHED_UPLOAD_MS;
  let expired = 0;
  for (;;) {
    const rows = await unfinishedBefore(ctx.db, before, BATCH);
    for (const row of rows) {
      const from = row.state as UploadState;
      if (!(await moveUpload(ctx.db, row.id, from, 'expired'))) continue;
      expired += 1;
      if (row.method === 'tus') await removeTusFiles(ctx, row.upload_key);
      if (row.method === 'multipart' && from === 'pending' && row.s3_upload_id) {
        await (
          await ctx.storage.directUploadsOf(row.storage_key)
        )
          ?.abortMultipart(row.storage_key, row.s3_upload_id)
          .catch((error: unknown) => ctx.log.warn({ err: error }, 'abort multipart failed'));
      }
      await ctx.storage.delete(row.storage_key);
    }
    if (rows.length < BATCH) break;
  }
  await removeOldTempFiles(ctx, before);
  return expired;
}

async function removeOldTempFiles(ctx: AppContext, before: number): Promise<void> {
  const dir = path.join(ctx.config.dataDir, 'tmp');
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('check-'))) {
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat && stat.mtimeMs < before) await fsp.rm(file, { force: true });
  }
}
