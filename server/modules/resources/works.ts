import type { Executor } from '../../platform/db/schema';

/**
 * Works (docs/domain.md §8 "Works"): a finished mixed-cut or clip output, or a done
 * digital-human video, shown in its owner's library as a resource row that reads the very same
 * stored file (no copy of the bytes). The row carries a `resource_refs` row of the source's own
 * kind, which the source's delete drops: while the task or video lives, deleting the work hides
 * it but the sweep keeps the file (the task still shows it); once the task is deleted the file
 * stays while the work is in the library ({@link keysKeptByLibrary}), and the resource sweep
 * removes it when the work is deleted too.
 */

/** What made the work: `video_output` (mixed-cut or clip) or `dh_video`. */
export type WorkSource = 'video_output' | 'dh_video';

/** `resource_groups.kind` of the owner's one works group. */
export const WORKS_GROUP = 'works';

export interface NewWork {
  ownerId: number;
  source: WorkSource;
  sourceId: number;
  /** `resource_refs.task_kind` and id of the task or video that owns the file. */
  ref: { kind: string; id: number };
  name: string;
  storageKey: string;
  posterKey: string | null;
  size: number;
  durationMs: number;
  width: number;
  height: number;
  /** A group of the owner's to put it in (a digital-human video's folder); else the works group. */
  groupId?: number;
  now: number;
}

/** The owner's works group, made on first use (one per owner: a unique index decides). */
async function worksGroupOf(trx: Executor, ownerId: number, now: number): Promise<number> {
  await trx
    .insertInto('resource_groups')
    .values({ owner_id: ownerId, name: '', kind: WORKS_GROUP, created_at: now })
    .onConflict((oc) => oc.columns(['owner_id', 'kind']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('resource_groups')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('kind', '=', WORKS_GROUP)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Adds the work in the caller's transaction (the one that marks the source done), at most once
 * per source: a second call for it changes nothing.
 */
export async function addWork(trx: Executor, work: NewWork): Promise<void> {
  let groupId: number | undefined;
  if (work.groupId !== undefined) {
    const own = await trx
      .selectFrom('resource_groups')
      .select('id')
      .where('id', '=', work.groupId)
      .where('owner_id', '=', work.ownerId)
      .executeTakeFirst();
    groupId = own ? Number(own.id) : undefined;
  }
  groupId ??= await worksGroupOf(trx, work.ownerId, work.now);
  const added = await trx
    .insertInto('resources')
    .values({
      owner_id: work.ownerId,
      group_id: groupId,
      type: 'video',
      name: work.name.slice(0, 100),
      upload_id: null,
      storage_key: work.storageKey,
      poster_key: work.posterKey,
      content_type: 'video/mp4',
      size: work.size,
      duration_ms: work.durationMs,
      width: work.width,
      height: work.height,
      codec: 'h264',
      has_audio: null,
      created_at: work.now,
      updated_at: work.now,
      deleted_at: null,
      file_deleted_at: null,
      source_kind: work.source,
      source_id: work.sourceId,
    })
    .onConflict((oc) => oc.columns(['source_kind', 'source_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added) return;
  await trx
    .insertInto('resource_refs')
    .values({
      resource_id: Number(added.id),
      task_kind: work.ref.kind,
      task_id: work.ref.id,
      created_at: work.now,
    })
    .onConflict((oc) => oc.columns(['resource_id', 'task_kind', 'task_id']).doNothing())
    .execute();
}

/**
 * Of `keys` (a deleted task's or video's files), those a work still holds: its resource is in
 * the library, or deleted with its file not yet removed by the sweep (which removes it then).
 * The deleting side leaves these files alone.
 */
export async function keysKeptByLibrary(
  db: Executor,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('resources')
    .select(['storage_key', 'poster_key'])
    .where('source_kind', 'is not', null)
    .where('file_deleted_at', 'is', null)
    .where((eb) => eb.or([eb('storage_key', 'in', keys), eb('poster_key', 'in', keys)]))
    .execute();
  return new Set(rows.flatMap((r) => [r.storage_key, r.poster_key ?? '']).filter(Boolean));
}

/** Deletes the files of a deleted source that no work holds (see {@link keysKeptByLibrary}). */
export async function deleteUnlessInLibrary(
  storage: { delete(key: string): Promise<unknown> },
  db: Executor,
  keys: readonly string[],
): Promise<void> {
  const kept = await keysKeptByLibrary(db, keys);
  for (const key of keys) if (!kept.has(key)) await storage.delete(key);
}
