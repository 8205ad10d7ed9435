import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Digital human (docs/domain.md §10 and §8).
 * - `dh_image_clones`, `dh_voice_clones`, `dh_videos`: one row per clone or video. Each carries
 *   the provider that does its work (`embedded` | `http`), the vendor's job id once submitted (a
 *   restarted job resumes it instead of submitting again), progress and queue position, the files
 *   made (storage keys), a failure reason (server message id + JSON params + technical detail),
 *   and its billing: `cost` units frozen at submit (ledger `task_freeze`, to the platform's
 *   `task_hold`), `settled` and `refunded` units, and `billing` held | settled | refunded which
 *   conditional updates move together with the status, so a row settles or is refunded exactly
 *   once whatever runs twice (a crash, a repeated vendor callback).
 * - Voice clones with `owner_id` null are the platform's public voices (`public_key` names the
 *   provider's built-in voice; `profile` is the provider's JSON description of a voice).
 * - `dh_videos.params` is the body it was added with (JSON); `folder_id` a resource group.
 * - `dh_templates`: video templates (frame and layout, JSON), seeded below.
 */
export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const work = <T extends string>(table: CreateTableBuilder<T, any>) =>
    table
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('vendor_job_id', 'text')
      .addColumn('job_id', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('queue_position', 'integer')
      .addColumn('billing', 'text', (c) => c.notNull())
      .addColumn('cost', 'bigint', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`cost >= 0`),
      )
      .addColumn('settled', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('refunded', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('reason_id', 'text')
      .addColumn('reason_params', 'text')
      .addColumn('reason_detail', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .addColumn('deleted_at', 'bigint');

  await work(
    addIdColumn(db.schema.createTable('dh_image_clones'), engine)
      .addColumn('owner_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('video_id', 'integer', (c) => c.notNull())
      .addColumn('consent_video_id', 'integer', (c) => c.notNull())
      .addColumn('poster_key', 'text')
      .addColumn('loop_key', 'text')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('vendor_ref', 'text'),
  ).execute();
  await db.schema
    .createIndex('dh_image_clones_owner_idx')
    .on('dh_image_clones')
    .columns(['owner_id', 'deleted_at', 'id'])
    .execute();

  await work(
    addIdColumn(db.schema.createTable('dh_voice_clones'), engine)
      .addColumn('owner_id', 'integer')
      .addColumn('public_key', 'text', (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('gender', 'text', (c) => c.notNull())
      .addColumn('audio_id', 'integer')
      .addColumn('profile', 'text')
      .addColumn('demo_key', 'text'),
  ).execute();
  await db.schema
    .createIndex('dh_voice_clones_owner_idx')
    .on('dh_voice_clones')
    .columns(['owner_id', 'deleted_at', 'id'])
    .execute();

  await work(
    addIdColumn(db.schema.createTable('dh_videos'), engine)
      .addColumn('owner_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('avatar_id', 'integer', (c) => c.notNull())
      .addColumn('voice_id', 'integer', (c) => c.notNull())
      .addColumn('folder_id', 'integer', (c) => c.notNull())
      .addColumn('template_id', 'integer')
      .addColumn('estimated_seconds', 'integer', (c) => c.notNull())
      .addColumn('unit_cost', 'bigint', (c) => c.notNull().check(sql`unit_cost >= 0`))
      .addColumn('speech_key', 'text')
      .addColumn('storage_key', 'text')
      .addColumn('poster_key', 'text')
      .addColumn('duration_ms', 'integer')
      .addColumn('size', 'bigint')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('resubmitted_from', 'integer')
      .addColumn('progress_at', 'bigint', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('dh_videos_owner_idx')
    .on('dh_videos')
    .columns(['owner_id', 'deleted_at', 'id'])
    .execute();
  // Queue position and the stall sweep: videos by status, oldest first.
  await db.schema
    .createIndex('dh_videos_status_idx')
    .on('dh_videos')
    .columns(['status', 'id'])
    .execute();
  // A vendor's callback names its job.
  for (const table of ['dh_image_clones', 'dh_voice_clones', 'dh_videos']) {
    await db.schema
      .createIndex(`${table}_vendor_idx`)
      .on(table)
      .columns(['provider', 'vendor_job_id'])
      .execute();
  }

  await addIdColumn(db.schema.createTable('dh_templates'), engine)
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('ratio', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('cover_key', 'text')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const layout = (
    avatar: [number, number, number, number],
    subtitleY: number,
    background: string,
  ) =>
    JSON.stringify({
      avatar: { x: avatar[0], y: avatar[1], width: avatar[2], height: avatar[3] },
      subtitle: { y: subtitleY, size: 0.045, color: '#FFFFFF' },
      background,
    });
  await db
    .insertInto('dh_templates')
    .values([
      {
        key: 'portrait',
        ratio: '9:16',
        width: 720,
        height: 1280,
        layout: layout([0, 0, 1, 1], 0.82, '#000000'),
        sort: 1,
      },
      {
        key: 'landscape',
        ratio: '16:9',
        width: 1280,
        height: 720,
        layout: layout([0.6, 0.05, 0.35, 0.95], 0.85, '#1F3A5F'),
        sort: 2,
      },
      {
        key: 'square',
        ratio: '1:1',
        width: 720,
        height: 720,
        layout: layout([0.2, 0.05, 0.6, 0.95], 0.85, '#2D2D2D'),
        sort: 3,
      },
    ])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('dh_templates').execute();
  await db.schema.dropTable('dh_videos').execute();
  await db.schema.dropTable('dh_voice_clones').execute();
  await db.schema.dropTable('dh_image_clones').execute();
}
