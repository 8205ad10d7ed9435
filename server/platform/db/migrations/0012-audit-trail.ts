import { sql, type Kysely } from 'kysely';
import type { Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/** Columns added to `audit_log` (SQLite adds one per statement); old rows get the defaults. */
const COLUMNS: [string, 'text' | 'bigint', string?][] = [
  ['actor_role', 'text'],
  ['original_actor_id', 'bigint'],
  ['target_ids', 'text', "'[]'"],
  ['diff', 'text', "'{}'"],
  ['user_agent', 'text'],
  ['request_id', 'text'],
  ['result', 'text', "'ok'"],
  ['error_code', 'text'],
];

/**
 * The audit trail every state-changing call writes (docs/architecture.md §Audit): who (role, and
 * the user behind a login-as session), every resource id, the field diff, the user agent, the
 * request id and the result (ok / refused with its message id). Rows written before keep their
 * `detail` and read as `ok`. Indexes for the list's filters (actor, action, time), and triggers
 * that make the table append-only on both engines.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  for (const [name, type, fallback] of COLUMNS) {
    await db.schema
      .alterTable('audit_log')
      // No CHECK or REFERENCES: SQLite cannot drop such a column again (`down`).
      .addColumn(name, type, (c) => (fallback ? c.notNull().defaultTo(sql.raw(fallback)) : c))
      .execute();
  }
  await db.schema
    .createIndex('audit_log_actor_idx')
    .on('audit_log')
    .columns(['actor_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_log_action_idx')
    .on('audit_log')
    .columns(['action', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_log_created_idx')
    .on('audit_log')
    .column('created_at')
    .execute();
  if (engine === 'postgres') {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete or truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    for (const event of ['update', 'delete']) {
      await sql`create trigger ${sql.id(`audit_log_no_${event}`)} before ${sql.raw(event)} on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    }
  }
}

export async function down(db: AnyDb, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`drop trigger if exists audit_log_append_only on audit_log`.execute(db);
    await sql`drop function if exists audit_log_append_only()`.execute(db);
  } else {
    await sql`drop trigger if exists audit_log_no_update`.execute(db);
    await sql`drop trigger if exists audit_log_no_delete`.execute(db);
  }
  for (const index of ['audit_log_actor_idx', 'audit_log_action_idx', 'audit_log_created_idx']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  for (const [name] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('audit_log').dropColumn(name).execute();
  }
}
