// npm run bench, section h: video tasks.
// (a) Throughput of OUTPUTS outputs through the API and the job queue (`POST /video_task/add`,
//     the server's in-process worker renders them) against the same ffmpeg commands run one after
//     another in a plain loop (server/render's buildRenderArgs + runNiced): target ≥ 0.90.
// (b) Time from `add` to the first output done against one output's ffmpeg time: target ≤ 1.5×.
// (c) The API's trivial endpoint (GET /platform/get_account) p95 while a task renders against its
//     idle p95: target ≤ 2×.
// (a) and (b) run queue, loop, loop, queue (ABBA), so that a drift of the shared machine's load
// cancels out of the ratios. Its own database (SQLite, or PostgreSQL with BENCH_DATABASE_URL: a
// private schema) and files,
// the real server in a child process (scripts/bench/video-server.ts), real HTTP, real renders of
// generated clips. Never fails on slow numbers; says what it could not measure.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  FINISHED_TASK_STATUSES,
  FRAME_SIZE,
  type MixedTaskBody,
  type VideoTaskDetail,
} from '../../src/api/contract/video-tasks';
import { runNiced } from '../../server/platform/jobs/child-process';
import { buildRenderArgs } from '../../server/platform/render/graph';
import { prepareRenderFiles } from '../../server/platform/render/render';
import type { RenderSpec } from '../../server/platform/render/spec';
import {
  ApiClient,
  busyVsIdle,
  closedLoop,
  loadAverage,
  median,
  ms,
  percentile,
  pollDetail,
  printSummary,
  requestsP50P95,
  runBench,
  sec,
  trivialRequest,
  type LoadResult,
  type SummaryRow,
} from './http-load';
import { GROUPS, prepare, type Bench, type Resource } from './video-data';
import { benchServerEnv, loginAs, startBenchServer, type BenchServer } from './bench-setup';

const OUTPUTS = Number(process.env.BENCH_VIDEO_OUTPUTS ?? 20);
/** Seconds of each shot (3 groups: outputs of 3 × this). */
const SHOT_SECONDS = Number(process.env.BENCH_VIDEO_SHOT_SECONDS ?? 1);
/** x264 preset of both the server's renders and the loop (the product's default: veryfast). */
const PRESET = (process.env.BENCH_VIDEO_PRESET ?? 'veryfast') as RenderSpec['preset'];
const CLIENTS = Number(process.env.BENCH_VIDEO_CLIENTS ?? 10);
const IDLE_REQUESTS = 2000;
/**
 * The task's detail is polled this often; the times come from the outputs' `finished_at` (the
 * server's clock, this machine's), so a slow poll does not blur them and takes no CPU from the
 * renders.
 */
const POLL_MS = 500;
const THROUGHPUT_TARGET = 0.9;
const FIRST_TARGET = 1.5;
const P95_TARGET = 2;

const TITLE = { text: '春季上新 限时优惠', size: 48, color: '#FFFFFF', position: 'top' as const };
const SUBTITLES = {
  text: '今天给大家介绍一款新品。质量好，价格实惠！喜欢的朋友点个关注。',
  size: 36,
  color: '#FFFF00',
};

function taskBody(bench: Bench, name: string): MixedTaskBody {
  return {
    kind: 'mixed',
    name,
    mode: 'sequential',
    count: OUTPUTS,
    ratio: '9:16',
    resolution: '720p',
    fps: 25,
    bitrate: 1200,
    music_ids: [bench.music.id],
    music_volume: 5,
    keep_original_sound: true,
    titles: [TITLE],
    subtitles: SUBTITLES,
    shot_groups: bench.groups.map((g) => ({
      resource_ids: g.map((r) => r.id),
      duration: SHOT_SECONDS,
    })),
  };
}

/** The spec the loop renders for one combination (one shot per group), as the task asks. */
function loopSpec(bench: Bench, shots: readonly number[]): RenderSpec {
  const byId = new Map(bench.groups.flat().map((r) => [r.id, r]));
  return {
    ...FRAME_SIZE['9:16']['720p'],
    fps: 25,
    bitrateKbps: 1200,
    segments: shots.map((id) => ({ input: byId.get(id)!.input, start: 0, length: SHOT_SECONDS })),
    keepOriginalSound: true,
    music: bench.music.input,
    musicVolume: 5,
    titles: [TITLE],
    subtitles: { ...SUBTITLES, fontFile: null },
    stickers: [],
    preset: PRESET,
  };
}

/** OUTPUTS distinct combinations in order (the loop's own when the API gave none). */
function ownCombinations(bench: Bench): number[][] {
  const out: number[][] = [];
  const [a, b, c] = bench.groups as [Resource[], Resource[], Resource[]];
  for (const x of a) for (const y of b) for (const z of c) out.push([x.id, y.id, z.id]);
  return out.slice(0, OUTPUTS);
}

/** The same ffmpeg commands (output + poster), one after another: each run's seconds. */
async function plainLoop(bench: Bench, combinations: number[][]): Promise<number[]> {
  const work = await fs.mkdtemp(path.join(bench.dataDir, 'loop-'));
  const times: number[] = [];
  try {
    for (const [i, shots] of combinations.entries()) {
      const spec = loopSpec(bench, shots);
      const dir = path.join(work, String(i));
      await fs.mkdir(dir);
      // The output and its poster, as a task's output has both (RenderOptions.posterPath).
      const paths = {
        ...(await prepareRenderFiles(spec, dir)),
        poster: path.join(dir, 'poster.jpg'),
      };
      const out = path.join(dir, 'output.mp4');
      const t0 = performance.now();
      await runNiced('ffmpeg', buildRenderArgs(spec, out, paths));
      times.push((performance.now() - t0) / 1000);
      await fs.rm(dir, { recursive: true, force: true });
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
  return times;
}

interface TaskRun {
  /** Seconds the add call took. */
  add: number;
  /** Seconds from sending add to the first output done, and to the last (`finished_at`). */
  first: number;
  wall: number;
  detail: VideoTaskDetail;
}

/**
 * One task through the API: add, then its detail polled every POLL_MS until it has finished.
 * `during` runs load meanwhile (its results are the caller's).
 */
async function throughQueue(
  client: ApiClient,
  token: string,
  bench: Bench,
  name: string,
  during?: (finished: () => boolean) => Promise<void>,
): Promise<TaskRun> {
  const sentAt = Date.now();
  const added = await client.call<{ id: number }>('POST', '/video_task/add', {
    token,
    body: taskBody(bench, name),
  });
  if (added.status !== 200 || added.json.code !== 1)
    throw new Error(`add answered ${added.status} ${added.json.msg}`);
  const addSeconds = (Date.now() - sentAt) / 1000;
  const id = added.json.data.id;
  let finished = false;
  const load = during?.(() => finished);
  const detail = await pollDetail<VideoTaskDetail>(
    client,
    token,
    '/video_task/detail',
    id,
    (d) => FINISHED_TASK_STATUSES.includes(d.status),
    POLL_MS,
  );
  finished = true;
  await load;
  const ends = detail.outputs
    .filter((o) => o.status === 'done' && o.finished_at !== null)
    .map((o) => (o.finished_at! - sentAt) / 1000);
  return { add: addSeconds, first: Math.min(...ends), wall: Math.max(...ends), detail };
}

async function main(): Promise<void> {
  console.log(`   load average before: ${loadAverage()}`);
  const bench = await prepare();
  const outSeconds = GROUPS * SHOT_SECONDS;
  console.log(
    `   data (${bench.handle.engine}): merchant's 3 groups × 3 shots (1920×1080, 1280×720, ` +
      `1080×1920 clips) and a music; outputs: 9:16 720p 25 fps 1200 kbps, ${outSeconds} s ` +
      `(3 × ${SHOT_SECONDS} s), a CJK title, subtitles, music, own sound; x264 preset ${PRESET}`,
  );
  let server: BenchServer | undefined;
  let client: ApiClient | undefined;
  const rows: SummaryRow[] = [];
  const missing: string[] = [];
  try {
    server = await startBenchServer('video-server.ts', {
      ...benchServerEnv(bench),
      VIDEO_RENDER_PRESET: PRESET,
    });
    client = new ApiClient(server.base, CLIENTS + 2);
    const token = await loginAs(client, 'merchant');
    console.log(`   server pid ${server.pid}; load average at start: ${loadAverage()}`);

    const trivial = trivialRequest(client, token);
    await closedLoop(CLIENTS, 2000, trivial); // warm-up
    const idle: LoadResult[] = [await closedLoop(CLIENTS, IDLE_REQUESTS / 2, trivial)];

    // Is the video tasks API there (an older checkout, or a branch without the module)?
    const estimate = await client.call<{ outputs: number; cost: string }>(
      'POST',
      '/video_task/estimate',
      { token, body: taskBody(bench, 'estimate') },
    );
    const apiThere = estimate.status === 200 && estimate.json.code === 1;
    if (!apiThere) {
      const why = `POST /video_task/estimate answered HTTP ${estimate.status} ${estimate.json.msg ?? ''}`;
      missing.push(
        `a (throughput through the queue), b (add → first output) and c (p95 during renders): ` +
          `the video tasks API is not available here (${why.trim()})`,
      );
    } else {
      console.log(
        `   estimate: ${estimate.json.data.outputs} outputs, cost ${estimate.json.data.cost}`,
      );
    }

    // (a, b) in the order queue, loop, loop, queue (ABBA): the machine's load drifts (other
    // work on it), and this order cancels a steady drift from the comparison.
    const queueRuns: TaskRun[] = [];
    const loopRuns: { wall: number; times: number[] }[] = [];
    let combinations = ownCombinations(bench);
    const viaQueue = async (pass: number) => {
      const run = await throughQueue(client!, token, bench, `bench throughput ${pass}`);
      queueRuns.push(run);
      const d = run.detail;
      const ends = d.outputs
        .map((o) => o.finished_at)
        .filter((t): t is number => t !== null)
        .sort((x, y) => x - y);
      const gaps = ends.slice(1).map((t, i) => (t - ends[i]!) / 1000);
      console.log(
        `   queue pass ${pass}: task ${d.status}, ${d.done}/${d.total} done, ${d.failed} failed; ` +
          `add answered in ${sec(run.add)}; first output done after ${sec(run.first)}, all after ` +
          `${sec(run.wall)}; one output ` +
          `every ${sec(median(gaps))} (median time between outputs finishing)`,
      );
      const failed = d.outputs.find((o) => o.status === 'failed');
      if (failed) console.log(`      a failure: ${failed.reason} — ${failed.reason_detail}`);
      // The loop renders the task's own combinations.
      combinations = d.outputs.map((o) =>
        [...o.combination].sort((x, y) => x.group - y.group).map((c) => c.resource_id),
      );
    };
    const viaLoop = async (pass: number) => {
      const t0 = performance.now();
      const times = await plainLoop(bench, combinations);
      const wall = (performance.now() - t0) / 1000;
      loopRuns.push({ wall, times });
      console.log(
        `   plain loop pass ${pass}: ${times.length} ffmpeg runs in ${sec(wall)}; one run: median ` +
          `${sec(median(times))}, min ${sec(Math.min(...times))}, max ${sec(Math.max(...times))}`,
      );
    };
    console.log('');
    if (apiThere) await viaQueue(1);
    await viaLoop(1);
    if (apiThere) {
      await viaLoop(2);
      await viaQueue(2);
    }
    const times = loopRuns.flatMap((r) => r.times);

    if (queueRuns.length > 0) {
      const done = queueRuns.reduce((n, r) => n + r.detail.done, 0);
      const loopRate = times.length / loopRuns.reduce((t, r) => t + r.wall, 0);
      const queueRate = done / queueRuns.reduce((t, r) => t + r.wall, 0);
      const ratio = queueRate / loopRate;
      rows.push({
        measure: `a. outputs/s: queue (${done} done) vs plain loop`,
        baseline: `${loopRate.toFixed(3)}/s`,
        measured: `${queueRate.toFixed(3)}/s`,
        ratio: `${ratio.toFixed(2)}`,
        target: `≥ ${THROUGHPUT_TARGET}`,
        met: ratio >= THROUGHPUT_TARGET && done === OUTPUTS * queueRuns.length,
      });
      // The mean of the passes (a median of two would be the lower one).
      const first = queueRuns.reduce((t, r) => t + r.first, 0) / queueRuns.length;
      const firstRatio = first / median(times);
      rows.push({
        measure: 'b. add → first output done vs one ffmpeg run',
        baseline: sec(median(times)),
        measured: sec(first),
        ratio: `${firstRatio.toFixed(2)}×`,
        target: `≤ ${FIRST_TARGET}×`,
        met: firstRatio <= FIRST_TARGET,
      });

      // (c) the trivial endpoint while another task renders (from its add to its end).
      const busy: LoadResult[] = [];
      const during = await throughQueue(client, token, bench, 'bench p95', async (finished) => {
        while (!finished()) busy.push(await closedLoop(CLIENTS, 100, trivial));
      });
      idle.push(await closedLoop(CLIENTS, IDLE_REQUESTS / 2, trivial));
      console.log(
        `   c. idle p95 before the tasks ${ms(percentile(idle[0]!.latencies, 95))}, after ` +
          `${ms(percentile(idle[1]!.latencies, 95))} (both count as idle)`,
      );
      const p95 = busyVsIdle('c. trivial endpoint p95, rendering vs idle', idle, busy, P95_TARGET);
      console.log(
        `      GET /platform/get_account, ${CLIENTS} clients: idle ${requestsP50P95(p95.idle)}; ` +
          `during another task (${during.detail.done}/${during.detail.total} done in ` +
          `${sec(during.wall)}): ${requestsP50P95(p95.busy)}; failures ${p95.failures.length}`,
      );
      rows.push(p95.row);
    }

    console.log('\n   summary (ratios to baselines measured in the same run)');
    printSummary(rows, 48);
    for (const m of missing) console.log(`      NOT MEASURED: ${m}`);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await server?.stop();
    await bench.cleanup();
  }
  if (missing.length > 0) process.exitCode = 1;
}

runBench(main);
