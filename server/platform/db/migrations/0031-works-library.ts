import { sql, type Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Finished outputs in the library (docs/domain.md §8 "Works"):
 * - `resources.source_kind` / `source_id`: a work — a resource row that shows a finished
 *   mixed-cut or clip output (`video_output`) or digital-human video (`dh_video`) and reads the
 *   same stored file (no copy). At most one resource per source (unique; NULLs never collide).
 * - `resources.upload_id` becomes nullable: a work came from no upload.
 * - `resource_groups.kind`: `works` for the owner's one "works" group (its name is shown in the
 *   reader's language), NULL for the groups users make.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table resources alter column upload_id drop not null`.execute(db);
  } else {
    await rebuildSqliteTable(db, 'resources', (create) =>
      create.replace(/"upload_id" integer not null unique/i, '"upload_id" integer unique'),
    );
  }
  await db.schema.alterTable('resources').addColumn('source_kind', 'text').execute();
  await db.schema.alterTable('resources').addColumn('source_id', 'integer').execute();
  await db.schema
    .createIndex('resources_source_idx')
    .on('resources')
    .columns(['source_kind', 'source_id'])
    .unique()
    .execute();
  // The sweep and a task's delete look a file up by its key.
  await db.schema
    .createIndex('resources_storage_key_idx')
    .on('resources')
    .column('storage_key')
    .execute();
  await db.schema.alterTable('resource_groups').addColumn('kind', 'text').execute();
  await db.schema
    .createIndex('resource_groups_kind_idx')
    .on('resource_groups')
    .columns(['owner_id', 'kind'])
    .unique()
    .execute();
}

/**
 * SQLite cannot drop a NOT NULL: the table is made again from its own CREATE statement, changed
 * by `change` (the documented 12-step way: new table, copy, drop, rename, indexes again).
 */
async function rebuildSqliteTable(
  db: AnyDb,
  table: string,
  change: (create: string) => string,
): Promise<void> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const create = rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`no table ${table}`);
  const changed = change(create);
  if (changed === create) throw new Error(`migration 0031: ${table}'s CREATE did not change`);
  const temp = `${table}_0031`;
  const newCreate = changed.replace(/^CREATE TABLE\s+("?)[\w]+\1/i, `CREATE TABLE "${temp}"`);
  await sql.raw(newCreate).execute(db);
  await sql.raw(`insert into "${temp}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${temp}" rename to "${table}"`).execute(db);
  for (const index of rows) {
    if (index.type === 'index' && index.sql) await sql.raw(index.sql).execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('resource_groups_kind_idx').execute();
  await db.schema.alterTable('resource_groups').dropColumn('kind').execute();
  await db.schema.dropIndex('resources_storage_key_idx').execute();
  await db.schema.dropIndex('resources_source_idx').execute();
  await db.schema.alterTable('resources').dropColumn('source_id').execute();
  await db.schema.alterTable('resources').dropColumn('source_kind').execute();
}
