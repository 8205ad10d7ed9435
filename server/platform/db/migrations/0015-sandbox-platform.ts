import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * The sandbox platform's state (module `sandbox-platform`: a fake Douyin Open Platform our server
 * serves under `/sandbox-platform`), kept in the app's database so that it survives restarts and
 * is the same for every process. Times are the sandbox's clock (the app's clock + the offset in
 * `sandbox_platform_clock`), epoch ms.
 * - `accounts`: the test accounts (seeded on first use); `revoked` (0/1): the owner withdrew
 *   every authorisation.
 * - `codes`: authorisation codes (single use, 10 minutes).
 * - `access_tokens` (15 days) and `refresh_tokens` (30 days; `renewals` ≤ 5 per authorisation,
 *   the authorisation being `grant_id`; a renewal replaces the token).
 * - `videos`: uploaded videos (their facts, not their bytes); `posts`: the posts made of them.
 * - `faults`: per account, "fail the next `remaining` calls with `code`" (`kind` fail) or "lose
 *   the reply of the next `remaining` create_video calls" (`kind` lose_reply), or "hold it: never
 *   answer, keep the connection open" (`kind` hold_reply).
 * - `clock`: one row (id 1), the offset in seconds.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await db.schema
    .createTable('sandbox_platform_accounts')
    .addColumn('open_id', 'text', (c) => c.primaryKey())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addColumn('fans', 'bigint', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_platform_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('sandbox_platform_access_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_platform_refresh_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('renewals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_platform_videos')
    .addColumn('video_id', 'text', (c) => c.primaryKey())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await addIdColumn(db.schema.createTable('sandbox_platform_posts'), engine)
    .addColumn('item_id', 'text', (c) => c.notNull().unique())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('video_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('share_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_platform_posts_account_idx')
    .on('sandbox_platform_posts')
    .columns(['open_id', 'id'])
    .execute();
  await addIdColumn(db.schema.createTable('sandbox_platform_faults'), engine)
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('code', 'integer')
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_platform_faults_account_idx')
    .on('sandbox_platform_faults')
    .columns(['open_id', 'kind', 'id'])
    .execute();
  await db.schema
    .createTable('sandbox_platform_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('offset_seconds', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'sandbox_platform_clock',
    'sandbox_platform_faults',
    'sandbox_platform_posts',
    'sandbox_platform_videos',
    'sandbox_platform_refresh_tokens',
    'sandbox_platform_access_tokens',
    'sandbox_platform_codes',
    'sandbox_platform_accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
