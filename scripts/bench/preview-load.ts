// npm run bench, section p: preview before paying (docs/performance.md "Preview before paying").
// (a) The time from sending `POST /video_task/preview` to the poll that sees the preview ready
//     (its detail asked every POLL_MS, as a person's form would see it sooner or later), for a
//     3-shot 720p task: 9:16, three groups of the generated 1920×1080, 1280×720 and 1080×1920
//     clips (4 s each: the preview shortens the 12 s to 4 s), a CJK title, subtitles, music, own
//     sound. Target ≤ 3 s. Five runs (the rate limit allows six a minute), the median; beside it
//     the render alone (the row's render_ms: claim → stored).
// (b) The same with a paid task of 5 outputs added just before: the preview waits only for the
//     render under way (priority), not for the queue. Reported without a target.
// The real server in a child process (scripts/bench/video-server.ts: the API and the in-process
// worker at the product's default timing and render preset), its own database (SQLite, or
// PostgreSQL with BENCH_DATABASE_URL) and files. Never fails on slow numbers.
import type { VideoPreview } from '../../src/api/contract/video-task-preview';
import type { MixedTaskBody, VideoTaskDetail } from '../../src/api/contract/video-tasks';
import {
  ApiClient,
  loadAverage,
  median,
  pollDetail,
  printSummary,
  runBench,
  sec,
  type SummaryRow,
} from './http-load';
import { benchServerEnv, loginAs, startBenchServer, type BenchServer } from './bench-setup';
import { prepare, type Bench } from './video-data';

const RUNS = 5;
const POLL_MS = 50;
const TARGET_S = 3;
/** The paid task of (b): outputs of 3 × 1 s at the product's preset. */
const PAID_OUTPUTS = 5;

function taskBody(bench: Bench, extra: Partial<MixedTaskBody> = {}): MixedTaskBody {
  return {
    kind: 'mixed',
    name: 'bench preview',
    mode: 'sequential',
    count: 1,
    ratio: '9:16',
    resolution: '720p',
    fps: 25,
    bitrate: 1200,
    music_ids: [bench.music.id],
    music_volume: 5,
    keep_original_sound: true,
    titles: [{ text: '春季上新 限时优惠', size: 48, color: '#FFFFFF', position: 'top' }],
    subtitles: {
      text: '今天给大家介绍一款新品。质量好，价格实惠！喜欢的朋友点个关注。',
      size: 36,
      color: '#FFFF00',
    },
    shot_groups: bench.groups.map((g) => ({ resource_ids: g.map((r) => r.id) })),
    ...extra,
  };
}

interface Run {
  /** Seconds from sending the call to the poll that saw it ready. */
  ready: number;
  /** Seconds the render took (claim → stored), the server's own figure. */
  render: number;
  preview: VideoPreview;
}

async function previewOnce(client: ApiClient, token: string, bench: Bench): Promise<Run> {
  const t0 = performance.now();
  const asked = await client.call<VideoPreview>('POST', '/video_task/preview', {
    token,
    body: taskBody(bench),
  });
  if (asked.status !== 200 || asked.json.code !== 1) {
    throw new Error(`preview answered ${asked.status} ${asked.json.msg}`);
  }
  const preview = await pollDetail<VideoPreview>(
    client,
    token,
    '/video_task/preview_detail',
    asked.json.data.id,
    (p) => p.status === 'done' || p.status === 'failed',
    POLL_MS,
  );
  const ready = (performance.now() - t0) / 1000;
  if (preview.status !== 'done') throw new Error(`the preview failed: ${preview.reason}`);
  const row = await bench.handle.db
    .selectFrom('video_previews')
    .select('render_ms')
    .where('id', '=', preview.id)
    .executeTakeFirstOrThrow();
  return { ready, render: Number(row.render_ms) / 1000, preview };
}

async function main(): Promise<void> {
  console.log(`   load average before: ${loadAverage()}`);
  const bench = await prepare('vc-bench-preview-');
  let server: BenchServer | undefined;
  let client: ApiClient | undefined;
  const rows: SummaryRow[] = [];
  try {
    server = await startBenchServer('video-server.ts', benchServerEnv(bench));
    client = new ApiClient(server.base, 4);
    const token = await loginAs(client, 'merchant');
    console.log(
      `   data (${bench.handle.engine}): a 3-shot 720p 9:16 task (1920×1080, 1280×720, 1080×1920 ` +
        `clips of 4 s), a CJK title, subtitles, music, own sound; server pid ${server.pid}`,
    );
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const run = await previewOnce(client, token, bench);
      runs.push(run);
      console.log(
        `   run ${i + 1}: ready after ${sec(run.ready)} (render ${sec(run.render)}); ` +
          `${run.preview.width}×${run.preview.height}, ${run.preview.duration} s`,
      );
    }
    const ready = median(runs.map((r) => r.ready));
    rows.push({
      measure: 'a. call → preview ready (median of 5)',
      baseline: '',
      measured: sec(ready),
      ratio: '',
      target: `≤ ${TARGET_S} s`,
      met: ready <= TARGET_S,
    });
    rows.push({
      measure: '   its render alone (median)',
      baseline: '',
      measured: sec(median(runs.map((r) => r.render))),
      ratio: '',
      target: '',
    });

    // (b) behind a paid task just added.
    const added = await client.call<{ id: number }>('POST', '/video_task/add', {
      token,
      body: taskBody(bench, {
        name: 'bench paid',
        count: PAID_OUTPUTS,
        shot_groups: bench.groups.map((g) => ({ resource_ids: g.map((r) => r.id), duration: 1 })),
      }),
    });
    if (added.status !== 200 || added.json.code !== 1) {
      throw new Error(`add answered ${added.status} ${added.json.msg}`);
    }
    const behind = await previewOnce(client, token, bench);
    const task = await client.call<VideoTaskDetail>('GET', '/video_task/detail', {
      token,
      query: { id: String(added.json.data.id) },
    });
    const doneBefore = task.json.data.outputs.filter((o) => o.status === 'done').length;
    console.log(
      `   b. behind a paid task of ${PAID_OUTPUTS} outputs added just before: ready after ` +
        `${sec(behind.ready)} (render ${sec(behind.render)}); paid outputs done by then: ` +
        `${doneBefore} of ${PAID_OUTPUTS}`,
    );
    rows.push({
      measure: `b. the same behind ${PAID_OUTPUTS} paid outputs`,
      baseline: '',
      measured: sec(behind.ready),
      ratio: '',
      target: '',
    });
    await client.call('POST', '/video_task/cancel', { token, body: { id: added.json.data.id } });

    console.log('\n   summary');
    printSummary(rows, 40);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await server?.stop();
    await bench.cleanup();
  }
}

runBench(main);
