import { sql, type SqlBool } from 'kysely';
import type { AppContext } from '../../context';

/** An image unused this long after its upload is removed (time to save the form it was for). */
export const UNUSED_IMAGE_GRACE_MS = 24 * 60 * 60_000;

/** Images looked at per batch (the sweep goes on until none is left). */
const BATCH = 100;

/**
 * Where a platform image's address may be written (docs/domain.md §8 "Platform images"): a
 * domain's logo and favicon, a platform setting, an article's cover and body, an agreement
 * version's body, a video template's background and cover, and the template settings a video
 * kept. Deleted articles and templates count (they may come back, or a video shows them).
 */
const usedAnywhere = (pattern: string) => sql<SqlBool>`(
  exists (select 1 from domains d where d.logo like ${pattern} or d.favicon like ${pattern})
  or exists (select 1 from platform_config c where c.value like ${pattern})
  or exists (select 1 from articles a where a.cover like ${pattern} or a.content like ${pattern})
  or exists (select 1 from agreements g where g.content like ${pattern})
  or exists (select 1 from dh_templates t
             where t.background_url like ${pattern} or t.cover_url like ${pattern})
  or exists (select 1 from dh_videos v where v.template_settings like ${pattern})
)`;

/**
 * Removes platform images nothing names, uploaded more than a day ago: their rows (a partner's
 * count against its storage quota) and their files. Each row is deleted by a statement that
 * checks the uses again, so one named meanwhile stays; its file goes after the row. A file that
 * cannot be removed is logged (the row is gone: the address no longer serves). Answers how many.
 */
export async function sweepUnusedImages(ctx: AppContext): Promise<number> {
  let removed = 0;
  let after = 0;
  const before = ctx.now() - UNUSED_IMAGE_GRACE_MS;
  for (;;) {
    const batch = await ctx.db
      .selectFrom('platform_images')
      .select(['id', 'name', 'storage_key'])
      .where('created_at', '<', before)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const image of batch) {
      after = Number(image.id);
      const deleted = await ctx.db
        .deleteFrom('platform_images')
        .where('id', '=', image.id)
        .where(sql<SqlBool>`not ${usedAnywhere(`%${image.name}%`)}`)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) continue;
      removed += 1;
      await ctx.storage.delete(image.storage_key).catch((error: unknown) => {
        ctx.log.warn({ err: error, image: image.name }, 'an unused image’s file was not removed');
      });
    }
    if (batch.length < BATCH) return removed;
  }
}
