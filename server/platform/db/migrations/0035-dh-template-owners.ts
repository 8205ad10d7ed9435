import { sql, type Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Video templates of their own (docs/domain.md §10 "Video templates"):
 * - `dh_templates.key` becomes nullable: only the built-in templates have one (their names are
 *   translated, `dhTemplate.<key>`); a template made since has a `name`.
 * - `owner_id`: null for the platform's templates, else the partner or merchant whose own it is.
 * - Files: `background_resource_id`, `cover_resource_id`, `demo_resource_id`,
 *   `music_resource_id` (resources of the owner's library, held by `resource_refs` rows of kind
 *   `dh_template`); `background_url`, `cover_url` (platform images: the platform's templates).
 * - `created_at`, `updated_at`, `deleted_at` (a deleted template is hidden; videos keep theirs).
 * - `dh_videos.template_settings`: the template as it was when the video was submitted (JSON:
 *   frame, layout, background, music), so that editing or deleting it changes no video.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table dh_templates alter column key drop not null`.execute(db);
  } else {
    await rebuildSqliteTable(db, 'dh_templates', (create) =>
      create.replace(/"key" text not null unique/i, '"key" text unique'),
    );
  }
  const columns: [string, 'integer' | 'text' | 'bigint'][] = [
    ['owner_id', 'integer'],
    ['name', 'text'],
    ['background_resource_id', 'integer'],
    ['background_url', 'text'],
    ['cover_resource_id', 'integer'],
    ['cover_url', 'text'],
    ['demo_resource_id', 'integer'],
    ['music_resource_id', 'integer'],
    ['created_at', 'bigint'],
    ['updated_at', 'bigint'],
    ['deleted_at', 'bigint'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('dh_templates').addColumn(name, type).execute();
  }
  await db.schema
    .createIndex('dh_templates_owner_idx')
    .on('dh_templates')
    .columns(['owner_id', 'deleted_at'])
    .execute();
  await db.schema.alterTable('dh_videos').addColumn('template_settings', 'text').execute();
}

/**
 * SQLite cannot drop a NOT NULL: the table is made again from its own CREATE statement, changed
 * by `change` (the documented 12-step way, as migration 0031 does for `resources`).
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
  if (changed === create) throw new Error(`migration 0035: ${table}'s CREATE did not change`);
  const temp = `${table}_0035`;
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
  await db.schema.alterTable('dh_videos').dropColumn('template_settings').execute();
  await db.schema.dropIndex('dh_templates_owner_idx').execute();
  await db.deleteFrom('dh_templates').where('key', 'is', null).execute();
  for (const name of [
    'deleted_at',
    'updated_at',
    'created_at',
    'music_resource_id',
    'demo_resource_id',
    'cover_url',
    'cover_resource_id',
    'background_url',
    'background_resource_id',
    'name',
    'owner_id',
  ]) {
    await db.schema.alterTable('dh_templates').dropColumn(name).execute();
  }
}
