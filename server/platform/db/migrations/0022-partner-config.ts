import type { Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * `partner_config`: a partner's overrides of the platform's prices for its subtree
 * (docs/domain.md §12 "Settings and prices"): one row per (partner, key); no row = the platform's
 * price. The admin's limits (allowed keys, floor, ceiling) are platform settings.
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
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('partner_config').execute();
}
