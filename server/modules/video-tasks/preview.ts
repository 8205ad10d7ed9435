import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Locale } from '../../../src/api/contract/messages';
import {
  PREVIEW_FRAME,
  PREVIEW_LIMITS,
  type PreviewStatus,
  type VideoPreview,
} from '../../../src/api/contract/video-task-preview';
import type { VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { AppContext, AuthContext } from '../../context';
import type { Selectable } from 'kysely';
import type { VideoPreviewsTable } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import { AppError, refuse } from '../../platform/http/errors';
import { isMessageId, t } from '../../platform/i18n';
import { runOutsideWork, type Workspace } from '../../platform/jobs/outside-work';
import type { RunningJob } from '../../platform/jobs/queue';
import { renderVideo } from '../../platform/render/render';
import { signedUrlsOf } from '../resources';
import { planTask } from './check-body';
import { firstCombination, previewSpec } from './preview-spec';
import { PREVIEW_PRIORITY, videoOutputJob, type VideoPreviewJob } from './queue';
import { firstUnreadable, readable, specOf } from './render-output';
import { checkKind } from './service';

/**
 * Previews before paying (docs/domain.md §9 "Presets, batches and previews", docs/decisions.md
 * "Preview before paying"): `POST /video_task/preview` checks the body as `add` does (but the
 * balance), counts the caller's previews of the last minute (the rate limit), writes a
 * `video_previews` row and enqueues its render in the render lane ahead of paid outputs. No
 * ledger row, no hold: a preview is free. The job renders the first combination small and short
 * (preview-spec.ts) and stores it under `previews/u<owner>/`; the sweep removes the file and the
 * row an hour after it was asked for (PREVIEW_LIMITS.ttlMs).
 */

type PreviewRow = Selectable<VideoPreviewsTable>;

/** A refusal for asking too often: HTTP 429 with the seconds until the next preview is allowed. */
export class PreviewThrottled extends AppError {
  constructor(readonly seconds: number) {
    super('videoTask.previewThrottled', { max: PREVIEW_LIMITS.perMinute, seconds }, 429);
  }
}

/** POST /video_task/preview */
export async function addPreview(
  ctx: AppContext,
  auth: AuthContext,
  params: VideoTaskParams,
  locale: Locale,
): Promise<VideoPreview> {
  checkKind(auth, params.kind);
  const ownerId = auth.user.id;
  await planTask(ctx.db, ownerId, params); // every check of add but the balance
  const now = ctx.now();
  const row = await runInTransaction(ctx.db, async (trx) => {
    // One person's previews are counted one request at a time (SQLite writes one at a time).
    if (ctx.engine === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', ownerId).forUpdate().execute();
    }
    const recent = await trx
      .selectFrom('video_previews')
      .select('created_at')
      .where('owner_id', '=', ownerId)
      .where('created_at', '>', now - PREVIEW_LIMITS.windowMs)
      .orderBy('created_at', 'desc')
      .limit(PREVIEW_LIMITS.perMinute)
      .execute();
    if (recent.length >= PREVIEW_LIMITS.perMinute) {
      const oldest = Number(recent[recent.length - 1]!.created_at);
      throw new PreviewThrottled(
        Math.max(1, Math.ceil((oldest + PREVIEW_LIMITS.windowMs - now) / 1000)),
      );
    }
    return trx
      .insertInto('video_previews')
      .values({
        owner_id: ownerId,
        status: 'queued',
        params: JSON.stringify(params),
        job_id: null,
        storage_key: null,
        width: null,
        height: null,
        duration_ms: null,
        render_ms: null,
        reason_id: null,
        created_at: now,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  const id = Number(row.id);
  try {
    const jobId = await ctx.jobs.enqueue(
      videoOutputJob,
      { previewId: id },
      // Once: a preview that fails is asked for again by the person, not by the queue.
      { priority: PREVIEW_PRIORITY, attempts: 1 },
    );
    await ctx.db
      .updateTable('video_previews')
      .set({ job_id: jobId })
      .where('id', '=', id)
      .execute();
  } catch (error) {
    ctx.log.warn({ err: error, previewId: id }, 'video preview not enqueued');
    await failPreview(ctx, id, 'videoTask.reason.renderFailed');
    return previewDetail(ctx, auth, id, locale);
  }
  return toPreview(ctx, row, locale);
}

/** GET /video_task/preview_detail: the caller's own preview (another's answers "not found"). */
export async function previewDetail(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  locale: Locale,
): Promise<VideoPreview> {
  const row = await ctx.db
    .selectFrom('video_previews')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', auth.user.id)
    .executeTakeFirst();
  if (!row) throw refuse('videoTask.previewNotFound');
  return toPreview(ctx, row, locale);
}

async function toPreview(ctx: AppContext, row: PreviewRow, locale: Locale): Promise<VideoPreview> {
  const params = JSON.parse(row.params) as VideoTaskParams;
  const frame = PREVIEW_FRAME[params.ratio];
  const status = row.status as PreviewStatus;
  const done = status === 'done' && row.storage_key !== null;
  const reasonId = row.reason_id ?? 'videoTask.reason.renderFailed';
  return {
    id: Number(row.id),
    status,
    width: row.width === null ? frame.width : Number(row.width),
    height: row.height === null ? frame.height : Number(row.height),
    duration: row.duration_ms === null ? null : Math.round(Number(row.duration_ms) / 10) / 100,
    url: done ? await signedUrlsOf(ctx.storage, ctx.now).url(row.storage_key!) : null,
    reason: status === 'failed' ? (isMessageId(reasonId) ? t(locale, reasonId) : reasonId) : null,
    narration_silent: params.narration !== undefined,
    expires_at: Number(row.created_at) + PREVIEW_LIMITS.ttlMs,
  };
}

async function failPreview(ctx: AppContext, id: number, reasonId: string): Promise<void> {
  await ctx.db
    .updateTable('video_previews')
    .set({ status: 'failed', reason_id: reasonId, finished_at: ctx.now() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'rendering'])
    .execute();
}

interface ClaimedPreview {
  previewId: number;
  ownerId: number;
  params: VideoTaskParams;
  /** When this run took it (this machine's clock: the render time). */
  startedAt: number;
}

interface RenderedPreview {
  storageKey: string;
  durationMs: number;
  width: number;
  height: number;
}

/**
 * The render lane's preview job (server/modules/video-tasks/queue.ts): claims the preview
 * (queued → rendering; an expired or finished one is skipped), renders its first combination
 * small and short (preview-spec.ts) into the work dir, stores the file and marks it done. Runs
 * once: a failure marks it failed with the output's reasons (an unreadable input, else "could
 * not be rendered").
 */
export async function renderPreview(
  ctx: AppContext,
  job: RunningJob<VideoPreviewJob>,
): Promise<void> {
  const previewId = Number(job.data.previewId);
  await runOutsideWork<ClaimedPreview, RenderedPreview, number>(ctx.config, job, {
    kind: 'video-preview',
    key: previewId,
    claim: () => claimPreview(ctx, previewId),
    perform: (unit, work) => render(ctx, unit, work),
    store: async (unit, file) => {
      const stored = await ctx.db
        .updateTable('video_previews')
        .set({
          status: 'done',
          storage_key: file.storageKey,
          width: file.width,
          height: file.height,
          duration_ms: file.durationMs,
          render_ms: Date.now() - unit.startedAt,
          finished_at: ctx.now(),
        })
        .where('id', '=', unit.previewId)
        .where('status', '=', 'rendering')
        .executeTakeFirst();
      // Removed meanwhile (the sweep): the file is not used.
      if (Number(stored.numUpdatedRows) !== 1) await ctx.storage.delete(file.storageKey);
    },
    exhausted: () => ({ reasonId: 'videoTask.reason.renderFailed' }),
    fail: async (unit, reason, error) => {
      ctx.log.warn(
        { err: error, previewId: unit.previewId },
        `video preview failed: ${reason.reasonId}`,
      );
      await failPreview(ctx, unit.previewId, reason.reasonId);
    },
  });
}

async function claimPreview(
  ctx: AppContext,
  previewId: number,
): Promise<{ unit: ClaimedPreview; resumed: boolean } | null> {
  const row = await ctx.db
    .selectFrom('video_previews')
    .select(['status', 'owner_id', 'params'])
    .where('id', '=', previewId)
    .executeTakeFirst();
  if (!row || (row.status !== 'queued' && row.status !== 'rendering')) return null;
  const claimed = await ctx.db
    .updateTable('video_previews')
    .set({ status: 'rendering' })
    .where('id', '=', previewId)
    .where('status', 'in', ['queued', 'rendering'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return {
    resumed: row.status === 'rendering',
    unit: {
      previewId,
      ownerId: Number(row.owner_id),
      params: JSON.parse(row.params) as VideoTaskParams,
      startedAt: Date.now(),
    },
  };
}

async function render(
  ctx: AppContext,
  unit: ClaimedPreview,
  work: Workspace<number>,
): Promise<RenderedPreview> {
  const { spec, unprobed, sources } = await specOf(
    ctx,
    unit.ownerId,
    unit.params,
    firstCombination(unit.params),
    work.signal,
  );
  const file = path.join(work.dir, 'preview.mp4');
  let result;
  try {
    result = await renderVideo(previewSpec(spec, unit.params), file, {
      signal: work.signal,
      onProgress: work.report,
      tmpDir: work.dir,
    });
  } catch (error) {
    if (work.signal.aborted) throw error;
    const unreadable = await firstUnreadable(ctx, unprobed, work.signal);
    if (unreadable) throw unreadable;
    ctx.log.warn({ detail: readable(ctx, error, sources) }, 'video preview render failed');
    throw error;
  }
  const key = `previews/u${unit.ownerId}/p${unit.previewId}-${randomBytes(6).toString('hex')}.mp4`;
  await ctx.storage.storeFile(key, file, { contentType: 'video/mp4', filename: 'preview.mp4' });
  return {
    storageKey: key,
    durationMs: Math.round(result.duration * 1000),
    width: result.width,
    height: result.height,
  };
}

/** A preview still queued or rendering this long after it was asked for has failed. */
const STUCK_MS = 10 * 60_000;

/**
 * The sweep's part (./sweep.ts): previews asked for more than PREVIEW_LIMITS.ttlMs ago are
 * removed, file and row (a row of the last minute counts for the rate limit; an hour is far
 * past it); one stuck queued or rendering for 10 minutes (its worker died) fails.
 */
export async function sweepPreviews(ctx: AppContext): Promise<{ removed: number }> {
  const now = ctx.now();
  const old = await ctx.db
    .selectFrom('video_previews')
    .select(['id', 'storage_key'])
    .where('created_at', '<', now - PREVIEW_LIMITS.ttlMs)
    .orderBy('id')
    .limit(500)
    .execute();
  for (const row of old) {
    // The row first: a render that finishes now finds it gone and removes its own file.
    await ctx.db.deleteFrom('video_previews').where('id', '=', row.id).execute();
    if (row.storage_key) await ctx.storage.delete(row.storage_key);
  }
  await ctx.db
    .updateTable('video_previews')
    .set({ status: 'failed', reason_id: 'videoTask.reason.renderFailed', finished_at: now })
    .where('status', 'in', ['queued', 'rendering'])
    .where('created_at', '<', now - STUCK_MS)
    .execute();
  return { removed: old.length };
}
