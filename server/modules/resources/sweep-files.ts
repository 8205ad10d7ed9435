import { sql, type SqlBool } from 'kysely';
import type { AppContext } from '../../context';

/** Resources handled per batch (the sweep goes on until none is left). */
const BATCH = 200;

const NO_REF = sql<SqlBool>`not exists (select 1 from resource_refs f where f.resource_id = resources.id)`;

/**
 * Removes the files (and posters) of deleted resources that no task refers to any more
 * (docs/domain.md §8: a resource used by a task cannot disappear under it), and marks them
 * `file_deleted_at`. Each resource is first claimed by a conditional update (still deleted, its
 * file not yet removed, no `resource_refs` row): a ref added meanwhile keeps the file, and two
 * sweeps never handle one resource. A file that cannot be removed is left for the next sweep.
 * Answers how many resources' files were removed.
 */
export async function sweepResourceFiles(ctx: AppContext): Promise<number> {
  let removed = 0;
  let after = 0;
  for (;;) {
    const batch = await ctx.db
      .selectFrom('resources')
      .select(['id', 'storage_key', 'poster_key'])
      .where('deleted_at', 'is not', null)
      .where('file_deleted_at', 'is', null)
      .where('id', '>', after)
      .where(NO_REF)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of batch) {
      const id = Number(row.id);
      after = id;
      const claimed = await ctx.db
        .updateTable('resources')
        .set({ file_deleted_at: ctx.now() })
        .where('id', '=', id)
        .where('deleted_at', 'is not', null)
        .where('file_deleted_at', 'is', null)
        .where(NO_REF)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      try {
        await ctx.storage.delete(row.storage_key);
        if (row.poster_key) await ctx.storage.delete(row.poster_key);
        removed += 1;
      } catch (error) {
        ctx.log.warn(
          { err: error, resource: id },
          'a deleted resource’s file could not be removed',
        );
        await ctx.db
          .updateTable('resources')
          .set({ file_deleted_at: null })
          .where('id', '=', id)
          .execute();
      }
    }
    if (batch.length < BATCH) return removed;
  }
}
