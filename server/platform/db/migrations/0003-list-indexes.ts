import { sql, type Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/** The card scope's terms as the lists write them (unary plus: see visibleCards in cards/repo). */
const SCOPE_EXPRESSIONS = ['service_id', 'owner_id', 'used_by'] as const;

/**
 * Large lists (docs/performance.md "Money API and large lists"):
 * - the admin's customer list (every merchant, newest first) read in id order from an index
 *   instead of sorting every user of the type on each page;
 * - a batch's cards newest first from the index, without sorting the batch (replaces the index
 *   on `batch_no` alone; SQLite's already ended in the row id);
 * - PostgreSQL: statistics on the card scope's `+service_id`, `+owner_id`, `+used_by`, which it
 *   otherwise estimates at 0.5 % of the rows: it then sorted a whole batch to show 20 of its
 *   cards (2.6 ms instead of 0.1 ms).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await db.schema
    .createIndex('users_type_deleted_idx')
    .on('users')
    .columns(['user_type', 'deleted_at', 'id'])
    .execute();
  await db.schema.dropIndex('recharge_cards_batch_idx').execute();
  await db.schema
    .createIndex('recharge_cards_batch_id_idx')
    .on('recharge_cards')
    .columns(['batch_no', 'id'])
    .execute();
  if (engine === 'postgres' && (await postgresVersion(db)) >= 140000) {
    for (const column of SCOPE_EXPRESSIONS) {
      await sql`create statistics ${sql.id(`recharge_cards_plus_${column}_stats`)} on (+${sql.ref(column)}) from recharge_cards`.execute(
        db,
      );
    }
  }
}

export async function down(db: AnyDb, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    for (const column of SCOPE_EXPRESSIONS) {
      await sql`drop statistics if exists ${sql.id(`recharge_cards_plus_${column}_stats`)}`.execute(
        db,
      );
    }
  }
  await db.schema.dropIndex('recharge_cards_batch_id_idx').ifExists().execute();
  await db.schema
    .createIndex('recharge_cards_batch_idx')
    .on('recharge_cards')
    .column('batch_no')
    .execute();
  await db.schema.dropIndex('users_type_deleted_idx').ifExists().execute();
}

async function postgresVersion(db: AnyDb): Promise<number> {
  const { rows } = await sql<{
    v: string;
  }>`select current_setting('server_version_num') as v`.execute(db);
  return Number(rows[0]?.v ?? 0);
}
