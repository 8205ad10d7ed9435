import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

const ASSETS = ['money', 'digital_man', 'digital_voice', 'image_clone'] as const;

/**
 * Video tasks (docs/domain.md §9 and §8).
 * - `video_tasks`: one row per mixed-cut or clip task. `params` is the body it was added with
 *   (JSON); `unit_price` the price of one output at add (cents); `frozen`, `settled`, `refunded`
 *   the money it froze (add and retries), settled and gave back: frozen = settled + refunded + the
 *   price of its held outputs. `progress_at` moves with every output's progress (the stall
 *   sweep's clock); `stalled` is set once the sweep re-queued its jobs.
 * - `video_outputs`: one row per output (`idx` 1-based). `status` queued | rendering | done |
 *   failed | cancelled; `billing` held | settled | refunded (conditional updates move both
 *   together, so each output settles or is refunded exactly once per freeze).
 * - `system_ledger.type`: the ledger type of a platform-side row (`task_settle`, `task_freeze`,
 *   `task_refund`); null for the rows written before it.
 * - The platform's `task_hold` account (money frozen for tasks), one row per asset.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('video_tasks'), engine)
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('unit_price', 'bigint', (c) => c.notNull().check(sql`unit_price >= 0`))
    .addColumn('frozen', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('settled', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stalled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  // The list: an owner's live tasks of a kind, newest first.
  await db.schema
    .createIndex('video_tasks_owner_kind_idx')
    .on('video_tasks')
    .columns(['owner_id', 'kind', 'deleted_at', 'id'])
    .execute();
  // The stall sweep: unfinished tasks by their last progress.
  await db.schema
    .createIndex('video_tasks_status_progress_idx')
    .on('video_tasks')
    .columns(['status', 'progress_at'])
    .execute();

  await addIdColumn(db.schema.createTable('video_outputs'), engine)
    .addColumn('task_id', 'integer', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('combination', 'text', (c) => c.notNull())
    .addColumn('planned_ms', 'integer', (c) => c.notNull())
    .addColumn('billing', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text')
    .addColumn('poster_key', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('size', 'bigint')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('reason_id', 'text')
    .addColumn('reason_params', 'text')
    .addColumn('reason_detail', 'text')
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('video_outputs_task_idx', ['task_id', 'idx'])
    .execute();
  // The queue sweep: outputs queued or rendering.
  await db.schema
    .createIndex('video_outputs_status_idx')
    .on('video_outputs')
    .columns(['status', 'updated_at'])
    .execute();
  // The reconciliation: held outputs.
  await db.schema
    .createIndex('video_outputs_billing_idx')
    .on('video_outputs')
    .columns(['billing', 'task_id'])
    .execute();

  await db.schema.alterTable('system_ledger').addColumn('type', 'text').execute();
  await db
    .insertInto('system_accounts')
    .values(ASSETS.map((asset) => ({ account: 'task_hold', asset, balance: 0 })))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('system_ledger').where('account', '=', 'task_hold').execute();
  await db.deleteFrom('system_accounts').where('account', '=', 'task_hold').execute();
  await db.schema.alterTable('system_ledger').dropColumn('type').execute();
  await db.schema.dropTable('video_outputs').execute();
  await db.schema.dropTable('video_tasks').execute();
}
