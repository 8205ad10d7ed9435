import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * `dh_videos.speech_ms`: the length of the speech a video's job synthesized and stored
 * (`speech_key`), so that a job run again after a crash or a vendor callback renders from the
 * stored speech without synthesizing or probing it again. NULL until the speech is stored.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('dh_videos').addColumn('speech_ms', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('dh_videos').dropColumn('speech_ms').execute();
}
