import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { speechLanguageOf, type DhVideoParams } from '../../../src/api/contract/digital-human';
import type { AppContext } from '../../context';
import { handleJob } from '../../platform/jobs/define-job';
import { failureDetail } from '../../platform/jobs/failure-detail';
import { runOutsideWork, type Workspace } from '../../platform/jobs/outside-work';
import type { RunningJob } from '../../platform/jobs/queue';
import {
  ProviderError,
  type MediaRef,
  type ProviderProgress,
  type ProviderRun,
} from '../../integrations/digital-human/types';
import { runMoney } from '../ledger';
import { addWork } from '../resources';
import { finishHeld } from './billing';
import { VIDEO_REF } from './videos';
import { mediaRefOf, storeFile } from './clones-repo';
import { DH_JOB, type DhJobData } from './job-kinds';
import { settingsOfVideo } from './template-settings';
import { imageNameOf } from './templates';

const DETAIL_CHARS = 1_500;
/** Of a video's progress: speech up to here, the render the rest. */
const SPEECH_SHARE = 20;

const tail = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(-DETAIL_CHARS);

/** A failure running again cannot fix, with its reason (a server message id). */
class Permanent extends Error {
  constructor(
    readonly reasonId: string,
    readonly reasonParams: Record<string, string | number> = {},
    detail = '',
  ) {
    super(detail || reasonId);
  }
}

/** Makes one digital-human video. */
export const dhVideoJob = handleJob(DH_JOB.dh_videos, makeVideo, {
  // The embedded provider's ffmpeg uses every core: one video at a time per worker by default.
  concurrency: (ctx: AppContext) => ctx.config.videoRenderConcurrency,
});

/**
 * The `dh-video` job: makes one digital-human video, as a unit of outside work
 * (server/platform/jobs/outside-work.ts runs the lifecycle).
 * 1. Claim: queued → creating (a run after a crash or a vendor callback takes a creating video
 *    again; a done, failed or deleted one is skipped: duplicate runs are harmless).
 * 2. Perform — speech: unless stored by an earlier run (`speech_key`), synthesized by the
 *    provider (the voice's profile, the text's language, speed and volume) and stored, so a
 *    restart does not redo it. A vendor's job id is recorded as soon as it is submitted
 *    (`vendor_job_id`) and a later run resumes it instead of submitting again; it is cleared when
 *    the speech is stored, and the render's own job id recorded next. Render: the avatar's poster
 *    and loop, the speech, subtitles, music (its own, else its template's), the template's frame,
 *    layout and background picture as the video kept them at submit (template-settings.ts;
 *    portrait by default); inputs are local paths and absolute signed URLs (a vendor fetches
 *    them). Progress
 *    and the vendor's queue position are written at most every second. The video and its poster
 *    are stored.
 * 3. Store: in one transaction the video is done and billed on its real length: ceil(seconds) ×
 *    unit cost settled (billing.ts `finishHeld`: the unused part given back, or the extra charged
 *    up to the balance) — once, whatever runs twice.
 * A permanent failure (unusable input, the vendor failed the job) fails and refunds the video at
 * once; another is retried until the last attempt, which fails and refunds it.
 */
export async function makeVideo(ctx: AppContext, job: RunningJob<DhJobData>): Promise<void> {
  const id = Number(job.data.id);
  await runOutsideWork<number, Made | null, VideoProgress>(ctx.config, job, {
    kind: 'dh-video',
    key: id,
    claim: () => claimVideo(ctx, id),
    perform: (_, work) => create(ctx, id, work),
    progress: (_, update) => writeProgress(ctx, job, id, update),
    store: (_, made) => (made ? finishVideo(ctx, id, made) : Promise.resolve()),
    classify: (error) =>
      error instanceof Permanent || (error instanceof ProviderError && error.permanent)
        ? {
            permanent: {
              reasonId: error.reasonId,
              reasonParams: error.reasonParams,
              detail: tail(error),
            },
          }
        : 'transient',
    exhausted: (error) => ({ reasonId: 'dhVideo.reason.failed', detail: tail(error) }),
    fail: async (_, reason) => {
      await failVideo(ctx, id, reason.reasonId, reason.reasonParams ?? {}, reason.detail ?? '');
    },
  });
}

/** queued → creating (a creating one again); null when there is nothing to do. */
async function claimVideo(
  ctx: AppContext,
  id: number,
): Promise<{ unit: number; resumed: boolean } | null> {
  const row = await ctx.db
    .selectFrom('dh_videos')
    .select(['status', 'deleted_at', 'started_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) return null;
  if (row.status !== 'queued' && row.status !== 'creating') return null;
  const now = ctx.now();
  const claimed = await ctx.db
    .updateTable('dh_videos')
    .set((eb) => ({
      status: 'creating',
      attempts: eb('attempts', '+', 1),
      queue_position: null,
      started_at: row.started_at ?? now,
      updated_at: now,
      progress_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'creating'])
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return { unit: id, resumed: row.status === 'creating' };
}

/** Fails a creating (or queued) video and refunds what it froze; false if already finished. */
export async function failVideo(
  ctx: AppContext,
  id: number,
  reasonId: string,
  reasonParams: Record<string, string | number>,
  detail: string,
): Promise<boolean> {
  ctx.log.warn({ id, reason: reasonId, detail }, 'digital-human video failed');
  return runMoney(ctx, (trx) =>
    finishHeld(ctx, trx, {
      table: 'dh_videos',
      id,
      from: ['queued', 'creating'],
      set: {
        status: 'failed',
        queue_position: null,
        reason_id: reasonId,
        reason_params: JSON.stringify(reasonParams),
        // Readable (no server path, no raw dump); the whole text is logged above.
        reason_detail: failureDetail(detail, { roots: [ctx.config.dataDir] }),
      },
      bill: 'refund',
    }),
  );
}

/** A video made and stored, to be finished and billed. */
interface Made {
  storageKey: string;
  posterKey: string;
  duration: number;
  size: number;
  width: number;
  height: number;
  unitCost: number;
}

/** A progress report of the provider, mapped into [from, to] percent of the video. */
interface VideoProgress {
  update: ProviderProgress;
  from: number;
  to: number;
}

/** Makes the speech (unless stored) and the video, and stores it; null when finished meanwhile. */
async function create(
  ctx: AppContext,
  id: number,
  work: Workspace<VideoProgress>,
): Promise<Made | null> {
  let row = await ctx.db
    .selectFrom('dh_videos')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const ownerId = Number(row.owner_id);
  const params = JSON.parse(row.params) as DhVideoParams;
  const avatar = await ctx.db
    .selectFrom('dh_image_clones')
    .select(['poster_key', 'loop_key', 'width', 'height', 'vendor_ref', 'status'])
    .where('id', '=', Number(row.avatar_id))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!avatar?.poster_key || !avatar.loop_key || avatar.status !== 'ready') {
    throw new Permanent('dhVideo.reason.avatarGone');
  }
  const progress = (update: ProviderProgress, from: number, to: number) =>
    work.report({ update, from, to });

  // ---- speech (stored once; a run after a restart reuses it)
  if (row.speech_key === null || row.speech_ms === null) {
    const voice = await ctx.db
      .selectFrom('dh_voice_clones')
      .select(['profile', 'status'])
      .where('id', '=', Number(row.voice_id))
      .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('owner_id', 'is', null)]))
      .executeTakeFirst();
    if (!voice?.profile || voice.status !== 'ready')
      throw new Permanent('dhVideo.reason.voiceGone');
    const speechDir = path.join(work.dir, 'speech');
    await fs.mkdir(speechDir);
    const speech = await ctx.integrations.digitalHuman.synthesize(
      {
        text: params.text,
        language: speechLanguageOf(params.text),
        voice: JSON.parse(voice.profile) as Record<string, unknown>,
        speed: params.speed,
        volume: params.volume,
      },
      providerRun(ctx, work.signal, id, speechDir, row.vendor_job_id, (p) =>
        progress(p, 0, SPEECH_SHARE),
      ),
    );
    await work.flush();
    const ext = path.extname(speech.audioPath).toLowerCase() === '.m4a' ? 'm4a' : 'wav';
    const key = `dh/u${ownerId}/v${id}/speech.${ext}`;
    await storeFile(ctx, key, speech.audioPath, {
      contentType: ext === 'm4a' ? 'audio/mp4' : 'audio/wav',
    });
    await ctx.db
      .updateTable('dh_videos')
      .set({
        speech_key: key,
        speech_ms: Math.round(speech.duration * 1000),
        vendor_job_id: null,
        progress: SPEECH_SHARE,
        updated_at: ctx.now(),
        progress_at: ctx.now(),
      })
      .where('id', '=', id)
      .where('status', '=', 'creating')
      .where('speech_key', 'is', null)
      .execute();
    row = await ctx.db
      .selectFrom('dh_videos')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.status !== 'creating') return null; // finished meanwhile by another run
    if (row.speech_key === null || row.speech_ms === null) throw new Error('speech not recorded');
  }

  // ---- render: the template as the video kept it at submit (template-settings.ts)
  const template = await settingsOfVideo(ctx.db, row);
  // Deleted files still count: they stay while the video refers to them.
  const ownFile = async (id: number) =>
    ctx.db
      .selectFrom('resources')
      .select('storage_key')
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('file_deleted_at', 'is', null)
      .executeTakeFirst();
  let music: MediaRef | undefined;
  // Its own music, else its template's (docs/domain.md §10 "Video templates").
  const musicId = params.music_id ?? template.music_resource_id;
  if (musicId !== null) {
    const resource = await ownFile(musicId);
    if (!resource) throw new Permanent('dhVideo.reason.musicGone');
    music = await mediaOf(ctx, resource.storage_key);
  }
  let background: MediaRef | undefined;
  if (template.background) {
    const key =
      'resource_id' in template.background
        ? (await ownFile(template.background.resource_id))?.storage_key
        : (
            await ctx.db
              .selectFrom('platform_images')
              .select('storage_key')
              .where('name', '=', imageNameOf(template.background.image_url))
              .executeTakeFirst()
          )?.storage_key;
    if (!key) throw new Permanent('dhVideo.reason.backgroundGone');
    background = await mediaOf(ctx, key);
  }
  const renderDir = path.join(work.dir, 'render');
  await fs.mkdir(renderDir);
  const result = await ctx.integrations.digitalHuman.renderVideo(
    {
      avatar: {
        poster: await mediaOf(ctx, avatar.poster_key),
        loop: await mediaOf(ctx, avatar.loop_key),
        vendorRef: avatar.vendor_ref === null ? null : (JSON.parse(avatar.vendor_ref) as unknown),
        width: Number(avatar.width ?? template.width),
        height: Number(avatar.height ?? template.height),
      },
      speech: { ...(await mediaOf(ctx, row.speech_key)), duration: Number(row.speech_ms) / 1000 },
      text: params.text,
      subtitles: params.subtitles,
      ...(music ? { music } : {}),
      ...(background ? { background } : {}),
      width: Number(template.width),
      height: Number(template.height),
      layout: template.layout,
    },
    providerRun(ctx, work.signal, id, renderDir, row.vendor_job_id, (p) =>
      progress(p, SPEECH_SHARE, 99),
    ),
  );
  await work.flush();

  // ---- store, then done and settled on the real length (once)
  const stem = `dh/u${ownerId}/v${id}/video-${randomBytes(6).toString('hex')}`;
  const size = (await fs.stat(result.videoPath)).size;
  const storageKey = await storeFile(ctx, `${stem}.mp4`, result.videoPath, {
    contentType: 'video/mp4',
    filename: `${row.name}.mp4`,
  });
  const posterKey = await storeFile(ctx, `${stem}.jpg`, result.posterPath, {
    contentType: 'image/jpeg',
    filename: `${row.name}.jpg`,
  });
  return {
    storageKey,
    posterKey,
    duration: result.duration,
    size,
    width: result.width,
    height: result.height,
    unitCost: Number(row.unit_cost),
  };
}

/** Done and settled on the real length (once); a run that lost the race removes its files. */
async function finishVideo(ctx: AppContext, id: number, made: Made): Promise<void> {
  const used = Math.ceil(made.duration - 1e-6) * made.unitCost;
  const finished = await runMoney(ctx, async (trx) => {
    const done = await finishHeld(ctx, trx, {
      table: 'dh_videos',
      id,
      from: ['creating'],
      set: {
        status: 'done',
        progress: 100,
        queue_position: null,
        storage_key: made.storageKey,
        poster_key: made.posterKey,
        duration_ms: Math.round(made.duration * 1000),
        size: made.size,
        width: made.width,
        height: made.height,
        reason_id: null,
        reason_params: null,
        reason_detail: null,
      },
      bill: { settle: used },
    });
    if (done) {
      // The video enters its owner's library, in its folder (docs/domain.md §8 "Works").
      const row = await trx
        .selectFrom('dh_videos')
        .select(['owner_id', 'name', 'folder_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await addWork(trx, {
        ownerId: Number(row.owner_id),
        source: 'dh_video',
        sourceId: id,
        ref: { kind: VIDEO_REF, id },
        name: row.name,
        storageKey: made.storageKey,
        posterKey: made.posterKey,
        size: made.size,
        durationMs: Math.round(made.duration * 1000),
        width: made.width,
        height: made.height,
        groupId: Number(row.folder_id),
        now: ctx.now(),
      });
    }
    return done;
  });
  if (!finished) {
    // Another run finished it first, or it failed meanwhile: these files are not used.
    await ctx.storage.delete(made.storageKey);
    await ctx.storage.delete(made.posterKey);
  }
}

/** The provider's run: work dir, abort, progress, and the vendor job id recorded / resumed. */
function providerRun(
  ctx: AppContext,
  signal: AbortSignal,
  id: number,
  workDir: string,
  vendorJobId: string | null,
  onProgress: (update: ProviderProgress) => void,
): ProviderRun {
  return {
    workDir,
    signal,
    onProgress,
    vendorJobId,
    onSubmitted: async (vendorJob) => {
      await ctx.db
        .updateTable('dh_videos')
        .set({ vendor_job_id: vendorJob, updated_at: ctx.now() })
        .where('id', '=', id)
        .where('status', '=', 'creating')
        .execute();
    },
  };
}

/** Writes a video's progress and the vendor's queue position (1 = next); throttled by the lifecycle. */
async function writeProgress(
  ctx: AppContext,
  job: RunningJob<DhJobData>,
  id: number,
  { update, from, to }: VideoProgress,
): Promise<void> {
  const fraction = Math.max(0, Math.min(1, update.progress ?? 0));
  const percent = Math.min(99, Math.floor(from + fraction * (to - from)));
  const ahead = update.queuePosition;
  const position = ahead === undefined || ahead === null || ahead <= 0 ? null : ahead + 1;
  const now = ctx.now();
  await ctx.db
    .updateTable('dh_videos')
    .set({ progress: percent, queue_position: position, updated_at: now, progress_at: now })
    .where('id', '=', id)
    .where('status', '=', 'creating')
    .execute();
  await job.progress(percent);
}

/** A stored file as a provider input (the same as a clone's: clones-repo.ts). */
export const mediaOf = mediaRefOf;
