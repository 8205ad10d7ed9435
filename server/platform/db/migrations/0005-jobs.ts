import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * The embedded job runner's queue (server/platform/jobs/embedded.ts): one row per job. A
 * worker claims a `waiting` row whose `run_at` has come with one conditional update and holds it
 * by a lease (`locked_by`, `locked_until`) that it renews while the job runs; a reaper puts rows
 * whose lease ran out back to `waiting`. `unique_key` makes a recurring job's tick one row
 * however many workers insert it.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('jobs'), engine)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts_made', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('backoff_ms', 'integer', (c) => c.notNull())
    .addColumn('stalls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('unique_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // The claim: the next waiting job of a kind, by priority then due time.
  await db.schema
    .createIndex('jobs_claim_idx')
    .on('jobs')
    .columns(['kind', 'state', 'priority', 'run_at', 'id'])
    .execute();
  // The reaper: running jobs by lease end.
  await db.schema
    .createIndex('jobs_lease_idx')
    .on('jobs')
    .columns(['state', 'locked_until'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
