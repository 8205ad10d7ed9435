// npm run bench, section g: (a) the resource library's list at 100 000
// resources of one merchant with 20 clients, as a ratio to a trivial authenticated endpoint
// measured in the same run (target ≤ 3×); (b) that trivial endpoint's p95 while two renders run
// (ffmpeg 720p encodes through the job runner, niced child processes) against its idle p95
// (target ≤ 2×). Its own database (SQLite, or PostgreSQL with BENCH_DATABASE_URL: a private
// schema), the real server in a child process (scripts/bench/resource-server.ts), real HTTP.
// Never fails on slow numbers.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { RESOURCE_TYPES } from '../../src/api/contract/resources';
import { createJobQueue } from '../../server/platform/jobs/runner';
import type { Jobs } from '../../server/platform/jobs/define-job';
import { benchRenderJob } from './bench-render-job';
import {
  alternatingRounds,
  ApiClient,
  busyVsIdle,
  closedLoop,
  expectOk,
  loadAverage,
  median,
  ms,
  pad,
  printSummary,
  requestsP50P95,
  runBench,
  sleep,
  type LoadResult,
  type SummaryRow,
} from './http-load';
import {
  benchServerEnv,
  loginAs,
  openBenchDatabase,
  startBenchServer,
  type BenchDatabaseBase,
  type BenchServer,
} from './bench-setup';

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 600);
const ROUNDS = 6;
const WARM_UP = 200;
/** Clients of the trivial endpoint in part b (idle and during the renders). */
const RENDER_CLIENTS = Number(process.env.BENCH_RENDER_CLIENTS ?? CONCURRENCY);
/** Seconds of 720p video each render encodes. */
const RENDER_SECONDS = Number(process.env.BENCH_RENDER_SECONDS ?? 10);
const LIST_RATIO = 3;
const RENDER_RATIO = 2;
const BATCH = 500;
const GROUPS = 10;
const TOPICS = ['旅行', '美食', '宠物', '开箱', '穿搭', '健身', '探店', '家居', '数码', '校园'];

interface Bench extends BenchDatabaseBase {
  groups: number[];
  seedSeconds: number;
}

/**
 * The demo data, then RESOURCES resources of `merchant` (types in turn, ten groups and some
 * ungrouped, one in 50 deleted) and a fifth as many of `partner`, inserted in batches.
 */
function prepare(): Promise<Bench> {
  return openBenchDatabase('vc-bench-resources-', async ({ db }, now) => {
    const started = performance.now();
    const idOf = async (username: string) =>
      Number(
        (
          await db
            .selectFrom('users')
            .select('id')
            .where('username', '=', username)
            .executeTakeFirstOrThrow()
        ).id,
      );
    const merchant = await idOf('merchant');
    const partner = await idOf('partner');
    const groups: number[] = [];
    for (let g = 0; g < GROUPS; g += 1) {
      const row = await db
        .insertInto('resource_groups')
        .values({ owner_id: merchant, name: `${TOPICS[g]} 素材`, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      groups.push(Number(row.id));
    }
    let uploadId = 0;
    const fill = async (ownerId: number, count: number, withGroups: boolean) => {
      await db.transaction().execute(async (trx) => {
        for (let start = 0; start < count; start += BATCH) {
          const rows = [];
          for (let i = start; i < Math.min(count, start + BATCH); i += 1) {
            const type = RESOURCE_TYPES[i % RESOURCE_TYPES.length];
            const video = type === 'video' || type === 'intro' || type === 'outro';
            const image = type === 'image' || type === 'sticker';
            const at = now - (count - i) * 1000;
            uploadId += 1;
            rows.push({
              owner_id: ownerId,
              group_id: withGroups && i % 12 < GROUPS ? groups[i % 12] : null,
              type,
              name: `${TOPICS[i % TOPICS.length]} ${i % 7 === 0 ? 'vlog' : '片段'} clip-${String(i).padStart(6, '0')}`,
              upload_id: uploadId,
              storage_key: `uploads/202611/${uploadId.toString(16).padStart(32, '0')}`,
              poster_key:
                video || image ? `posters/202611/${uploadId.toString(16).padStart(32, '0')}` : null,
              content_type: video ? 'video/mp4' : image ? 'image/jpeg' : 'audio/mpeg',
              size: 1_000_000 + i,
              duration_ms:
                video || type === 'audio' || type === 'bgm' ? 5_000 + (i % 60_000) : null,
              width: video || image ? 1280 : null,
              height: video || image ? 720 : null,
              codec: video ? 'h264' : null,
              created_at: at,
              updated_at: at,
              deleted_at: i % 50 === 49 ? now : null,
              file_deleted_at: null,
            });
          }
          await trx.insertInto('resources').values(rows).execute();
        }
      });
    };
    await fill(merchant, RESOURCES, true);
    await fill(partner, Math.floor(RESOURCES / 5), false);
    await sql`analyze`.execute(db);
    const seedSeconds = (performance.now() - started) / 1000;
    return { groups, seedSeconds };
  });
}

/** (a) Each list against the trivial endpoint, alternating rounds, after a warm-up of both. */
async function listRows(client: ApiClient, token: string, bench: Bench, pid: number) {
  const last = Math.ceil((RESOURCES - Math.floor(RESOURCES / 50)) / 20);
  const lists: [string, Record<string, string>][] = [
    ['all, page 1', {}],
    [`all, page ${last} (last)`, { page: String(last) }],
    ['type video, page 1', { type: 'video' }],
    ['type bgm, page 100', { type: 'bgm', page: '100' }],
    ['one group, page 1', { group_id: String(bench.groups[3]) }],
    ['ungrouped, page 1', { group_id: '0' }],
    ['keyword (1 in 10), page 1', { keyword: '旅行' }],
    ['keyword + type, page 1', { keyword: 'vlog', type: 'image' }],
    ['keyword (1 match), page 1', { keyword: 'clip-077777' }],
  ];
  console.log(
    `\n   a. GET /resource/list: ${CONCURRENCY} clients; ${LIST_REQUESTS} requests of each list and` +
      ` as many of the baseline\n      (GET /platform/get_account, same merchant) in ${ROUNDS} alternating rounds`,
  );
  console.log(
    `      ${pad('list', 30)}${pad('total', 8)}${pad('baseline p50/p95', 20)}${pad('list p50/p95', 20)}` +
      `${pad('server CPU/request', 20)}failures`,
  );
  const trivial = expectOk(client, 'GET', '/platform/get_account', token);
  const rows: SummaryRow[] = [];
  const perRound = Math.ceil(LIST_REQUESTS / ROUNDS);
  for (const [label, query] of lists) {
    const first = await client.call<{ total: number }>('GET', '/resource/list', { token, query });
    if (first.status !== 200 || first.json.code !== 1) {
      console.log(`      ${pad(label, 30)}not available (${first.status} ${first.json.msg})`);
      continue;
    }
    const list = expectOk(client, 'GET', '/resource/list', token, query);
    await closedLoop(CONCURRENCY, WARM_UP, list);
    await closedLoop(CONCURRENCY, WARM_UP, trivial);
    const { b, m, failures, cpuPerRequest, b95, m95 } = await alternatingRounds(
      pid,
      ROUNDS,
      CONCURRENCY,
      perRound,
      trivial,
      list,
    );
    console.log(
      `      ${pad(label, 30)}${pad(first.json.data.total, 8)}` +
        `${pad(`${ms(median(b))} / ${ms(b95)}`, 20)}${pad(`${ms(median(m))} / ${ms(m95)}`, 20)}` +
        `${pad(cpuPerRequest, 20)}` +
        `${failures.length}${failures.length ? ` (${failures[0]})` : ''}`,
    );
    rows.push({
      measure: `list ${label}: p95`,
      baseline: ms(b95),
      measured: ms(m95),
      ratio: `${(m95 / b95).toFixed(2)}×`,
      target: `≤ ${LIST_RATIO}×`,
      met: m95 / b95 <= LIST_RATIO && failures.length === 0,
    });
  }
  return rows;
}

/**
 * (b) The trivial endpoint idle (before and after), and while two renders run: enqueued on the
 * app's queue (the server's in-process worker takes them), measured from the moment both are
 * active until the first finishes, so every request of the measure saw two encodes.
 */
async function renderRows(client: ApiClient, token: string, bench: Bench, queue: Jobs) {
  const trivial = expectOk(client, 'GET', '/platform/get_account', token);
  const chunk = 100;
  await closedLoop(RENDER_CLIENTS, WARM_UP, trivial);
  const idle: LoadResult[] = [];
  for (let r = 0; r < ROUNDS / 2; r += 1)
    idle.push(await closedLoop(RENDER_CLIENTS, chunk * 2, trivial));
  const t0 = performance.now();
  const jobs = await Promise.all(
    [1, 2].map((n) =>
      queue.enqueue(
        benchRenderJob,
        { out: path.join(bench.dataDir, `render-${n}.mp4`), seconds: RENDER_SECONDS },
        { attempts: 1 },
      ),
    ),
  );
  const states = async () => Promise.all(jobs.map(async (id) => (await queue.get(id))?.state));
  for (;;) {
    const s = await states();
    if (s.every((x) => x === 'active')) break;
    if (s.some((x) => x === 'failed' || x === 'completed' || x === 'cancelled')) break;
    await sleep(50);
  }
  const started = (performance.now() - t0) / 1000;
  const busy: LoadResult[] = [];
  for (;;) {
    const s = await states();
    if (!s.every((x) => x === 'active')) break;
    busy.push(await closedLoop(RENDER_CLIENTS, chunk, trivial));
  }
  // The renders' end (for their wall time and state), then the idle measure again.
  let final: (string | undefined)[];
  for (;;) {
    final = await states();
    if (final.every((x) => x !== 'active' && x !== 'waiting' && x !== 'delayed')) break;
    await sleep(200);
  }
  const wall = (performance.now() - t0) / 1000;
  for (let r = 0; r < ROUNDS / 2; r += 1)
    idle.push(await closedLoop(RENDER_CLIENTS, chunk * 2, trivial));
  const p95 = busyVsIdle(
    'trivial endpoint p95, two renders vs idle',
    idle,
    busy,
    RENDER_RATIO,
    final.every((x) => x === 'completed'),
  );
  const sizes = await Promise.all(
    [1, 2].map((n) =>
      fs.stat(path.join(bench.dataDir, `render-${n}.mp4`)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  console.log(
    `\n   b. GET /platform/get_account, ${RENDER_CLIENTS} clients: idle vs while two renders run` +
      `\n      (ffmpeg libx264 1280×720, ${RENDER_SECONDS} s of video each, one thread, niced child processes` +
      ` through the job runner)`,
  );
  console.log(
    `      renders: both active after ${started.toFixed(1)} s, ended ${final.join('/')} after ` +
      `${wall.toFixed(1)} s (${sizes.map((s) => `${(s / 1024).toFixed(0)} KB`).join(', ')})`,
  );
  console.log(
    `      idle: ${requestsP50P95(p95.idle)}; during the renders: ${requestsP50P95(p95.busy)}; ` +
      `failures ${p95.failures.length}`,
  );
  return [p95.row];
}

async function main(): Promise<void> {
  const parts = new Set((process.env.BENCH_PARTS || 'lists,renders').split(','));
  console.log(`   load average before seeding: ${loadAverage()}`);
  const bench = await prepare();
  console.log(
    `   data (${bench.handle.engine}): ${RESOURCES} resources of merchant, ${Math.floor(RESOURCES / 5)} of partner` +
      ` (loaded in ${bench.seedSeconds.toFixed(1)} s)`,
  );
  let server: BenchServer | undefined;
  let client: ApiClient | undefined;
  const queue = createJobQueue({ db: bench.handle.db, engine: bench.handle.engine });
  try {
    server = await startBenchServer('resource-server.ts', benchServerEnv(bench));
    client = new ApiClient(server.base, Math.max(CONCURRENCY, RENDER_CLIENTS));
    const token = await loginAs(client, 'merchant');
    console.log(`   server pid ${server.pid}; load average at start: ${loadAverage()}`);
    const rows = [
      ...(parts.has('lists') ? await listRows(client, token, bench, server.pid) : []),
      ...(parts.has('renders') ? await renderRows(client, token, bench, queue) : []),
    ];
    console.log('\n   summary (ratios to baselines measured in the same run)');
    printSummary(rows, 46);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await server?.stop();
    await queue.close();
    await bench.cleanup();
  }
}

runBench(main);
