import type { CreationMediaType, PlanMediaItem } from '../../../src/api/contract/matrix-plans';
import type { AppContext, AuthContext } from '../../context';
import { outputName } from './plan-media';

/**
 * GET /matrix/plan_media_list (docs/domain.md §20): the caller's finished creations a plan may
 * publish besides library videos — mixed-cut or clip outputs that are done (of tasks not deleted)
 * and digital-human videos that are done — newest first, named as `findPlanMedia` names them.
 * With `ids`: only those, on one page (a "publish" link's preselection).
 */
export async function planMediaList(
  ctx: AppContext,
  auth: AuthContext,
  query: { type: CreationMediaType; ids?: string; page: number; limit: number },
): Promise<{ list: PlanMediaItem[]; total: number }> {
  const ids = query.ids?.split(',').map(Number);
  const limit = ids ? ids.length : query.limit;
  const offset = ids ? 0 : (query.page - 1) * query.limit;
  if (query.type === 'video_output') {
    let q = ctx.db
      .selectFrom('video_outputs as o')
      .innerJoin('video_tasks as t', 't.id', 'o.task_id')
      .where('t.owner_id', '=', auth.user.id)
      .where('t.deleted_at', 'is', null)
      .where('o.status', '=', 'done')
      .where('o.storage_key', 'is not', null);
    if (ids) q = q.where('o.id', 'in', ids);
    const [rows, count] = await Promise.all([
      q
        .select(['o.id', 'o.idx', 't.name', 'o.finished_at', 't.created_at'])
        .orderBy('o.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((r) => ({
        type: 'video_output',
        id: Number(r.id),
        name: outputName(r.name, Number(r.idx)),
        created_at: Number(r.finished_at ?? r.created_at),
      })),
      total: Number(count.n),
    };
  }
  let q = ctx.db
    .selectFrom('dh_videos')
    .where('owner_id', '=', auth.user.id)
    .where('status', '=', 'done')
    .where('deleted_at', 'is', null)
    .where('storage_key', 'is not', null);
  if (ids) q = q.where('id', 'in', ids);
  const [rows, count] = await Promise.all([
    q
      .select(['id', 'name', 'created_at'])
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      type: 'dh_video',
      id: Number(r.id),
      name: r.name,
      created_at: Number(r.created_at),
    })),
    total: Number(count.n),
  };
}
