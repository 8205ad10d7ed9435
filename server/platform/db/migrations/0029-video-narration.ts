import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Narration of mixed-cut and clip tasks (docs/domain.md §9 "Narration"): the speech is made once
 * per task by the first output that renders and kept for the others.
 * - `narration_key`: the stored speech (WAV or M4A), NULL until made;
 * - `narration_ms`: its length;
 * - `narration_lines`: JSON `[{start, end, text}]`, each sentence's time in the speech (seconds);
 * - `narration_price`: `digital_man` seconds charged per second of speech, fixed at add.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('video_tasks').addColumn('narration_key', 'text').execute();
  await db.schema.alterTable('video_tasks').addColumn('narration_ms', 'integer').execute();
  await db.schema.alterTable('video_tasks').addColumn('narration_lines', 'text').execute();
  await db.schema
    .alterTable('video_tasks')
    .addColumn('narration_price', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['narration_price', 'narration_lines', 'narration_ms', 'narration_key']) {
    await db.schema.alterTable('video_tasks').dropColumn(column).execute();
  }
}
