import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FRAME_SIZE, type VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { AppContext } from '../../context';
import { failureDetail, type NamedSource } from '../../platform/jobs/failure-detail';
import type { RunningJob } from '../../platform/jobs/queue';
import { probeVideo, renderVideo } from '../../platform/render/render';
import type { RenderInput, RenderSpec } from '../../platform/render/spec';
import type { PutOptions } from '../../platform/storage/storage';
import { failOutput, refreshTask, settleOutput } from './billing';
import { loadResources, piecesOf, VIDEO_TYPES, type TaskResource } from './check-body';
import type { Combination } from './plan';
import type { VideoOutputJob } from './queue';
import type { ResourceType } from '../../../src/api/contract/resources';

/** Progress is written at most this often (ms). */
const PROGRESS_EVERY_MS = 1_000;
/** Signed input URLs (S3) outlive the longest render. */
const INPUT_URL_SECONDS = 6 * 3600;

/** A failure that running again cannot fix (an input ffmpeg cannot read): `detail` is readable. */
class InputUnreadable extends Error {
  constructor(
    readonly detail: string,
    readonly cause: unknown,
  ) {
    super(detail);
  }
}

/**
 * The `video-output` job: renders one output of a task.
 * 1. Claims it: queued → rendering (a re-run after a crash renders a rendering output again; a
 *    done, failed or cancelled one is skipped).
 * 2. Builds its RenderSpec from the task's params and the output's combination; every input is a
 *    path (local disk) or a presigned URL (S3). A video input's length and sound come from its
 *    resource row (`duration_ms`, `has_audio`, recorded at upload): no ffprobe per output. A row
 *    that does not know them yet (made before migration 0008) has its file probed once here and
 *    `has_audio` written back; a file that ffprobe cannot read then fails the output at once.
 * 3. Renders to a temp file (progress written at most every second; the poster from the same
 *    ffmpeg run), stores both under the owner and task, then marks the output done and settles
 *    its price in one transaction (server/modules/video-tasks/billing.ts). When ffmpeg fails, the
 *    video inputs not probed in this run are probed then (the failure path only): one that
 *    ffprobe cannot read fails the output at once (reason + detail) and refunds it, as running
 *    again cannot fix it. Another error is thrown (the job runs again) until the last attempt,
 *    which fails and refunds the output.
 * A failed output's detail names its inputs by their resource names, never by the server's paths
 * or signed URLs (failure-detail.ts); the whole error goes to the server's log.
 */
export async function renderOutput(
  ctx: AppContext,
  job: RunningJob<VideoOutputJob>,
): Promise<void> {
  const outputId = Number(job.data.outputId);
  const row = await ctx.db
    .selectFrom('video_outputs as o')
    .innerJoin('video_tasks as t', 't.id', 'o.task_id')
    .select(['o.status', 'o.combination', 'o.idx', 't.id as task_id', 't.owner_id', 't.params'])
    .select(['t.name', 't.deleted_at'])
    .where('o.id', '=', outputId)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) return;
  if (row.status !== 'queued' && row.status !== 'rendering') return;
  const now = ctx.now();
  const claimed = await ctx.db
    .updateTable('video_outputs')
    .set((eb) => ({
      status: 'rendering',
      attempts: eb('attempts', '+', 1),
      progress: 0,
      started_at: now,
      updated_at: now,
    }))
    .where('id', '=', outputId)
    .where('status', 'in', ['queued', 'rendering'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;
  const taskId = Number(row.task_id);
  const ownerId = Number(row.owner_id);
  await refreshTask(ctx.db, taskId, now);

  const params = JSON.parse(row.params) as VideoTaskParams;
  const combination = JSON.parse(row.combination) as Combination;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-output-'));
  try {
    let spec: RenderSpec;
    let unprobed: NamedSource[];
    let sources: NamedSource[];
    const fail = async (reasonId: string, detail: string, cause: unknown) => {
      ctx.log.warn({ err: cause, outputId, taskId }, `video output failed: ${reasonId}`);
      await failOutput(ctx, outputId, { reasonId, reasonDetail: detail });
    };
    try {
      ({ spec, unprobed, sources } = await specOf(ctx, ownerId, params, combination, job.signal));
    } catch (error) {
      if (!(error instanceof InputUnreadable)) throw error;
      await fail('videoTask.reason.inputUnreadable', error.detail, error.cause);
      return;
    }
    const video = path.join(work, 'output.mp4');
    const poster = path.join(work, 'poster.jpg');
    let lastWrite = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const onProgress = (fraction: number) => {
      const at = Date.now();
      if (at - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = at;
      const percent = Math.min(99, Math.floor(fraction * 100));
      writing = writing
        .then(() => writeProgress(ctx, outputId, taskId, percent, job))
        .catch(() => {});
    };
    let result;
    try {
      result = await renderVideo(spec, video, {
        signal: job.signal,
        onProgress,
        tmpDir: work,
        posterPath: poster,
      });
    } catch (error) {
      await writing;
      if (job.signal.aborted) throw error;
      const unreadable = await firstUnreadable(ctx, unprobed, job.signal);
      if (unreadable) {
        await fail('videoTask.reason.inputUnreadable', unreadable.detail, unreadable.cause);
        return;
      }
      if (job.attempt < job.maxAttempts) throw error;
      await fail('videoTask.reason.renderFailed', readable(ctx, error, sources), error);
      return;
    }
    await writing;
    const stem = `videos/u${ownerId}/t${taskId}/o${outputId}-${randomBytes(6).toString('hex')}`;
    const fileName = `${row.name}-${row.idx}`;
    const storageKey = await store(ctx, `${stem}.mp4`, video, {
      contentType: 'video/mp4',
      filename: `${fileName}.mp4`,
    });
    const posterKey = await store(ctx, `${stem}.jpg`, poster, {
      contentType: 'image/jpeg',
      filename: `${fileName}.jpg`,
    });
    const settled = await settleOutput(ctx, outputId, {
      storageKey,
      posterKey,
      durationMs: Math.round(result.duration * 1000),
      size: result.size,
      width: result.width,
      height: result.height,
    });
    if (!settled) {
      // Another run finished it first, or it was refunded meanwhile: this file is not used.
      await ctx.storage.delete(storageKey);
      await ctx.storage.delete(posterKey);
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function writeProgress(
  ctx: AppContext,
  outputId: number,
  taskId: number,
  percent: number,
  job: RunningJob<VideoOutputJob>,
): Promise<void> {
  const now = ctx.now();
  // One commit for both rows (the output's percent, the task's stall clock).
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('video_outputs')
      .set({ progress: percent, updated_at: now })
      .where('id', '=', outputId)
      .where('status', '=', 'rendering')
      .execute();
    await trx
      .updateTable('video_tasks')
      .set({ progress_at: now })
      .where('id', '=', taskId)
      .execute();
  });
  await job.progress(percent);
}

/** Stores a finished local file under `key` (a move on local disk, an upload to S3). */
async function store(ctx: AppContext, key: string, file: string, options: PutOptions) {
  if (ctx.storage.localFiles) await ctx.storage.localFiles.adopt(key, file, options);
  else await ctx.storage.put(key, createReadStream(file), options);
  return key;
}

/** Where ffmpeg reads a resource's file: its path on local disk, else a presigned GET. */
async function sourceOf(ctx: AppContext, resource: TaskResource): Promise<string> {
  if (ctx.storage.localFiles) return ctx.storage.localFiles.path(resource.storage_key);
  return (await ctx.storage.signedReadUrl(resource.storage_key, INPUT_URL_SECONDS)).url;
}

/** A failure as its detail shows it: the inputs by their names, no server path. */
const readable = (ctx: AppContext, error: unknown, sources: readonly NamedSource[]) =>
  failureDetail(error, { sources, roots: [ctx.config.dataDir] });

/**
 * Why the first of `videos` (inputs not probed while building the spec: their facts came from
 * their rows) that ffprobe cannot read is unreadable, or null when every one reads. Called when a
 * render failed, to tell a broken input from a passing fault.
 */
async function firstUnreadable(
  ctx: AppContext,
  videos: readonly NamedSource[],
  signal: AbortSignal,
): Promise<InputUnreadable | null> {
  for (const video of videos) {
    try {
      await probeVideo(video.source, { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      return new InputUnreadable(readable(ctx, error, [video]), error);
    }
  }
  return null;
}

/**
 * The RenderSpec of one output, its video inputs that were not probed, and every input's source
 * with its resource's name. A video resource whose row lacks `has_audio` or `duration_ms` is
 * probed (once per output; `has_audio` written back, so the next output reads it from the row);
 * throws InputUnreadable when that probe fails.
 */
async function specOf(
  ctx: AppContext,
  ownerId: number,
  params: VideoTaskParams,
  combination: Combination,
  signal: AbortSignal,
): Promise<{ spec: RenderSpec; unprobed: NamedSource[]; sources: NamedSource[] }> {
  const ids = [
    ...combination.shots,
    ...(params.kind === 'mixed' ? [params.intro_id, params.outro_id] : []),
    combination.music,
    ...(params.stickers ?? []).map((s) => s.resource_id),
    params.subtitles?.font,
  ].filter((id): id is number => typeof id === 'number');
  // Deleted resources still count: their files stay while the task refers to them.
  const resources = await loadResources(ctx.db, ownerId, ids, true);
  const inputs = new Map<number, RenderInput>();
  const unprobed: NamedSource[] = [];
  const sources: NamedSource[] = [];
  const inputOf = async (id: number): Promise<RenderInput> => {
    const known = inputs.get(id);
    if (known) return known;
    const resource = resources.get(id);
    if (!resource) {
      const gone = `material ${id} is gone`;
      throw new InputUnreadable(gone, new Error(gone));
    }
    const source = await sourceOf(ctx, resource);
    sources.push({ source, name: resource.name });
    const seconds = resource.duration_ms === null ? null : Number(resource.duration_ms) / 1000;
    let input: RenderInput;
    if (VIDEO_TYPES.includes(resource.type as ResourceType)) {
      if (resource.has_audio !== null && seconds !== null) {
        input = { source, duration: seconds, hasAudio: Number(resource.has_audio) === 1 };
        unprobed.push({ name: resource.name, source });
      } else {
        let facts;
        try {
          facts = await probeVideo(source, { signal });
        } catch (error) {
          if (signal.aborted) throw error;
          throw new InputUnreadable(readable(ctx, error, [{ source, name: resource.name }]), error);
        }
        input = { source, duration: seconds ?? facts.duration, hasAudio: facts.hasAudio };
        if (resource.has_audio === null) await recordAudio(ctx, id, facts.hasAudio);
      }
    } else {
      input = { source, duration: seconds, hasAudio: resource.content_type.startsWith('audio/') };
    }
    inputs.set(id, input);
    return input;
  };
  const lengthOf = (id: number) => Number(resources.get(id)?.duration_ms ?? 0) / 1000;
  const pieces = piecesOf(params, combination, lengthOf);
  const segments = [];
  for (const piece of pieces) {
    segments.push({
      input: await inputOf(piece.resourceId),
      start: piece.start,
      length: piece.length,
    });
  }
  const music = combination.music !== null ? await inputOf(combination.music) : null;
  const stickers = [];
  for (const sticker of params.stickers ?? []) {
    stickers.push({
      input: await inputOf(sticker.resource_id),
      x: sticker.x,
      y: sticker.y,
      width: sticker.width,
    });
  }
  const font = params.subtitles?.font;
  const fontFile = font !== undefined ? (await inputOf(font)).source : null;
  const { width, height } = FRAME_SIZE[params.ratio][params.resolution];
  const spec: RenderSpec = {
    width,
    height,
    fps: params.fps,
    bitrateKbps: params.bitrate,
    fit: params.fit ?? 'crop',
    segments,
    keepOriginalSound: params.keep_original_sound,
    music: music ? { ...music, hasAudio: true } : null,
    musicVolume: params.music_volume,
    titles: params.titles ?? [],
    subtitles: params.subtitles
      ? {
          text: params.subtitles.text,
          fontFile,
          size: params.subtitles.size ?? 36,
          color: params.subtitles.color ?? '#FFFFFF',
        }
      : null,
    stickers,
    preset: ctx.config.videoRenderPreset,
  };
  return { spec, unprobed, sources };
}

/** Writes back what a probe found of an older resource's file (its facts never change). */
async function recordAudio(ctx: AppContext, resourceId: number, hasAudio: boolean): Promise<void> {
  await ctx.db
    .updateTable('resources')
    .set({ has_audio: Number(hasAudio) })
    .where('id', '=', resourceId)
    .where('has_audio', 'is', null)
    .execute();
}
