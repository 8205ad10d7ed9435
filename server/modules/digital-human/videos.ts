import {
  dhVideoBody,
  estimateSpeechSeconds,
  type DhAddReply,
  type DhDeleteReply,
  type DhVideo,
  type DhVideoDetail,
  type DhVideoEstimate,
  type DhVideoListParams,
  type DhVideoPage,
  type DhVideoParams,
  type DhVideoStatus,
} from '../../../src/api/contract/digital-human';
import type { Locale } from '../../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../context';
import type { Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { failureDetail } from '../../platform/jobs/failure-detail';
import { isMessageId, t } from '../../platform/i18n';
import { runMoney, type Idempotency } from '../ledger';
import { MAX_INT4 } from '../resources';
import { deleteUnlessInLibrary, signedUrlsOf } from '../resources';
import { priceFor } from '../system';
import { balanceOf, freezeWork } from './billing';
import { enqueueDh } from './requeue';
import { resourcesOf, settingsOf, type TemplateSettings } from './template-settings';
import { defaultTemplate, usableTemplate } from './templates';
import {
  FINISHED_VIDEO_STATUSES,
  findVideo,
  listVideos,
  queuePositions,
  type VideoRow,
} from './videos-repo';

/** The platform setting: `digital_man` seconds charged per second of video (default 1). */
export const UNIT_COST_SETTING = 'digital_man_cost';
const DEFAULT_UNIT_COST = 1;
/** `resource_refs.task_kind` of a video's music: its file stays while the video exists. */
export const VIDEO_REF = 'dh_video';
const MUSIC_TYPES = ['bgm', 'audio'];

/**
 * `digital_man` seconds per second of video for `payer`: its partner's override, else the
 * platform's setting, a whole number ≥ 0 (docs/domain.md §12 "Settings and prices").
 */
export async function unitCost(
  ctx: Pick<AppContext, 'db'>,
  payer: { service_id: number },
): Promise<number> {
  const raw = (await priceFor(ctx.db, payer, UNIT_COST_SETTING)).trim();
  return /^\d{1,6}$/.test(raw) ? Number(raw) : DEFAULT_UNIT_COST;
}

/**
 * Every check of a video's body against the database (the caller's own things, live): a ready
 * image clone, a ready voice clone or a public voice, a folder, music of the right type, a
 * template (the platform's or the caller's own). Another user's answers exactly like a missing
 * one. Answers the template's settings the video keeps (template-settings.ts).
 */
async function checkBody(
  db: Executor,
  ownerId: number,
  params: DhVideoParams,
): Promise<TemplateSettings> {
  const inRange = (id: number) => id <= MAX_INT4;
  const avatar = inRange(params.avatar_id)
    ? await db
        .selectFrom('dh_image_clones')
        .select('id')
        .where('id', '=', params.avatar_id)
        .where('owner_id', '=', ownerId)
        .where('status', '=', 'ready')
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!avatar) throw refuse('dhVideo.avatarMissing', { id: params.avatar_id });
  const voice = inRange(params.voice_id)
    ? await db
        .selectFrom('dh_voice_clones')
        .select('id')
        .where('id', '=', params.voice_id)
        .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('owner_id', 'is', null)]))
        .where('status', '=', 'ready')
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!voice) throw refuse('dhVideo.voiceMissing', { id: params.voice_id });
  const folder = inRange(params.folder_id)
    ? await db
        .selectFrom('resource_groups')
        .select('id')
        .where('id', '=', params.folder_id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst()
    : undefined;
  if (!folder) throw refuse('dhVideo.folderMissing', { id: params.folder_id });
  if (params.music_id !== undefined) {
    const music = inRange(params.music_id)
      ? await db
          .selectFrom('resources')
          .select('id')
          .where('id', '=', params.music_id)
          .where('owner_id', '=', ownerId)
          .where('type', 'in', MUSIC_TYPES)
          .where('deleted_at', 'is', null)
          .where('file_deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!music) throw refuse('dhVideo.musicMissing', { id: params.music_id });
  }
  if (params.template_id === undefined) return settingsOf(await defaultTemplate(db), false);
  const template = inRange(params.template_id)
    ? await usableTemplate(db, ownerId, params.template_id)
    : undefined;
  if (!template) throw refuse('dhVideo.templateMissing', { id: params.template_id });
  return settingsOf(template, true);
}

/** POST /digital_human/video_estimate: every check of `add` but the balance; charges nothing. */
export async function estimateVideo(
  ctx: AppContext,
  auth: AuthContext,
  params: DhVideoParams,
): Promise<DhVideoEstimate> {
  await checkBody(ctx.db, auth.user.id, params);
  const seconds = estimateSpeechSeconds(params.text, params.speed);
  const unit = await unitCost(ctx, auth.user);
  return {
    characters: [...params.text].length,
    seconds,
    unit_cost: unit,
    cost: seconds * unit,
    balance: await balanceOf(ctx.db, auth.user.id, 'digital_man'),
  };
}

/**
 * POST /digital_human/video_add: in one transaction the body is checked again (live, the
 * caller's), the video inserted (queued, billing held), its music referenced and the estimated
 * seconds × unit cost frozen (refused with the amount needed when short: nothing changes); then
 * its job is enqueued. A failed enqueue loses nothing: the sweep enqueues it.
 */
export async function addVideo(
  ctx: AppContext,
  auth: AuthContext,
  params: DhVideoParams,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
  resubmittedFrom: number | null = null,
): Promise<DhAddReply> {
  const ownerId = auth.user.id;
  await checkBody(ctx.db, ownerId, params); // refuses early, before any lock
  const seconds = estimateSpeechSeconds(params.text, params.speed);
  const unit = await unitCost(ctx, auth.user);
  const id = await runMoney(
    ctx,
    async (trx) => {
      const settings = await checkBody(trx, ownerId, params);
      const now = ctx.now();
      const row = await trx
        .insertInto('dh_videos')
        .values({
          owner_id: ownerId,
          name: params.name,
          params: JSON.stringify(params),
          avatar_id: params.avatar_id,
          voice_id: params.voice_id,
          folder_id: params.folder_id,
          template_id: params.template_id ?? null,
          template_settings: JSON.stringify(settings),
          estimated_seconds: seconds,
          unit_cost: unit,
          status: 'queued',
          provider: ctx.integrations.digitalHuman.name,
          billing: 'held',
          resubmitted_from: resubmittedFrom,
          progress_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const videoId = Number(row.id);
      // Its music and its template's files stay while it lives (the template may change).
      const held = new Set(
        resourcesOf({
          ...settings,
          music_resource_id: params.music_id !== undefined ? null : settings.music_resource_id,
        }),
      );
      if (params.music_id !== undefined) held.add(params.music_id);
      if (held.size > 0) {
        await trx
          .insertInto('resource_refs')
          .values(
            [...held].map((resourceId) => ({
              resource_id: resourceId,
              task_kind: VIDEO_REF,
              task_id: videoId,
              created_at: now,
            })),
          )
          .execute();
      }
      await freezeWork(
        ctx,
        trx,
        { table: 'dh_videos', id: videoId, ownerId, name: params.name },
        seconds * unit,
      );
      audit.change(null, {
        name: params.name,
        seconds,
        frozen: seconds * unit,
      });
      return videoId;
    },
    idempotency,
    audit,
  );
  // A replayed request (same Idempotency-Key) enqueues only what has no job yet.
  await enqueueDh(ctx, 'dh_videos', [id], { onlyNew: true });
  return { id };
}

/** GET /digital_human/video_list */
export async function videoList(
  ctx: AppContext,
  auth: AuthContext,
  query: DhVideoListParams,
  locale: Locale,
): Promise<DhVideoPage> {
  const { rows, total } = await listVideos(ctx.db, auth.user.id, query);
  const positions = await queuePositions(
    ctx.db,
    rows.filter((r) => r.status === 'queued').map((r) => Number(r.id)),
  );
  const list = await Promise.all(rows.map((row) => toVideo(ctx, row, positions, locale)));
  return { list, total };
}

async function ownVideo(ctx: AppContext, auth: AuthContext, id: number): Promise<VideoRow> {
  const row = await findVideo(ctx.db, auth.user.id, id);
  if (!row) throw refuse('dhVideo.notFound');
  return row;
}

/** GET /digital_human/video_detail */
export async function videoDetail(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  locale: Locale,
): Promise<DhVideoDetail> {
  const row = await ownVideo(ctx, auth, id);
  const positions = await queuePositions(ctx.db, row.status === 'queued' ? [id] : []);
  return {
    ...(await toVideo(ctx, row, positions, locale)),
    params: JSON.parse(row.params) as Record<string, unknown>,
    // Rows written before details were made readable may hold paths: scrubbed here too.
    reason_detail:
      row.status === 'failed' && row.reason_detail
        ? failureDetail(row.reason_detail, { roots: [ctx.config.dataDir] })
        : null,
  };
}

/** A failed row's reason in `locale` (its message id and params; a generic one if unknown). */
export function reasonText(
  locale: Locale,
  row: { reason_id: string | null; reason_params: string | null },
): string {
  const id = row.reason_id !== null && isMessageId(row.reason_id) ? row.reason_id : null;
  if (id === null) return t(locale, 'dhVideo.reason.failed');
  const params = row.reason_params
    ? (JSON.parse(row.reason_params) as Record<string, string | number>)
    : {};
  return t(locale, id, params);
}

async function toVideo(
  ctx: AppContext,
  row: VideoRow,
  positions: Map<number, number>,
  locale: Locale,
): Promise<DhVideo> {
  const id = Number(row.id);
  const status = row.status as DhVideoStatus;
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const done = status === 'done' && row.storage_key !== null;
  const url = done ? await urls.url(row.storage_key!) : null;
  const vendorPosition = row.queue_position === null ? null : Number(row.queue_position);
  return {
    id,
    name: row.name,
    status,
    reason: status === 'failed' ? reasonText(locale, row) : null,
    progress: status === 'done' ? 100 : status === 'creating' ? Number(row.progress) : 0,
    queue_position:
      status === 'queued'
        ? (positions.get(id) ?? null)
        : status === 'creating' && vendorPosition !== null && vendorPosition > 0
          ? vendorPosition
          : null,
    avatar_id: Number(row.avatar_id),
    avatar_name: row.avatar_name ?? '',
    voice_id: Number(row.voice_id),
    voice_name: row.voice_name ?? '',
    folder_id: Number(row.folder_id),
    client: row.client,
    estimated_seconds: Number(row.estimated_seconds),
    duration: row.duration_ms === null ? null : Math.round(Number(row.duration_ms) / 10) / 100,
    frozen: Number(row.cost),
    settled: Number(row.settled),
    refunded: Number(row.refunded),
    cover: done && row.poster_key ? await urls.url(row.poster_key) : null,
    url,
    download_url:
      url && row.storage_key ? await urls.url(row.storage_key, `${row.name}.mp4`) : null,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    size: row.size === null ? null : Number(row.size),
    demonstration: row.provider === 'embedded',
    resubmitted_from: row.resubmitted_from === null ? null : Number(row.resubmitted_from),
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** POST /digital_human/video_rename */
export async function renameVideo(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  name: string,
  audit: AuditTrail,
): Promise<null> {
  const row = await ownVideo(ctx, auth, id);
  audit.change(row, { name });
  await runInTransaction(
    ctx.db,
    (trx) =>
      trx
        .updateTable('dh_videos')
        .set({ name, updated_at: ctx.now() })
        .where('id', '=', id)
        .where('owner_id', '=', auth.user.id)
        .where('deleted_at', 'is', null)
        .execute(),
    { audit },
  );
  return null;
}

/**
 * POST /digital_human/video_delete: finished videos only (refused while any is queued or
 * creating); each is hidden (soft delete: its billing stays for the ledger) and its music
 * reference dropped in one transaction, then its files removed.
 */
export async function deleteVideos(
  ctx: AppContext,
  auth: AuthContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<DhDeleteReply> {
  const unique = [...new Set(ids)];
  const keys = await runInTransaction(
    ctx.db,
    async (trx) => {
      const rows: VideoRow[] = [];
      for (const id of unique) {
        const row = await findVideo(trx, auth.user.id, id);
        if (!row) throw refuse('dhVideo.notFound');
        if (!(FINISHED_VIDEO_STATUSES as readonly string[]).includes(row.status)) {
          throw refuse('dhVideo.notFinished', { name: row.name });
        }
        rows.push(row);
      }
      const now = ctx.now();
      const hidden = await trx
        .updateTable('dh_videos')
        .set({ deleted_at: now, updated_at: now })
        .where('id', 'in', unique)
        .where('owner_id', '=', auth.user.id)
        .where('deleted_at', 'is', null)
        .where('status', 'in', FINISHED_VIDEO_STATUSES)
        .executeTakeFirst();
      if (Number(hidden.numUpdatedRows) !== unique.length) {
        throw refuse('dhVideo.notFinished', { name: rows[0].name });
      }
      await trx
        .deleteFrom('resource_refs')
        .where('task_kind', '=', VIDEO_REF)
        .where('task_id', 'in', unique)
        .execute();
      audit.change({ deleted_at: null }, { deleted_at: now });
      return rows.flatMap((r) =>
        [r.storage_key, r.poster_key, r.speech_key].filter((k): k is string => k !== null),
      );
    },
    { audit },
  );
  // A work in the library keeps its file (docs/domain.md §8 "Works").
  await deleteUnlessInLibrary(ctx.storage, ctx.db, keys);
  return { count: unique.length };
}

/**
 * POST /digital_human/video_resubmit: a new video with the same body (checked again, frozen
 * again), `resubmitted_from` the old one.
 */
export async function resubmitVideo(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  idempotency: Idempotency | undefined,
  audit: AuditTrail,
): Promise<DhAddReply> {
  const row = await ownVideo(ctx, auth, id);
  const parsed = dhVideoBody.safeParse(JSON.parse(row.params));
  if (!parsed.success) throw refuse('dhVideo.notFound');
  return addVideo(ctx, auth, { ...parsed.data, name: row.name }, idempotency, audit, id);
}
