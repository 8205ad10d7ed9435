import { DEFAULT_STORAGE_QUOTA_BYTES } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { readConfigValue } from '../system';
import { formatBytes } from './upload-rules';

/** The platform setting holding the default quota in bytes (admin setting, docs/domain.md §9). */
export const QUOTA_SETTING = 'storage_quota_bytes';

/** Upload states whose declared size counts against the quota until they end. */
export const OPEN_UPLOAD_STATES = ['pending', 'uploaded'] as const;

export interface Quota {
  /**
   * Bytes in use: the owner's resources not deleted or whose files a task still keeps, plus its
   * unfinished and unclaimed uploads.
   */
  used: number;
  quota: number;
}

/** The platform's default quota: the setting when it is a whole number of bytes, else 10 GB. */
async function platformQuota(db: Executor): Promise<number> {
  const raw = await readConfigValue(db, QUOTA_SETTING);
  const value = raw === undefined ? NaN : Number(raw.trim());
  return Number.isSafeInteger(value) && value >= 0 ? value : DEFAULT_STORAGE_QUOTA_BYTES;
}

/**
 * An owner's storage use and quota (docs/domain.md §8). quota: the user's own
 * (`users.storage_quota_bytes`), else the platform's. used: the sizes of its resources not
 * deleted, and of those deleted whose files are kept because a task still refers to them
 * (`resource_refs`; they count until no task does: deleting them makes no room while the file
 * stays), plus the declared sizes of its uploads still pending or uploaded (not yet a resource),
 * plus its platform images (a partner's content images).
 * Only the owner's own rows count: a partner's quota does not include its merchants'.
 */
export async function quotaOf(
  ctx: Pick<AppContext, 'db'>,
  ownerId: number,
  db: Executor = ctx.db,
): Promise<Quota> {
  const user = await db
    .selectFrom('users')
    .select('storage_quota_bytes')
    .where('id', '=', ownerId)
    .executeTakeFirst();
  const own = user?.storage_quota_bytes;
  const quota = own === null || own === undefined ? await platformQuota(db) : Number(own);
  const resources = await db
    .selectFrom('resources')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('total'))
    .where('owner_id', '=', ownerId)
    .where((eb) =>
      eb.or([
        eb('deleted_at', 'is', null),
        // Deleted, but its file kept because a task still uses it: it still takes room.
        eb.and([
          eb('file_deleted_at', 'is', null),
          eb.exists(
            eb
              .selectFrom('resource_refs as f')
              .select('f.task_id')
              .whereRef('f.resource_id', '=', 'resources.id'),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  const uploads = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('total'))
    .where('owner_id', '=', ownerId)
    .where('state', 'in', OPEN_UPLOAD_STATES)
    .executeTakeFirst();
  // A partner's platform images (its articles' pictures) are its files too (docs/domain.md §8).
  const images = await db
    .selectFrom('platform_images')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('total'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  // PostgreSQL sums bigints as numeric, which the driver hands over as a string.
  const used =
    Number(resources?.total ?? 0) + Number(uploads?.total ?? 0) + Number(images?.total ?? 0);
  return { used, quota };
}

/**
 * The refusal's params when an open upload (its declared size counted in `used`) no longer fits
 * the owner's quota — the quota was lowered, or resources added, after its grant; else undefined.
 * Asked again when the bytes are complete and when the upload becomes a resource (docs/domain.md §8).
 */
export async function overQuotaNow(
  ctx: Pick<AppContext, 'db'>,
  upload: { owner_id: number; size: number },
): Promise<Record<string, string> | undefined> {
  const { used, quota } = await quotaOf(ctx, upload.owner_id);
  if (used <= quota) return undefined;
  return {
    size: formatBytes(upload.size),
    free: formatBytes(Math.max(0, quota - (used - upload.size))),
    quota: formatBytes(quota),
  };
}
