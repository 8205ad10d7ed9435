import type { Selectable } from 'kysely';
import type { DhVideoListParams } from '../../../src/api/contract/digital-human';
import { rowCount } from '../../platform/db/conditions';
import type { DhVideosTable, Executor } from '../../platform/db/schema';
import { MAX_INT4 } from '../resources';

/**
 * SQL of digital-human videos (docs/domain.md §10). Every query of a caller's videos names
 * its owner: another user's video is never read, so it answers like a missing one.
 */

export type VideoRow = Selectable<DhVideosTable> & {
  avatar_name: string | null;
  voice_name: string | null;
  client: string;
};

export const FINISHED_VIDEO_STATUSES = ['done', 'failed'] as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

function videoRows(db: Executor) {
  return db
    .selectFrom('dh_videos as v')
    .innerJoin('users as u', 'u.id', 'v.owner_id')
    .leftJoin('dh_image_clones as a', 'a.id', 'v.avatar_id')
    .leftJoin('dh_voice_clones as s', 's.id', 'v.voice_id')
    .selectAll('v')
    .select(['a.name as avatar_name', 's.name as voice_name', 'u.username as client']);
}

/** The owner's video `id` (not deleted), or undefined (missing, deleted or another user's). */
export async function findVideo(
  db: Executor,
  ownerId: number,
  id: number,
): Promise<VideoRow | undefined> {
  if (id > MAX_INT4) return undefined;
  return videoRows(db)
    .where('v.id', '=', id)
    .where('v.owner_id', '=', ownerId)
    .where('v.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the owner's videos, newest first, and how many match. */
export async function listVideos(
  db: Executor,
  ownerId: number,
  query: DhVideoListParams,
): Promise<{ rows: VideoRow[]; total: number }> {
  let base = db
    .selectFrom('dh_videos as v')
    .where('v.owner_id', '=', ownerId)
    .where('v.deleted_at', 'is', null);
  if (query.status) base = base.where('v.status', '=', query.status);
  if (query.folder_id !== undefined) {
    base =
      query.folder_id > MAX_INT4
        ? base.where((eb) => eb.val(1), '=', 0)
        : base.where('v.folder_id', '=', query.folder_id);
  }
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`;
    base = base.where((eb) => eb.fn('lower', ['v.name']), 'like', pattern);
  }
  const ids = base.select('v.id');
  const [rows, count] = await Promise.all([
    videoRows(db)
      .where('v.id', 'in', ids)
      .orderBy('v.id', 'desc')
      .limit(rowCount(query.limit))
      .offset(rowCount((query.page - 1) * query.limit))
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Positions in our queue (1 = next) of the queued videos among `ids`: every queued video (any
 * owner's) counts, oldest (lowest id) first.
 */
export async function queuePositions(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const positions = new Map<number, number>();
  if (ids.length === 0) return positions;
  const last = Math.max(...ids);
  const queued = await db
    .selectFrom('dh_videos')
    .select('id')
    .where('status', '=', 'queued')
    .where('deleted_at', 'is', null)
    .where('id', '<=', last)
    .orderBy('id')
    .execute();
  const wanted = new Set(ids);
  queued.forEach((row, i) => {
    if (wanted.has(Number(row.id))) positions.set(Number(row.id), i + 1);
  });
  return positions;
}
