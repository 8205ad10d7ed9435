import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * The CRC-32 of a video output's file (docs/decisions.md "Download all as one ZIP"), computed once
 * when the render stores it: "download all" writes it (and the size) in the entry's local header
 * instead of reading every byte through a checksum on each download. NULL for the outputs stored
 * before this (and for any the server could not checksum): their entries are checksummed while
 * they stream, as before. bigint: the value is unsigned 32-bit (over PostgreSQL's integer).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('video_outputs').addColumn('crc32', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('video_outputs').dropColumn('crc32').execute();
}
