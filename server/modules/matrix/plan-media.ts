import type { PlanMediaType } from '../../../src/api/contract/matrix-plans';
import type { Executor } from '../../platform/db/schema';

/**
 * What a plan may publish (docs/domain.md §20): the caller's own finished videos — a library
 * video (not deleted, its file kept), a mixed-cut or clip output that is done, a digital-human
 * video that is done. Answers each one's display name and stored file, or undefined for one that
 * is not the caller's or not usable.
 */
export interface PlanMedia {
  type: PlanMediaType;
  id: number;
  name: string;
  storageKey: string;
}

/** How a plan names a video task's output: the task's name and the output's number (1-based). */
export const outputName = (taskName: string, idx: number) => `${taskName} #${idx}`;

export async function findPlanMedia(
  db: Executor,
  ownerId: number,
  refs: readonly { type: PlanMediaType; id: number }[],
): Promise<Map<string, PlanMedia>> {
  const ids = (type: PlanMediaType) => refs.filter((r) => r.type === type).map((r) => r.id);
  const found = new Map<string, PlanMedia>();
  const put = (type: PlanMediaType, id: number, name: string, key: string | null) => {
    if (key) found.set(`${type}:${id}`, { type, id, name, storageKey: key });
  };
  const resources = ids('resource');
  if (resources.length > 0) {
    const rows = await db
      .selectFrom('resources')
      .select(['id', 'name', 'storage_key'])
      .where('owner_id', '=', ownerId)
      .where('id', 'in', resources)
      .where('type', '=', 'video')
      .where('deleted_at', 'is', null)
      .where('file_deleted_at', 'is', null)
      .execute();
    for (const r of rows) put('resource', Number(r.id), r.name, r.storage_key);
  }
  const outputs = ids('video_output');
  if (outputs.length > 0) {
    const rows = await db
      .selectFrom('video_outputs as o')
      .innerJoin('video_tasks as t', 't.id', 'o.task_id')
      .select(['o.id', 'o.idx', 't.name', 'o.storage_key'])
      .where('t.owner_id', '=', ownerId)
      .where('o.id', 'in', outputs)
      .where('o.status', '=', 'done')
      .execute();
    for (const r of rows)
      put('video_output', Number(r.id), outputName(r.name, Number(r.idx)), r.storage_key);
  }
  const dhVideos = ids('dh_video');
  if (dhVideos.length > 0) {
    const rows = await db
      .selectFrom('dh_videos')
      .select(['id', 'name', 'storage_key'])
      .where('owner_id', '=', ownerId)
      .where('id', 'in', dhVideos)
      .where('status', '=', 'done')
      .where('deleted_at', 'is', null)
      .execute();
    for (const r of rows) put('dh_video', Number(r.id), r.name, r.storage_key);
  }
  return found;
}
