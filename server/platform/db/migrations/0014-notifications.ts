import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * `notifications`: a per-user store of things that happened to the user's work while it was
 * elsewhere (docs/domain.md §18): a video task finished, a clone ready or failed, a
 * digital-human video done or failed. Each row is a message id + JSON params (rendered in the
 * reader's locale), the thing it is about (`subject_type`, `subject_id`), and `read_at` (null:
 * unread). `event_key` names the event (e.g. `video_task:7:done:<finished_at>`): unique, so an
 * event that runs twice (a crash re-run, a repeated callback) writes one row.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('notifications'), engine)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  // The list (newest first) and the unread count, per user.
  await db.schema
    .createIndex('notifications_user_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['user_id', 'read_at', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}
