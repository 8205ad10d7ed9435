import type { Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * The dashboard's daily series (docs/domain.md §22): each figure is one grouped query over a time
 * range of one kind of row, read from an index on (kind, time) instead of the whole table.
 */
const INDEXES: [name: string, table: string, columns: string[]][] = [
  ['users_created_idx', 'users', ['created_at']],
  ['ledger_type_created_idx', 'ledger', ['type', 'created_at']],
  ['system_ledger_type_created_idx', 'system_ledger', ['account', 'type', 'created_at']],
  ['video_outputs_finished_idx', 'video_outputs', ['status', 'finished_at']],
  ['matrix_posts_published_idx', 'matrix_posts', ['status', 'published_at']],
];

export async function up(db: AnyDb, _engine: Engine): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
