import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Where files live once the object storage is set in the system init settings (docs/decisions.md
 * "Storage places"): `storage_places`, each S3-compatible bucket the settings have put files in
 * (its endpoint — '' for AWS itself — bucket and region, and the AccessKey last in use, the secret
 * sealed for its row); `file_places`, the place of each file written there, by storage key. A file
 * without a row is where the environment's storage keeps it (DATA_DIR/files or `S3_BUCKET`).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('storage_places'), engine)
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('access_key', 'text')
    .addColumn('secret_sealed', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('storage_places_bucket_key', ['endpoint', 'bucket'])
    .execute();
  await db.schema
    .createTable('file_places')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('place_id', 'bigint', (c) => c.notNull().references('storage_places.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('file_places').execute();
  await db.schema.dropTable('storage_places').execute();
}
