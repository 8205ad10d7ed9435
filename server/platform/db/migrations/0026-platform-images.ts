import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Platform images (docs/domain.md §8 "Platform images"): a domain's logo and favicon, content
 * images (article covers, article and agreement bodies). `name` is the public file name
 * (`<32 hex>.<ext>`, served at `/api/v1/images/<name>`); `owner_id` 0 is the platform's (the
 * admin's uploads), else the partner whose own image it is; `purpose` logo / favicon / content.
 * The bytes are in the storage under `storage_key`, checked (type by magic bytes, decodable,
 * within the purpose's size) before the row is written.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('platform_images'), engine)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A partner's quota sums its own images (docs/domain.md §8).
  await db.schema
    .createIndex('platform_images_owner_idx')
    .on('platform_images')
    .columns(['owner_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('platform_images').execute();
}
