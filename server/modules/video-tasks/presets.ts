import type {
  VideoTaskPreset,
  VideoTaskPresetDetail,
  VideoTaskPresetPage,
  VideoTaskSource,
} from '../../../src/api/contract/video-task-presets';
import { PRESETS_MAX } from '../../../src/api/contract/video-task-presets';
import type { VideoTaskKind, VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import { lockUsers } from '../ledger';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { ownResources } from '../resources';
import { placesOf } from './check-body';
import { findTask } from './repo';

/**
 * Presets and duplicates (docs/domain.md §9 "Presets, batches and previews"): a person's named
 * task bodies, and the body of an earlier task, to fill the create form again. Each is the
 * caller's own; another's answers like a missing one (docs/architecture.md rule 5).
 */

/** Clip bodies are refused for a caller whose clip menus are off (as every clip call). */
function checkKind(auth: AuthContext, kind: VideoTaskKind): void {
  if (kind === 'clip' && Number(auth.user.show_clip_menu) === 0) throw refuse('videoTask.clipOff');
}

/** A body and the caller's live resources it names. */
async function sourceOf(
  ctx: AppContext,
  ownerId: number,
  body: VideoTaskParams,
): Promise<VideoTaskSource> {
  const ids = placesOf(body).map((place) => place.id);
  return {
    kind: body.kind,
    body: body as unknown as Record<string, unknown>,
    resources: await ownResources(ctx, ownerId, ids),
  };
}

type PresetRow = {
  id: number;
  name: string;
  kind: string;
  body: string;
  created_at: number;
  updated_at: number;
};

const toPreset = (row: PresetRow): VideoTaskPreset => ({
  id: Number(row.id),
  name: row.name,
  kind: row.kind as VideoTaskKind,
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
});

/**
 * POST /video_task_preset/save: the body under the name, the caller's; a preset of that name is
 * replaced (its id kept). At most PRESETS_MAX presets a person.
 */
export async function savePreset(
  ctx: AppContext,
  auth: AuthContext,
  input: { name: string; body: VideoTaskParams },
  audit: AuditTrail,
): Promise<VideoTaskPreset> {
  checkKind(auth, input.body.kind);
  const ownerId = auth.user.id;
  return runInTransaction(
    ctx.db,
    async (trx) => {
      // Two saves at once (the same name, or the last free place) go one after the other.
      await lockUsers(ctx, trx, [ownerId]);
      const now = ctx.now();
      const same = await trx
        .selectFrom('video_task_presets')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('name', '=', input.name)
        .executeTakeFirst();
      const body = JSON.stringify(input.body);
      if (same) {
        await trx
          .updateTable('video_task_presets')
          .set({ kind: input.body.kind, body, updated_at: now })
          .where('id', '=', same.id)
          .execute();
        audit.target(Number(same.id));
        audit.change({ kind: same.kind, body: same.body }, { kind: input.body.kind, body });
        return toPreset({ ...same, kind: input.body.kind, body, updated_at: now });
      }
      const count = await trx
        .selectFrom('video_task_presets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= PRESETS_MAX) {
        throw refuse('videoTaskPreset.tooMany', { max: PRESETS_MAX });
      }
      const row = await trx
        .insertInto('video_task_presets')
        .values({
          owner_id: ownerId,
          name: input.name,
          kind: input.body.kind,
          body,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      audit.target(Number(row.id));
      audit.change(null, { name: input.name, kind: input.body.kind });
      return toPreset(row);
    },
    { audit },
  );
}

/** GET /video_task_preset/list: the caller's presets of a kind, by name. */
export async function listPresets(
  ctx: AppContext,
  auth: AuthContext,
  kind: VideoTaskKind,
): Promise<VideoTaskPresetPage> {
  checkKind(auth, kind);
  const rows = await ctx.db
    .selectFrom('video_task_presets')
    .selectAll()
    .where('owner_id', '=', auth.user.id)
    .where('kind', '=', kind)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return { list: rows.map(toPreset), total: rows.length };
}

async function ownPreset(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await ctx.db
    .selectFrom('video_task_presets')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', auth.user.id)
    .executeTakeFirst();
  if (!row) throw refuse('videoTaskPreset.notFound');
  checkKind(auth, row.kind as VideoTaskKind);
  return row;
}

/** GET /video_task_preset/detail: the preset's body and the resources it names. */
export async function presetDetail(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<VideoTaskPresetDetail> {
  const row = await ownPreset(ctx, auth, id);
  const source = await sourceOf(ctx, auth.user.id, JSON.parse(row.body) as VideoTaskParams);
  return { ...source, id: Number(row.id), name: row.name };
}

/** POST /video_task_preset/delete */
export async function deletePreset(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<{ id: number }> {
  const row = await ownPreset(ctx, auth, id);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const deleted = await trx
        .deleteFrom('video_task_presets')
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('videoTaskPreset.notFound');
      audit.change({ name: row.name, kind: row.kind }, null);
    },
    { audit },
  );
  return { id };
}

/** GET /video_task/source: the body an earlier task was added with ("duplicate"). */
export async function taskSource(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<VideoTaskSource> {
  const task = await findTask(ctx.db, auth.user.id, id);
  if (!task) throw refuse('videoTask.notFound');
  checkKind(auth, task.kind as VideoTaskKind);
  return sourceOf(ctx, auth.user.id, JSON.parse(task.params) as VideoTaskParams);
}
