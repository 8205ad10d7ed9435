import type { Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Settings and prices (docs/domain.md §12).
 * `partner_config`: a partner's overrides of the platform's prices for its subtree
 * (docs/domain.md §12 "Settings and prices"): one row per (partner, key); no row = the platform's
 * price. The admin's limits (allowed keys, floor, ceiling) are platform settings.
 * `user_config`: a user's own settings (notification preferences, default task settings): one
 * row per (user, key) set; no row = the default.
 */
export async function up(db: AnyDb, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('partner_config')
    .addColumn('partner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('partner_config_pk', ['partner_id', 'name'])
    .execute();
  await db.schema
    .createTable('user_config')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_config_pk', ['user_id', 'name'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('user_config').execute();
  await db.schema.dropTable('partner_config').execute();
}
