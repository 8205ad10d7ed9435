import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * Every ratio in every kind of video (docs/domain.md §10 "Frame"): the digital-human videos get
 * the 4:3 frame the video tasks have (`classic`, 960×720, the 720p size of FRAME_SIZE['4:3']),
 * after the three templates of 0009. The presenter stands on the right, like the landscape
 * template's, in a rectangle of its own 9:16 shape (0.4 × 960 by 0.95 × 720 ≈ 384 × 684).
 */
export async function up(db: AnyDb): Promise<void> {
  await db
    .insertInto('dh_templates')
    .values({
      key: 'classic',
      ratio: '4:3',
      width: 960,
      height: 720,
      layout: JSON.stringify({
        avatar: { x: 0.55, y: 0.05, width: 0.4, height: 0.95 },
        subtitle: { y: 0.85, size: 0.045, color: '#FFFFFF' },
        background: '#243B35',
      }),
      sort: 4,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('dh_templates').where('key', '=', 'classic').execute();
}
