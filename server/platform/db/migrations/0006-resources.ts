import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Uploads and the resource library (docs/domain.md §8).
 * - `uploads`: one row per grant (`generate_sts_token`) or form upload. `state`: `pending` (bytes
 *   arriving), `uploaded` (all declared bytes stored), `used` (became a resource or a task's
 *   input), `refused` (its file failed a check and was deleted), `expired` (swept after 24 h).
 *   The declared size of pending uploads counts against the quota until they end.
 * - `resource_groups`: a flat list of folders per owner, names unique per owner.
 * - `resources`: the library. Deleting sets `deleted_at` (hidden); the file is removed by a
 *   sweep once no `resource_refs` row (a task's use) points at it.
 * - `users.storage_quota_bytes`: a per-user override of the platform's quota (NULL: default).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('uploads'), engine)
    .addColumn('upload_key', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('s3_upload_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('refused_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('uploads_owner_state_idx')
    .on('uploads')
    .columns(['owner_id', 'state'])
    .execute();
  await db.schema
    .createIndex('uploads_state_created_idx')
    .on('uploads')
    .columns(['state', 'created_at'])
    .execute();

  await addIdColumn(db.schema.createTable('resource_groups'), engine)
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('resource_groups_owner_name', ['owner_id', 'name'])
    .execute();

  await addIdColumn(db.schema.createTable('resources'), engine)
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'integer', (c) => c.notNull().unique())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('poster_key', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('codec', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .addColumn('file_deleted_at', 'bigint')
    .execute();
  // The library's list: an owner's resources, newest first, by type or group.
  await db.schema
    .createIndex('resources_owner_list_idx')
    .on('resources')
    .columns(['owner_id', 'deleted_at', 'id'])
    .execute();
  await db.schema
    .createIndex('resources_owner_type_idx')
    .on('resources')
    .columns(['owner_id', 'type', 'id'])
    .execute();
  await db.schema
    .createIndex('resources_owner_group_idx')
    .on('resources')
    .columns(['owner_id', 'group_id', 'id'])
    .execute();

  await db.schema
    .createTable('resource_refs')
    .addColumn('resource_id', 'integer', (c) => c.notNull())
    .addColumn('task_kind', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_refs_pk', ['resource_id', 'task_kind', 'task_id'])
    .execute();

  await db.schema.alterTable('users').addColumn('storage_quota_bytes', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('storage_quota_bytes').execute();
  await db.schema.dropTable('resource_refs').execute();
  await db.schema.dropTable('resources').execute();
  await db.schema.dropTable('resource_groups').execute();
  await db.schema.dropTable('uploads').execute();
}
