import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Reusing and previewing video tasks (docs/domain.md §9 "Presets, batches and previews"):
 * - `video_task_presets`: a person's named settings (`body`: the JSON of a task body as `add`
 *   takes it); a name is unique per owner.
 * - `video_task_batches`: a batch added from a CSV file: its owner, name, tasks and what its one
 *   ledger hold froze (the hold's related row).
 * - `video_previews`: a free, short, low-resolution render of a body's first combination; the
 *   rows of the last minute are the per-person rate limit.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('video_task_presets'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('video_task_presets_owner_name_idx')
    .unique()
    .on('video_task_presets')
    .columns(['owner_id', 'name'])
    .execute();

  await addIdColumn(db.schema.createTable('video_task_batches'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tasks', 'integer', (c) => c.notNull())
    .addColumn('frozen', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('video_task_batches_owner_idx')
    .on('video_task_batches')
    .columns(['owner_id', 'id'])
    .execute();

  await addIdColumn(db.schema.createTable('video_previews'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('storage_key', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_ms', 'bigint')
    .addColumn('render_ms', 'bigint')
    .addColumn('reason_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('video_previews_owner_idx')
    .on('video_previews')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('video_previews').execute();
  await db.schema.dropTable('video_task_batches').execute();
  await db.schema.dropTable('video_task_presets').execute();
}
