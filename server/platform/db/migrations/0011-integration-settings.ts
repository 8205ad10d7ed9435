import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * `integration_settings`: the secrets of the outside services (docs/architecture.md §Secrets), one
 * row per integration kind and field name (`digital-human` / `api_key`). `sealed` is the value
 * sealed for its row (never the plain value); `last4` its last four characters (null for a short
 * value), shown to admins; who set it and when.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('integration_settings')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('last4', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'bigint', (c) => c.references('users.id'))
    .addPrimaryKeyConstraint('integration_settings_pk', ['kind', 'name'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('integration_settings').execute();
}
