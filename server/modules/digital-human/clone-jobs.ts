import { randomBytes } from 'node:crypto';
import {
  DH_LIMITS,
  type ImageCloneTier,
  type VoiceGender,
} from '../../../src/api/contract/digital-human';
import type { AppContext } from '../../context';
import { ChildProcessError } from '../../platform/jobs/child-process';
import { failureDetail } from '../../platform/jobs/failure-detail';
import { handleJob } from '../../platform/jobs/define-job';
import { runOutsideWork, type Workspace } from '../../platform/jobs/outside-work';
import type { RunningJob } from '../../platform/jobs/queue';
import {
  ProviderError,
  type ProviderProgress,
  type ProviderRun,
} from '../../integrations/digital-human/types';
import { runMoney } from '../ledger';
import { finishHeld } from './billing';
import { contentTypeOf, extOf, mediaRefOf, sourceKey, storeFile } from './clones-repo';
import { DH_JOB, type DhJobData } from './job-kinds';
import { countSceneChanges } from './scene-changes';

/**
 * The jobs of image clones (`dh-image-clone`) and voice clones (`dh-voice-clone`), data `{id}`:
 * Each is a unit of outside work (server/platform/jobs/outside-work.ts runs the lifecycle):
 * 1. Claims the row: queued → training (a re-run after a crash, a retry or a vendor callback takes
 *    a training row again; a ready, failed or deleted one is skipped).
 * 2. Does the work through the provider (`ctx.integrations.digitalHuman`): the vendor job id an earlier run
 *    recorded is resumed, never submitted again; a new one is recorded as soon as the vendor
 *    accepts it (`onSubmitted`); progress and queue position are written to the row (at most once
 *    a second).
 * 3. Stores the files made and, in one transaction, marks the row ready and settles its unit
 *    (billing.ts `finishHeld`: conditional, exactly once). A run that lost the race removes the
 *    files it made.
 * A failure that running again cannot fix (the "one take" check, an unreadable source, a
 * permanent ProviderError) fails the row at once and refunds its unit; another error is thrown
 * (the runner retries it) until the last attempt, which fails and refunds the row.
 */

type CloneTable = 'dh_image_clones' | 'dh_voice_clones';

const DETAIL_CHARS = 1_500;

/** A failure of the work itself (the input): not retried. */
export class CloneFailure extends Error {
  constructor(
    readonly reasonId: string,
    readonly reasonParams: Record<string, string | number> = {},
    detail = '',
  ) {
    super(detail || reasonId);
    this.name = 'CloneFailure';
  }
}

const tail = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(-DETAIL_CHARS);

interface ClaimedRow {
  id: number;
  owner_id: number;
  name: string;
  cost: number;
  vendor_job_id: string | null;
}

interface Done {
  /** Columns of the ready row (files, profile…). */
  set: Record<string, unknown>;
  /** The files stored (removed again when another run finished the row first). */
  keys: string[];
}

/** Enqueues a clone's job unless it has one (a replayed add enqueues nothing); logs a failure. */
export async function enqueueClone(ctx: AppContext, table: CloneTable, id: number): Promise<void> {
  try {
    const fresh = await ctx.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('job_id', 'is', null)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (!fresh) return;
    const jobId = await ctx.jobs.enqueue(DH_JOB[table], { id });
    await ctx.db
      .updateTable(table)
      .set({ job_id: jobId })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'training'])
      .execute();
  } catch (error) {
    ctx.log.warn({ err: error, table, id }, 'clone not enqueued');
  }
}

/** Fails a queued or training row with a reason and gives its unit back (once). */
export function failClone(
  ctx: AppContext,
  table: CloneTable,
  id: number,
  reason: { id: string; params?: Record<string, string | number>; detail?: string },
): Promise<boolean> {
  if (reason.detail)
    ctx.log.warn({ table, id, reason: reason.id, detail: reason.detail }, 'clone failed');
  return runMoney(ctx, (trx) =>
    finishHeld(ctx, trx, {
      table,
      id,
      from: ['queued', 'training'],
      set: {
        status: 'failed',
        queue_position: null,
        reason_id: reason.id,
        reason_params: reason.params ? JSON.stringify(reason.params) : null,
        // Readable (no server path, no raw dump); the whole text is logged above.
        reason_detail: reason.detail
          ? failureDetail(reason.detail, { roots: [ctx.config.dataDir] })
          : null,
      },
      bill: 'refund',
    }),
  );
}

/** One clone as a unit of outside work (server/platform/jobs/outside-work.ts runs the lifecycle). */
async function runClone(
  ctx: AppContext,
  job: RunningJob<DhJobData>,
  table: CloneTable,
  perform: (row: ClaimedRow, run: ProviderRun) => Promise<Done>,
): Promise<void> {
  const id = Number(job.data.id);
  await runOutsideWork<ClaimedRow, Done, ProviderProgress>(ctx.config, job, {
    kind: table === 'dh_image_clones' ? 'dh-image-clone' : 'dh-voice-clone',
    key: id,
    claim: () => claimClone(ctx, table, id),
    perform: (row, work) => perform(row, providerRun(ctx, table, row, work)),
    progress: (_, update) => writeProgress(ctx, job, table, id, update),
    store: async (row, done) => {
      const finished = await runMoney(ctx, (trx) =>
        finishHeld(ctx, trx, {
          table,
          id,
          from: ['training'],
          set: {
            ...done.set,
            status: 'ready',
            progress: 100,
            queue_position: null,
            reason_id: null,
            reason_params: null,
            reason_detail: null,
          },
          bill: { settle: row.cost },
        }),
      );
      if (!finished) for (const key of done.keys) await ctx.storage.delete(key);
    },
    classify: (error) => {
      if (error instanceof CloneFailure) {
        const detail = error.message === error.reasonId ? undefined : error.message;
        return {
          permanent: { reasonId: error.reasonId, reasonParams: error.reasonParams, detail },
        };
      }
      if (error instanceof ProviderError && error.permanent) {
        const { reasonId, reasonParams } = error;
        return { permanent: { reasonId, reasonParams, detail: tail(error) } };
      }
      return 'transient';
    },
    exhausted: (error) => ({ reasonId: 'digitalHuman.reason.providerFailed', detail: tail(error) }),
    fail: async (_, reason) => {
      await failClone(ctx, table, id, {
        id: reason.reasonId,
        params: reason.reasonParams,
        detail: reason.detail,
      });
    },
  });
}

/** queued → training (a training one again); null when there is nothing to do. */
async function claimClone(
  ctx: AppContext,
  table: CloneTable,
  id: number,
): Promise<{ unit: ClaimedRow; resumed: boolean } | null> {
  const row = await ctx.db
    .selectFrom(table)
    .select(['id', 'owner_id', 'name', 'cost', 'status', 'billing', 'deleted_at', 'vendor_job_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null || row.owner_id === null || row.billing !== 'held')
    return null;
  if (row.status !== 'queued' && row.status !== 'training') return null;
  const now = ctx.now();
  const claimed = await ctx.db
    .updateTable(table)
    .set((eb) => ({
      status: 'training',
      attempts: eb('attempts', '+', 1),
      started_at: eb.fn.coalesce('started_at', eb.val(now)),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'training'])
    .where('billing', '=', 'held')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return {
    resumed: row.status === 'training',
    unit: {
      id,
      owner_id: Number(row.owner_id),
      name: row.name,
      cost: Number(row.cost),
      vendor_job_id: row.vendor_job_id,
    },
  };
}

/** The provider's run: the work dir, abort, progress, the vendor job id recorded / resumed. */
function providerRun(
  ctx: AppContext,
  table: CloneTable,
  row: ClaimedRow,
  work: Workspace<ProviderProgress>,
): ProviderRun {
  return {
    workDir: work.dir,
    signal: work.signal,
    vendorJobId: row.vendor_job_id,
    onSubmitted: async (vendorJobId) => {
      await ctx.db
        .updateTable(table)
        .set({ vendor_job_id: vendorJobId, updated_at: ctx.now() })
        .where('id', '=', row.id)
        .where('status', '=', 'training')
        .execute();
    },
    onProgress: work.report,
  };
}

/** Writes a clone's progress and queue position (throttled by the lifecycle). */
async function writeProgress(
  ctx: AppContext,
  job: RunningJob<DhJobData>,
  table: CloneTable,
  id: number,
  update: ProviderProgress,
): Promise<void> {
  const set: { progress?: number; queue_position?: number | null; updated_at: number } = {
    updated_at: ctx.now(),
  };
  if (update.progress !== undefined) {
    set.progress = Math.max(0, Math.min(99, Math.floor(update.progress * 100)));
  }
  if (update.queuePosition !== undefined) set.queue_position = update.queuePosition;
  await ctx.db
    .updateTable(table)
    .set(set)
    .where('id', '=', id)
    .where('status', '=', 'training')
    .execute();
  if (set.progress !== undefined) await job.progress(set.progress);
}

const fileKey = (ownerId: number, area: string, id: number, ext: string) =>
  `dh/u${ownerId}/${area}/${id}-${randomBytes(8).toString('hex')}${ext}`;

/** The image clone's work: the one-take check, then the provider's clone (poster and loop). */
async function imageClone(ctx: AppContext, row: ClaimedRow, run: ProviderRun): Promise<Done> {
  const clone = await ctx.db
    .selectFrom('dh_image_clones')
    .select(['video_id', 'tier'])
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  const key = await sourceKey(ctx.db, Number(clone.video_id));
  if (!key) throw new CloneFailure('digitalHuman.reason.sourceMissing');
  const video = await mediaRefOf(ctx, key);
  // Checked before the work is submitted (a resumed vendor job passed it already).
  if (!row.vendor_job_id) {
    let changes: number;
    try {
      changes = await countSceneChanges(video.path ?? video.url!, run.signal);
    } catch (error) {
      if (run.signal?.aborted || !(error instanceof ChildProcessError)) throw error;
      throw new CloneFailure('digitalHuman.reason.sourceUnreadable', {}, tail(error));
    }
    if (changes > DH_LIMITS.sceneChanges.max) {
      throw new CloneFailure('digitalHuman.reason.notOneTake', { count: changes });
    }
  }
  const result = await ctx.integrations.digitalHuman.cloneImage(
    { video, tier: clone.tier as ImageCloneTier },
    run,
  );
  const posterKey = await storeFile(
    ctx,
    fileKey(row.owner_id, 'avatars', row.id, extOf(result.posterPath) || '.jpg'),
    result.posterPath,
    { contentType: contentTypeOf(result.posterPath), filename: `${row.name}.jpg` },
  );
  const loopKey = await storeFile(
    ctx,
    fileKey(row.owner_id, 'avatars', row.id, extOf(result.loopPath) || '.mp4'),
    result.loopPath,
    { contentType: contentTypeOf(result.loopPath), filename: `${row.name}.mp4` },
  );
  return {
    set: {
      poster_key: posterKey,
      loop_key: loopKey,
      width: result.width,
      height: result.height,
      vendor_ref: result.vendorRef === null ? null : JSON.stringify(result.vendorRef),
    },
    keys: [posterKey, loopKey],
  };
}

/** The demo sentence every new voice clone speaks (its `demo_url`). */
export const VOICE_DEMO_TEXT = '您好，这是我的声音克隆试听。欢迎使用数字人。';

/** The voice clone's work: the provider's profile, then a demo sentence in that voice. */
async function voiceClone(ctx: AppContext, row: ClaimedRow, run: ProviderRun): Promise<Done> {
  const clone = await ctx.db
    .selectFrom('dh_voice_clones')
    .select(['audio_id', 'gender'])
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  const key = clone.audio_id === null ? null : await sourceKey(ctx.db, Number(clone.audio_id));
  if (!key) throw new CloneFailure('digitalHuman.reason.sourceMissing');
  const audio = await mediaRefOf(ctx, key);
  const result = await ctx.integrations.digitalHuman.cloneVoice(
    { audio, gender: clone.gender as VoiceGender },
    run,
  );
  const speech = await ctx.integrations.digitalHuman.synthesize(
    { text: VOICE_DEMO_TEXT, language: 'zh', voice: result.profile, speed: 1, volume: 1 },
    { workDir: run.workDir, signal: run.signal },
  );
  const ext = extOf(speech.audioPath) || '.wav';
  const demoKey = await storeFile(
    ctx,
    fileKey(row.owner_id, 'voices', row.id, ext),
    speech.audioPath,
    { contentType: contentTypeOf(speech.audioPath), filename: `${row.name}${ext}` },
  );
  return { set: { profile: JSON.stringify(result.profile), demo_key: demoKey }, keys: [demoKey] };
}

/** Trains one image clone. */
export const imageCloneJob = handleJob(DH_JOB.dh_image_clones, (ctx: AppContext, job) =>
  runClone(ctx, job, 'dh_image_clones', (row, run) => imageClone(ctx, row, run)),
);

/** Trains one voice clone. */
export const voiceCloneJob = handleJob(DH_JOB.dh_voice_clones, (ctx: AppContext, job) =>
  runClone(ctx, job, 'dh_voice_clones', (row, run) => voiceClone(ctx, row, run)),
);
