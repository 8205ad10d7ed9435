import { sql, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

const assetCheck = sql`asset in ('money', 'digital_man', 'digital_voice', 'image_clone')`;

/** The tables whose rows were billed before the holds, with their asset and related type. */
const BILLED = [
  { table: 'dh_image_clones', asset: 'image_clone', related: 'dh_image_clone' },
  { table: 'dh_voice_clones', asset: 'digital_voice', related: 'dh_voice_clone' },
  { table: 'dh_videos', asset: 'digital_man', related: 'dh_video' },
] as const;
const FINISHED_TASK = sql`('done', 'partly_done', 'failed', 'cancelled')`;

/**
 * Generic holds of paid work (docs/domain.md §9, docs/architecture.md "The path of paid work"):
 * - `ledger_holds`: one per estimate held for a related row (`related_type`, `related_id`), of
 *   one user and asset: `amount` held in (the freeze and any extension), `settled` and
 *   `refunded` out of it; open while `closed_at` is null. The database refuses settling or
 *   refunding more than was held and closing a hold that still holds something.
 * - `ledger_hold_moves`: each settled or refunded part, unique per hold and part key, so a part
 *   moves once whatever runs twice (the insert of a second one does nothing).
 * - `hold_id` on `ledger` and `system_ledger`: the hold a row belongs to (the reconciliation
 *   checks each hold against its rows); on `video_outputs`: the hold that paid its last freeze.
 * Backfill: a hold per video task and per digital-human row billed before, with its totals
 * (settled and refunded as one move each), closed when the row no longer holds; their ledger rows
 * and the outputs get its id.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('ledger_holds'), engine)
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull().check(assetCheck))
    .addColumn('related_type', 'text', (c) => c.notNull())
    .addColumn('related_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('settled', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addCheckConstraint(
      'ledger_holds_amounts',
      sql`settled >= 0 and refunded >= 0 and settled + refunded <= amount`,
    )
    .addCheckConstraint(
      'ledger_holds_closed_empty',
      sql`closed_at is null or settled + refunded = amount`,
    )
    .execute();
  await db.schema
    .createIndex('ledger_holds_related_idx')
    .on('ledger_holds')
    .columns(['related_type', 'related_id'])
    .execute();
  await addIdColumn(db.schema.createTable('ledger_hold_moves'), engine)
    .addColumn('hold_id', 'bigint', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('settle', 'refund')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ledger_hold_moves_part', ['hold_id', 'part'])
    .execute();
  for (const table of ['ledger', 'system_ledger', 'video_outputs']) {
    await db.schema.alterTable(table).addColumn('hold_id', 'bigint').execute();
  }
  for (const table of ['ledger', 'system_ledger']) {
    await db.schema.createIndex(`${table}_hold_idx`).on(table).column('hold_id').execute();
  }
  await backfill(db);
}

async function backfill(db: AnyDb): Promise<void> {
  await sql`insert into ledger_holds
      (user_id, asset, related_type, related_id, amount, settled, refunded, created_at, updated_at, closed_at)
    select owner_id, 'money', 'video_task', id, frozen, settled, refunded, created_at, updated_at,
      case when status in ${FINISHED_TASK} and frozen = settled + refunded
        then coalesce(finished_at, updated_at) end
    from video_tasks`.execute(db);
  for (const { table, asset, related } of BILLED) {
    await sql`insert into ledger_holds
        (user_id, asset, related_type, related_id, amount, settled, refunded, created_at, updated_at, closed_at)
      select owner_id, ${asset}, ${related}, id, cost, settled, refunded, created_at, updated_at,
        case when billing <> 'held' then coalesce(finished_at, updated_at) end
      from ${sql.table(table)} where owner_id is not null`.execute(db);
  }
  for (const [kind, column] of [
    ['settle', 'settled'],
    ['refund', 'refunded'],
  ] as const) {
    await sql`insert into ledger_hold_moves (hold_id, part, kind, amount, created_at)
      select id, ${`before-holds:${column}`}, ${kind}, ${sql.ref(column)}, updated_at
      from ledger_holds where ${sql.ref(column)} > 0`.execute(db);
  }
  const related = sql`('video_task', 'dh_image_clone', 'dh_voice_clone', 'dh_video')`;
  const types = sql`('task_freeze', 'task_settle', 'task_refund')`;
  for (const table of ['ledger', 'system_ledger']) {
    await sql`update ${sql.table(table)} set hold_id = (
        select h.id from ledger_holds h
        where h.related_type = ${sql.ref(`${table}.related_type`)}
          and h.related_id = ${sql.ref(`${table}.related_id`)}
          and h.asset = ${sql.ref(`${table}.asset`)})
      where type in ${types} and related_type in ${related}`.execute(db);
  }
  await sql`update video_outputs set hold_id = (
      select h.id from ledger_holds h
      where h.related_type = 'video_task' and h.related_id = video_outputs.task_id)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['ledger', 'system_ledger']) {
    await db.schema.dropIndex(`${table}_hold_idx`).execute();
  }
  for (const table of ['ledger', 'system_ledger', 'video_outputs']) {
    await db.schema.alterTable(table).dropColumn('hold_id').execute();
  }
  await db.schema.dropTable('ledger_hold_moves').execute();
  await db.schema.dropTable('ledger_holds').execute();
}
