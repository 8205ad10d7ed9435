import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * `resources.has_audio`: whether the stored file has an audio stream, recorded
 * when an upload becomes a resource (the upload check probes it anyway), so that rendering a
 * video task's outputs does not run ffprobe on every input of every output. NULL: not known yet
 * (rows made before this migration, or written directly): the renderer probes such a file once
 * and writes the answer back. Only integers (0/1) on both engines.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('resources').addColumn('has_audio', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('resources').dropColumn('has_audio').execute();
}
