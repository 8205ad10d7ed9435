import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Release plans and their posts (docs/domain.md §20). A plan keeps what it was made from (JSON
 * lists of accounts, media, titles, topics, slots) and its status; each post is one publish of one
 * media item to one account at one UTC instant. A post is claimed by a conditional update with a
 * lease (`lease_until`); `platform_media_id` is saved before the post is created on the platform
 * and `create_sent_at` when the create is sent, so a run after a crash knows to reconcile instead
 * of posting again; `dispatched_at` says when the dispatcher queued its job. `matrix_post_days`
 * keeps a published post's numbers as last read each day (the video data's daily chart).
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('matrix_plans'), engine)
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('slots', 'text', (c) => c.notNull())
    .addColumn('daily_max', 'integer', (c) => c.notNull())
    .addColumn('titles', 'text', (c) => c.notNull())
    .addColumn('topics', 'text', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('account_ids', 'text', (c) => c.notNull())
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('matrix_plans_owner_idx')
    .on('matrix_plans')
    .columns(['owner_id', 'id'])
    .execute();

  await addIdColumn(db.schema.createTable('matrix_posts'), engine)
    .addColumn('plan_id', 'bigint', (c) => c.notNull().references('matrix_plans.id'))
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('matrix_accounts.id'))
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('media_id', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('dispatched_at', 'bigint')
    .addColumn('platform_media_id', 'text')
    .addColumn('create_sent_at', 'bigint')
    .addColumn('platform_post_id', 'text')
    .addColumn('share_url', 'text')
    .addColumn('reason_kind', 'text')
    .addColumn('reason_id', 'text')
    .addColumn('reason_params', 'text')
    .addColumn('platform_code', 'integer')
    .addColumn('platform_text', 'text')
    .addColumn('retryable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'bigint')
    .addColumn('plays', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('likes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('comments', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('shares', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('metrics_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The dispatcher's scan (due posts by time), a plan's and an account's posts in time order.
  await db.schema
    .createIndex('matrix_posts_due_idx')
    .on('matrix_posts')
    .columns(['status', 'scheduled_at'])
    .execute();
  await db.schema
    .createIndex('matrix_posts_plan_idx')
    .on('matrix_posts')
    .columns(['plan_id', 'scheduled_at'])
    .execute();
  await db.schema
    .createIndex('matrix_posts_account_idx')
    .on('matrix_posts')
    .columns(['account_id', 'scheduled_at'])
    .execute();
  // A published post's numbers as last read on each day (Asia/Shanghai dates): the daily chart.
  await db.schema
    .createTable('matrix_post_days')
    .addColumn('post_id', 'bigint', (c) => c.notNull().references('matrix_posts.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('plays', 'bigint', (c) => c.notNull())
    .addColumn('likes', 'bigint', (c) => c.notNull())
    .addColumn('comments', 'bigint', (c) => c.notNull())
    .addColumn('shares', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('matrix_post_days_pk', ['post_id', 'day'])
    .execute();
  await db.schema
    .createIndex('matrix_post_days_owner_idx')
    .on('matrix_post_days')
    .columns(['owner_id', 'day'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('matrix_post_days').execute();
  await db.schema.dropTable('matrix_posts').execute();
  await db.schema.dropTable('matrix_plans').execute();
}
