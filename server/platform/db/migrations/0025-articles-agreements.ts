import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Articles and agreements (docs/domain.md "Articles and agreements"). `owner_id` 0 is the
 * platform's row, else the partner whose own (override) row it is. Bodies are stored sanitised.
 * - `articles`: category, title, cover, content, sort, status; soft-deleted (`deleted_at`).
 * - `agreements`: one row per version of a kind and owner (versions 1, 2, … unique per pair);
 *   never edited: a change is a new version.
 * - `agreement_acceptances`: who accepted which version (of the user agreement, docs/domain.md).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('articles'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('articles_owner_idx')
    .on('articles')
    .columns(['owner_id', 'status', 'sort', 'id'])
    .execute();

  await addIdColumn(db.schema.createTable('agreements'), engine)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('effective_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('agreements_version_key', ['kind', 'owner_id', 'version'])
    .execute();

  await db.schema
    .createTable('agreement_acceptances')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('agreement_id', 'bigint', (c) => c.notNull().references('agreements.id'))
    .addColumn('accepted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agreement_acceptances_pkey', ['user_id', 'agreement_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('agreement_acceptances').execute();
  await db.schema.dropTable('agreements').execute();
  await db.schema.dropTable('articles').execute();
}
