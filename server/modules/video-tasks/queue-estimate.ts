import type { AppContext } from '../../context';

/** Render time assumed before any output has been rendered (ms). */
const FIRST_GUESS_MS = 30_000;
/** The last finished renders the average is taken over. */
const RECENT = 20;

export interface QueueSpot {
  /** 1 = the next output to start, counting every owner's queued outputs. */
  position: number;
  /** Epoch ms when it should start, at the recent average render time. */
  estimatedStart: number;
}

/**
 * Queue positions and estimated starts of the queued outputs among `ids` (docs/domain.md §9
 * "Queue position"), the digital-human videos' way (videos-repo.ts `queuePositions`): every
 * queued output of a live task counts, oldest (lowest id) first. The estimate: the outputs ahead
 * and those rendering now share the render slots (VIDEO_RENDER_CONCURRENCY × WORKER_PROCESSES,
 * or as many as are rendering), each taking the average time of the last renders.
 */
export async function queueSpots(
  ctx: AppContext,
  ids: readonly number[],
): Promise<Map<number, QueueSpot>> {
  const spots = new Map<number, QueueSpot>();
  if (ids.length === 0) return spots;
  const last = Math.max(...ids);
  const [queued, rendering, recent] = await Promise.all([
    ctx.db
      .selectFrom('video_outputs as o')
      .innerJoin('video_tasks as t', 't.id', 'o.task_id')
      .select('o.id')
      .where('o.status', '=', 'queued')
      .where('t.deleted_at', 'is', null)
      .where('o.id', '<=', last)
      .orderBy('o.id')
      .execute(),
    ctx.db
      .selectFrom('video_outputs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'rendering')
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('video_outputs')
      .select(['started_at', 'finished_at'])
      .where('status', '=', 'done')
      .where('started_at', 'is not', null)
      .where('finished_at', 'is not', null)
      .orderBy('finished_at', 'desc')
      .limit(RECENT)
      .execute(),
  ]);
  const busy = Number(rendering.n);
  const slots = Math.max(
    1,
    busy,
    ctx.config.videoRenderConcurrency * Math.max(1, ctx.config.workerProcesses),
  );
  const times = recent.map((r) => Number(r.finished_at) - Number(r.started_at));
  const average =
    times.length === 0 ? FIRST_GUESS_MS : times.reduce((a, b) => a + b, 0) / times.length;
  const now = ctx.now();
  const wanted = new Set(ids);
  queued.forEach((row, i) => {
    const id = Number(row.id);
    if (!wanted.has(id)) return;
    // Rounds of the slots before this output gets one: the busy slots and the outputs ahead.
    const rounds = Math.floor((busy + i) / slots);
    spots.set(id, { position: i + 1, estimatedStart: Math.round(now + rounds * average) });
  });
  return spots;
}
