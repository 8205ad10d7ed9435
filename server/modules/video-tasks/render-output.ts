import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FRAME_SIZE, type VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { AppContext } from '../../context';
import { failureDetail, type NamedSource } from '../../platform/jobs/failure-detail';
import {
  PermanentWorkFailure,
  runOutsideWork,
  type Workspace,
} from '../../platform/jobs/outside-work';
import type { RunningJob } from '../../platform/jobs/queue';
import { fileCrc32 } from '../../platform/lib/zip-stream';
import { probeVideo, renderVideo } from '../../platform/render/render';
import type { RenderInput, RenderSpec } from '../../platform/render/spec';
import type { PutOptions } from '../../platform/storage/storage';
import { failOutput, refreshTask, settleOutput } from './billing';
import { loadResources, piecesOf, VIDEO_TYPES, type TaskResource } from './check-body';
import type { Combination } from './plan';
import { taskSpeech } from './narration';
import type { VideoOutputJob } from './queue';
import type { ResourceType } from '../../../src/api/contract/resources';

/** Signed input URLs (S3) outlive the longest render. */
const INPUT_URL_SECONDS = 6 * 3600;

/** A failure that running again cannot fix (an input ffmpeg cannot read): `detail` is readable. */
export class InputUnreadable extends PermanentWorkFailure {
  constructor(detail: string, cause: unknown) {
    super({ reasonId: 'videoTask.reason.inputUnreadable', reasonParams: {}, detail }, { cause });
  }
}

/** A render that failed (ffmpeg): retried; `detail` names the inputs, not the server's paths. */
class RenderFailed extends Error {
  constructor(
    readonly detail: string,
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

interface Claimed {
  outputId: number;
  taskId: number;
  ownerId: number;
  name: string;
  idx: number;
  params: VideoTaskParams;
  combination: Combination;
}

interface Rendered {
  storageKey: string;
  posterKey: string;
  durationMs: number;
  size: number;
  crc32: number;
  width: number;
  height: number;
}

/**
 * The `video-output` job: renders one output of a task, as a unit of outside work
 * (server/platform/jobs/outside-work.ts runs the lifecycle).
 * 1. Claim: queued → rendering (a re-run after a crash renders a rendering output again; a
 *    done, failed or cancelled one is skipped).
 * 2. Perform: the task's narration speech first (made by the first output that needs it, then
 *    reused: narration.ts); builds its RenderSpec from the task's params and the output's combination; every
 *    input is a path (local disk) or a presigned URL (S3). A video input's length and sound come
 *    from its resource row (`duration_ms`, `has_audio`, recorded at upload): no ffprobe per
 *    output. A row that does not know them yet (made before migration 0008) has its file probed
 *    once here and `has_audio` written back; a file that ffprobe cannot read then fails the output
 *    at once. Renders into the work dir (progress written at most every second; the poster from
 *    the same ffmpeg run), takes the video's CRC-32 (migration 0036: "download all" needs no
 *    checksum pass) and stores both files under the owner and task. When ffmpeg fails, the
 *    video inputs not probed in this run are probed then (the failure path only): one that
 *    ffprobe cannot read fails the output at once (reason + detail) and refunds it, as running
 *    again cannot fix it. Another error is retried until the last attempt, which fails and
 *    refunds the output.
 * 3. Store: marks the output done and settles its price in one transaction
 *    (server/modules/video-tasks/billing.ts); a run that lost the race removes its files.
 * A failed output's detail names its inputs by their resource names, never by the server's paths
 * or signed URLs (failure-detail.ts); the whole error goes to the server's log.
 */
export async function renderOutput(
  ctx: AppContext,
  job: RunningJob<VideoOutputJob>,
): Promise<void> {
  const outputId = Number(job.data.outputId);
  await runOutsideWork<Claimed, Rendered, number>(ctx.config, job, {
    kind: 'video-output',
    key: outputId,
    claim: () => claimOutput(ctx, outputId),
    perform: (unit, work) => render(ctx, unit, work),
    progress: (unit, fraction) =>
      writeProgress(ctx, unit, Math.min(99, Math.floor(fraction * 100)), job),
    store: async (unit, file) => {
      const settled = await settleOutput(ctx, unit.outputId, file);
      if (!settled) {
        // Another run finished it first, or it was refunded meanwhile: this file is not used.
        await ctx.storage.delete(file.storageKey);
        await ctx.storage.delete(file.posterKey);
      }
    },
    exhausted: (error) => ({
      reasonId: 'videoTask.reason.renderFailed',
      detail: error instanceof RenderFailed ? error.detail : readable(ctx, error, []),
    }),
    fail: async (unit, reason, error) => {
      const cause =
        error instanceof RenderFailed || error instanceof InputUnreadable ? error.cause : error;
      ctx.log.warn(
        { err: cause, outputId: unit.outputId, taskId: unit.taskId },
        `video output failed: ${reason.reasonId}`,
      );
      await failOutput(ctx, unit.outputId, {
        reasonId: reason.reasonId,
        reasonDetail: reason.detail ?? '',
      });
    },
  });
}

/** queued → rendering (a rendering one again after a crash); null when there is nothing to do. */
async function claimOutput(
  ctx: AppContext,
  outputId: number,
): Promise<{ unit: Claimed; resumed: boolean } | null> {
  const row = await ctx.db
    .selectFrom('video_outputs as o')
    .innerJoin('video_tasks as t', 't.id', 'o.task_id')
    .select(['o.status', 'o.combination', 'o.idx', 't.id as task_id', 't.owner_id', 't.params'])
    .select(['t.name', 't.deleted_at'])
    .where('o.id', '=', outputId)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) return null;
  if (row.status !== 'queued' && row.status !== 'rendering') return null;
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
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const taskId = Number(row.task_id);
  await refreshTask(ctx.db, taskId, now);
  return {
    resumed: row.status === 'rendering',
    unit: {
      outputId,
      taskId,
      ownerId: Number(row.owner_id),
      name: row.name,
      idx: Number(row.idx),
      params: JSON.parse(row.params) as VideoTaskParams,
      combination: JSON.parse(row.combination) as Combination,
    },
  };
}

/** Renders the output into the work dir and stores the video and its poster. */
async function render(ctx: AppContext, unit: Claimed, work: Workspace<number>): Promise<Rendered> {
  // The task's speech, made once per task (narration.ts).
  const speech = unit.params.narration
    ? await taskSpeech(ctx, unit.taskId, unit.ownerId, unit.params.narration, work.dir, work.signal)
    : null;
  const { spec, unprobed, sources } = await specOf(
    ctx,
    unit.ownerId,
    unit.params,
    unit.combination,
    work.signal,
  );
  if (speech) {
    const local = await ctx.storage.localPath(speech.key);
    const source =
      local ??
      (await ctx.storage.signedReadUrl(speech.key, INPUT_URL_SECONDS, { direct: true })).url;
    spec.narration = { source, duration: null, hasAudio: true };
    // Subtitles without lines of their own show the script's sentences timed to the speech.
    if (spec.subtitles && !spec.subtitles.lines) spec.subtitles.lines = speech.lines;
  }
  const video = path.join(work.dir, 'output.mp4');
  const poster = path.join(work.dir, 'poster.jpg');
  let result;
  try {
    result = await renderVideo(spec, video, {
      signal: work.signal,
      onProgress: work.report,
      tmpDir: work.dir,
      posterPath: poster,
    });
  } catch (error) {
    if (work.signal.aborted) throw error;
    const unreadable = await firstUnreadable(ctx, unprobed, work.signal);
    if (unreadable) throw unreadable;
    throw new RenderFailed(readable(ctx, error, sources), error);
  }
  await work.flush();
  // Its CRC-32 once, here ("download all" writes it in the ZIP's header: download-all.ts).
  const crc32 = await fileCrc32(video);
  const stem = `videos/u${unit.ownerId}/t${unit.taskId}/o${unit.outputId}-${randomBytes(6).toString('hex')}`;
  const fileName = `${unit.name}-${unit.idx}`;
  const storageKey = await store(ctx, `${stem}.mp4`, video, {
    contentType: 'video/mp4',
    filename: `${fileName}.mp4`,
  });
  const posterKey = await store(ctx, `${stem}.jpg`, poster, {
    contentType: 'image/jpeg',
    filename: `${fileName}.jpg`,
  });
  return {
    storageKey,
    posterKey,
    durationMs: Math.round(result.duration * 1000),
    size: result.size,
    crc32,
    width: result.width,
    height: result.height,
  };
}

async function writeProgress(
  ctx: AppContext,
  { outputId, taskId }: Claimed,
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
  await ctx.storage.storeFile(key, file, options);
  return key;
}

/** Where ffmpeg reads a resource's file: its path on local disk, else a presigned GET. */
async function sourceOf(ctx: AppContext, resource: TaskResource): Promise<string> {
  const local = await ctx.storage.localPath(resource.storage_key);
  if (local) return local;
  return (
    await ctx.storage.signedReadUrl(resource.storage_key, INPUT_URL_SECONDS, { direct: true })
  ).url;
}

/** A failure as its detail shows it: the inputs by their names, no server path. */
export const readable = (ctx: AppContext, error: unknown, sources: readonly NamedSource[]) =>
  failureDetail(error, { sources, roots: [ctx.config.dataDir] });

/**
 * Why the first of `videos` (inputs not probed while building the spec: their facts came from
 * their rows) that ffprobe cannot read is unreadable, or null when every one reads. Called when a
 * render failed, to tell a broken input from a passing fault.
 */
export async function firstUnreadable(
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
 * throws InputUnreadable when that probe fails. A preview builds its spec here too (./preview.ts).
 */
export async function specOf(
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
          lines: params.subtitles.lines?.length ? params.subtitles.lines : null,
          fontFile,
          size: params.subtitles.size ?? 36,
          color: params.subtitles.color ?? '#FFFFFF',
          position: params.subtitles.position ?? 'bottom',
          ...(params.subtitles.outline !== undefined ? { outline: params.subtitles.outline } : {}),
        }
      : null,
    stickers,
    transition: params.transition ?? 'cut',
    watermark: params.watermark ?? null,
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
