// npm run bench, section n: what narration adds to an output's render time (issue 25: ≤ 30 %,
// docs/performance.md "Narration").
// The same 3-shot 720p 9:16 mixed-cut task as section p (three groups of the generated
// 1920×1080, 1280×720 and 1080×1920 clips of 4 s: 12 s outputs; a CJK title, subtitles, music,
// the clips' own sound), two outputs a task, added through the API and rendered by the real
// server's in-process worker (scripts/bench/video-server.ts: the product's render preset and one
// render at a time), without and with a narration (a three-sentence Chinese script spoken by
// the embedded provider's first public voice: espeak-ng), alternating. An output's time is its
// row's claim → done (`started_at` → `finished_at`: the speech when the output makes it, the
// render, the CRC-32, storing, settling), and the CPU time the server and its children (ffmpeg,
// espeak-ng) spent from the previous output's end to its own (/proc; steadier than the clock on
// a shared machine). The first output of a narrated task makes the task's
// speech; the second reuses it (docs/domain.md §9 "Narration"). Medians of RUNS tasks of each
// kind; each output against the same output (same combination) of the plain tasks. Its own
// database (SQLite, or PostgreSQL with BENCH_DATABASE_URL) and files. Never fails on slow
// numbers.
import { readFileSync } from 'node:fs';
import {
  FINISHED_TASK_STATUSES,
  type MixedTaskBody,
  type VideoTaskDetail,
} from '../../src/api/contract/video-tasks';
import { createDigitalHumanProvider } from '../../server/integrations/digital-human';
import { loadConfig } from '../../server/platform/config';
import {
  ApiClient,
  loadAverage,
  median,
  printSummary,
  runBench,
  sec,
  type SummaryRow,
} from './http-load';
import { benchServerEnv, loginAs, startBenchServer, type BenchServer } from './bench-setup';
import { prepare, type Bench } from './video-data';

const RUNS = Number(process.env.BENCH_NARRATION_RUNS ?? 5);
const POLL_MS = 200;
const TARGET = 0.3;
const SCRIPT = '今天给大家介绍一款新品。质量好，价格实惠！喜欢的朋友点个关注。';

function taskBody(bench: Bench, name: string, voiceId: number | null): MixedTaskBody {
  return {
    kind: 'mixed',
    name,
    mode: 'sequential',
    count: 2,
    ratio: '9:16',
    resolution: '720p',
    fps: 25,
    bitrate: 1200,
    music_ids: [bench.music.id],
    music_volume: 5,
    keep_original_sound: true,
    titles: [{ text: '春季上新 限时优惠', size: 48, color: '#FFFFFF', position: 'top' }],
    subtitles: { text: SCRIPT, size: 36, color: '#FFFF00' },
    shot_groups: bench.groups.map((g) => ({ resource_ids: g.map((r) => r.id) })),
    ...(voiceId !== null
      ? { narration: { text: SCRIPT, voice_id: voiceId, speed: 1, volume: 1 } }
      : {}),
  };
}

/** The embedded provider's first public voice, as a public voice row of the bench's database. */
async function putVoice(bench: Bench): Promise<number> {
  const config = loadConfig();
  const provider = createDigitalHumanProvider({
    ...config,
    dataDir: bench.dataDir,
    digitalHuman: { ...config.digitalHuman, provider: 'embedded' },
  });
  const voice = provider.publicVoices()[0];
  if (!voice) throw new Error('the embedded provider has no public voice');
  const now = Date.now();
  const row = await bench.handle.db
    .insertInto('dh_voice_clones')
    .values({
      owner_id: null,
      public_key: `bench:${voice.key}`,
      name: voice.name['en-US'],
      gender: voice.gender,
      profile: JSON.stringify(voice.profile),
      status: 'ready',
      provider: provider.name,
      billing: 'settled',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * CPU seconds of process `pid` and of its children it has reaped (ffmpeg, espeak-ng: a child's
 * time is added when it ends), from /proc; 10 ms resolution.
 */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name: utime, stime, cutime, cstime are fields 14–17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks / 100;
}

interface OutputTimes {
  /** Claim → done, seconds (the rows' `started_at` → `finished_at`). */
  wall: number;
  /** CPU seconds of the server and its children from the previous output's end to its own. */
  cpu: number;
}

/**
 * One task of two outputs through the API, its detail polled every POLL_MS: each output's claim →
 * done and CPU time, in order, and the speech's length.
 */
async function runTask(
  client: ApiClient,
  token: string,
  bench: Bench,
  serverPid: number,
  name: string,
  voiceId: number | null,
): Promise<{ outputs: OutputTimes[]; speechSeconds: number | null }> {
  const cpu = [cpuSeconds(serverPid)];
  const added = await client.call<{ id: number }>('POST', '/video_task/add', {
    token,
    body: taskBody(bench, name, voiceId),
  });
  if (added.status !== 200 || added.json.code !== 1) {
    throw new Error(`add answered ${added.status} ${added.json.msg}`);
  }
  const id = added.json.data.id;
  let detail: VideoTaskDetail;
  for (;;) {
    const reply = await client.call<VideoTaskDetail>('GET', '/video_task/detail', {
      token,
      query: { id: String(id) },
    });
    if (reply.status !== 200 || reply.json.code !== 1) {
      throw new Error(`detail answered ${reply.status} ${reply.json.msg}`);
    }
    detail = reply.json.data;
    // The CPU so far when another output is found finished (its ffmpeg has ended and been
    // reaped; the next one's, still running, is not counted yet).
    const finished = detail.outputs.filter(
      (o) => o.status !== 'queued' && o.status !== 'rendering',
    );
    while (cpu.length <= finished.length) cpu.push(cpuSeconds(serverPid));
    if (FINISHED_TASK_STATUSES.includes(detail.status)) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const failed = detail.outputs.find((o) => o.status !== 'done');
  if (failed) throw new Error(`output ${failed.index} ${failed.status}: ${failed.reason_detail}`);
  const rows = await bench.handle.db
    .selectFrom('video_outputs')
    .select(['started_at', 'finished_at'])
    .where('task_id', '=', id)
    .orderBy('started_at')
    .execute();
  const task = await bench.handle.db
    .selectFrom('video_tasks')
    .select('narration_ms')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    outputs: rows.map((r, i) => ({
      wall: (Number(r.finished_at) - Number(r.started_at)) / 1000,
      cpu: cpu[i + 1]! - cpu[i]!,
    })),
    speechSeconds: task.narration_ms === null ? null : Number(task.narration_ms) / 1000,
  };
}

async function main(): Promise<void> {
  console.log(`   load average before: ${loadAverage()}`);
  const bench = await prepare('vc-bench-narration-');
  let server: BenchServer | undefined;
  let client: ApiClient | undefined;
  try {
    const voiceId = await putVoice(bench);
    server = await startBenchServer('video-server.ts', benchServerEnv(bench));
    client = new ApiClient(server.base, 2);
    const token = await loginAs(client, 'merchant');
    console.log(
      `   data (${bench.handle.engine}): tasks of 2 outputs, 3-shot 720p 9:16 (clips of 4 s: 12 s ` +
        `outputs), a CJK title, subtitles, music, own sound; narrated: “${SCRIPT}” (espeak-ng); ` +
        `server pid ${server.pid}`,
    );
    // A warm-up of each kind (ffmpeg, espeak-ng and the fonts into the page cache).
    const pid = server.pid;
    await runTask(client, token, bench, pid, 'warm plain', null);
    await runTask(client, token, bench, pid, 'warm narrated', voiceId);
    // Per index: the two outputs of a task are different combinations (sequential: the second
    // has another clip in its last shot), so each is compared with the same one without narration.
    const plain: [OutputTimes[], OutputTimes[]] = [[], []];
    const narrated: [OutputTimes[], OutputTimes[]] = [[], []];
    let speech = 0;
    const show = (o: OutputTimes) => `${sec(o.wall)} (CPU ${sec(o.cpu)})`;
    for (let i = 0; i < RUNS; i += 1) {
      const p = await runTask(client, token, bench, pid, `plain ${i + 1}`, null);
      const n = await runTask(client, token, bench, pid, `narrated ${i + 1}`, voiceId);
      for (const k of [0, 1] as const) {
        plain[k].push(p.outputs[k]!);
        narrated[k].push(n.outputs[k]!);
      }
      speech = n.speechSeconds ?? 0;
      console.log(
        `   run ${i + 1}: plain ${p.outputs.map(show).join(' + ')}; narrated ` +
          `${n.outputs.map(show).join(' + ')}`,
      );
    }
    const share = (added: number) =>
      `${added < 0 ? '−' : '+'}${Math.abs(Math.round(added * 100))} %`;
    const row = (measure: string, k: 0 | 1, of: keyof OutputTimes): SummaryRow => {
      const base = median(plain[k].map((o) => o[of]));
      const measured = median(narrated[k].map((o) => o[of]));
      return {
        measure,
        baseline: sec(base),
        measured: sec(measured),
        ratio: share(measured / base - 1),
        target: `≤ +${TARGET * 100} %`,
        met: measured / base - 1 <= TARGET,
      };
    };
    console.log(
      `\n   summary (medians of ${RUNS}, each output against the same output without narration; ` +
        `${speech.toFixed(1)} s of speech)`,
    );
    printSummary(
      [
        row('a. output 1, which makes the speech: claim → done', 0, 'wall'),
        row('   its CPU (server + ffmpeg + espeak-ng)', 0, 'cpu'),
        row('b. output 2, which reuses it: claim → done', 1, 'wall'),
        row('   its CPU', 1, 'cpu'),
      ],
      52,
    );
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await server?.stop();
    await bench.cleanup();
  }
}

runBench(main);
