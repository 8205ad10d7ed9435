// npm run bench, section j: matrix distribution (docs/domain.md §20).
// (1) Scheduling: a plan of ACCOUNTS accounts × 4 slots × DAYS days (120 000 posts by default):
//     `POST /matrix/plan_preview` and `POST /matrix/plan_add` wall times through the API (≤ 5 s).
// (2) `GET /matrix/post_list {plan_id, page (random), limit 20}` on that plan and
//     `GET /matrix/plan_detail`: p95 as a ratio to a trivial authenticated endpoint's p95 measured
//     in alternating rounds of the same run (≤ 3×).
// (3) Publishing: PUBLISH posts of a plan due at the same instant, published by the worker (a
//     process of its own, as npm start; embedded queue) through the Douyin adapter to the sandbox over
//     HTTP: the delay from each post's scheduled_at to its claim (waiting → publishing; p95 ≤ 2 s);
//     the throughput (posts under review per second) against the adapter's upload_video +
//     create_video called directly in a loop with the same concurrency (≥ 80 %); the trivial
//     endpoint's p95 while publishing runs against idle (≤ 2×).
// The accounts are sandbox accounts seeded directly (the sandbox's rows and tokens, our rows with
// the tokens sealed by the server's key), the media real MP4s in the server's storage. Its own
// database (SQLite, or PostgreSQL with BENCH_DATABASE_URL: a private schema), the real server in a
// child process (scripts/bench/matrix-server.ts), real HTTP. Never fails on slow numbers.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import type { PlanBody, PlanPreview, ReleasePlan } from '../../src/api/contract/matrix-plans';
import { loadConfig } from '../../server/platform/config';
import type { DbHandle } from '../../server/platform/db/connection';
import { runNiced } from '../../server/platform/jobs/child-process';
import { loadSecretKeys } from '../../server/platform/secrets/keys';
import { createSealer } from '../../server/platform/secrets/sealed';
import { createFileStorage } from '../../server/platform/storage/create';
import { newFileKey } from '../../server/platform/storage/keys';
import { WORKER_NICENESS } from '../../server/worker-process';
import {
  createDouyinPlatform,
  SANDBOX_CLIENT_KEY,
  SANDBOX_PLATFORM_PREFIX,
  socialSandboxSecret,
} from '../../server/integrations/social';
import {
  alternatingRounds,
  ApiClient,
  busyVsIdle,
  closedLoop,
  cpuTimeOf,
  loadAverage,
  median,
  ms,
  pad,
  percentile,
  printSummary,
  requestsP50P95,
  runBench,
  sec,
  sleep,
  trivialRequest,
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

const ACCOUNTS = Number(process.env.BENCH_MATRIX_ACCOUNTS ?? 1000);
const DAYS = Number(process.env.BENCH_MATRIX_DAYS ?? 30);
const SLOTS = ['09:00', '12:30', '18:00', '21:00'];
const MEDIA = Number(process.env.BENCH_MATRIX_MEDIA ?? 5);
/** Posts due at the same instant in (3), one per account (at most ACCOUNTS). */
const PUBLISH = Math.min(ACCOUNTS, Number(process.env.BENCH_MATRIX_PUBLISH ?? 1000));
/**
 * Posts of the direct loop in (3), half before the server publishes and half after: as many as the
 * server publishes (a loop of 300 took 1.4 s, and its rate varied by a third between runs).
 */
const DIRECT = Number(process.env.BENCH_MATRIX_DIRECT ?? PUBLISH);
/** The server's `matrix-publish` concurrency (MATRIX_PUBLISH_CONCURRENCY, default 16): the loop's. */
const PUBLISH_CONCURRENCY = Number(process.env.BENCH_MATRIX_PUBLISH_CONCURRENCY ?? 16);
const CLIENTS = Number(process.env.BENCH_MATRIX_CLIENTS ?? 10);
/** The sandbox platform in a process of its own (default), or inside the server (`inside`). */
const PLATFORM_APART = process.env.BENCH_MATRIX_PLATFORM !== 'inside';
/**
 * The worker in a process of its own at the API's niceness + 10, as `npm start` runs it
 * (server/worker-process.ts; default), or in the server's process (`BENCH_MATRIX_WORKER=inside`).
 */
const WORKER_APART = process.env.BENCH_MATRIX_WORKER !== 'inside';
/** Worker processes (npm start's `WORKER_PROCESSES`, default 1). */
const WORKERS = Math.max(1, Number(process.env.BENCH_MATRIX_WORKERS ?? 1));
/** (3): each client's trivial request starts this often (10 clients: 100 requests/s). */
const PACE_MS = 100;
const IDLE_S = 5;
const LIST_REQUESTS = Number(process.env.BENCH_MATRIX_LIST_REQUESTS ?? 600);
const PREVIEWS = 3;
const ROUNDS = 6;
const WARM_UP = 100;
const WALL_TARGET_S = 5;
const LIST_RATIO = 3;
const CLAIM_P95_S = 2;
const THROUGHPUT_TARGET = 0.8;
const BUSY_RATIO = 2;
const ZONE = 'Asia/Shanghai';
const TITLES = ['今天开箱这个神器', '探店发现宝藏小店', '周末去哪儿玩', '三分钟学会这道菜'];
const TOPICS = ['好物分享', '探店'];

interface Account {
  id: number;
  openId: string;
  accessToken: string;
}

interface Bench extends BenchDatabaseBase {
  merchant: number;
  accounts: Account[];
  media: number[];
  /** The MP4 the media hold (the direct loop uploads it). */
  clip: string;
  clipBytes: number;
  seedSeconds: number;
}

/** `YYYY-MM-DD` in Shanghai, `days` from today. */
const shanghaiDate = (days: number) =>
  new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo data, ACCOUNTS sandbox accounts bound to `merchant` (the sandbox's account, access and
 * refresh token rows as its OAuth leaves them; our rows with the tokens sealed where the server
 * opens them, `matrix_accounts:<field>:<id>`), MEDIA library videos (one real 2 s 720p MP4 in the
 * server's storage, each its own copy), and the triggers that note each post's claim and review.
 */
function prepare(): Promise<Bench> {
  return openBenchDatabase('vc-bench-matrix-', async (handle: DbHandle, now, dataDir) => {
    const started = performance.now();
    const { db } = handle;
    const merchant = Number(
      (
        await db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'merchant')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const config = { ...loadConfig(), dataDir };
    const { keys, source } = loadSecretKeys(config);
    const sealer = createSealer(keys, source);
    const accounts: Account[] = [];
    await db.transaction().execute(async (trx) => {
      const sandboxAccounts = [];
      const accessTokens = [];
      const refreshTokens = [];
      for (let i = 0; i < ACCOUNTS; i += 1) {
        const openId = `bench_open_${String(i).padStart(5, '0')}`;
        const grant = randomBytes(12).toString('hex');
        const access = `act.${randomBytes(20).toString('hex')}`;
        const refresh = `rft.${randomBytes(20).toString('hex')}`;
        sandboxAccounts.push({
          open_id: openId,
          nickname: `矩阵账号 ${i + 1}`,
          avatar: `/avatar/${openId}.svg`,
          fans: 1000 + i,
          revoked: 0,
          created_at: now,
        });
        const scope = 'user_info,video.create,video.data';
        accessTokens.push({
          token: access,
          open_id: openId,
          grant_id: grant,
          scope,
          expires_at: now + 15 * 86_400_000,
        });
        refreshTokens.push({
          token: refresh,
          open_id: openId,
          grant_id: grant,
          scope,
          renewals: 0,
          expires_at: now + 30 * 86_400_000,
        });
        const row = await trx
          .insertInto('matrix_accounts')
          .values({
            owner_id: merchant,
            platform: 'douyin',
            sandbox: 1,
            open_id: openId,
            nickname: `矩阵账号 ${i + 1}`,
            avatar: '',
            fans: 1000 + i,
            group_id: null,
            status: 'normal',
            access_token: '-',
            refresh_token: '-',
            expires_at: now + 15 * 86_400_000,
            refresh_expires_at: now + 30 * 86_400_000,
            renewals_left: 5,
            last_refresh_at: null,
            last_error: null,
            refresh_lease_until: null,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        const place = (field: string) => ({ table: 'matrix_accounts', field, row: id });
        await trx
          .updateTable('matrix_accounts')
          .set({
            access_token: sealer.seal(access, place('access_token')),
            refresh_token: sealer.seal(refresh, place('refresh_token')),
          })
          .where('id', '=', id)
          .execute();
        accounts.push({ id, openId, accessToken: access });
      }
      for (let i = 0; i < ACCOUNTS; i += 200) {
        await trx
          .insertInto('sandbox_platform_accounts')
          .values(sandboxAccounts.slice(i, i + 200))
          .execute();
        await trx
          .insertInto('sandbox_platform_access_tokens')
          .values(accessTokens.slice(i, i + 200))
          .execute();
        await trx
          .insertInto('sandbox_platform_refresh_tokens')
          .values(refreshTokens.slice(i, i + 200))
          .execute();
      }
    });

    // The media: a 2 s 1280×720 H.264 clip (as tests/server/media-fixtures.ts makes clip.mp4).
    const clip = path.join(dataDir, 'clip.mp4');
    await runNiced(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25', '-t', '2'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip],
      ],
      { niceness: 0 },
    );
    const bytes = await fs.readFile(clip);
    const storage = createFileStorage(config, () => Date.now());
    const media: number[] = [];
    for (let m = 0; m < MEDIA; m += 1) {
      const name = `上新视频 ${m + 1}`;
      const key = newFileKey('uploads', now);
      await storage.put(key, bytes, { contentType: 'video/mp4', filename: name });
      const upload = await db
        .insertInto('uploads')
        .values({
          upload_key: randomBytes(12).toString('hex'),
          owner_id: merchant,
          type: 'video',
          name,
          size: bytes.length,
          storage_key: key,
          method: 'form',
          s3_upload_id: null,
          state: 'used',
          refused_reason: null,
          created_at: now,
          expires_at: now + 3_600_000,
          finished_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await db
        .insertInto('resources')
        .values({
          owner_id: merchant,
          group_id: null,
          type: 'video',
          name,
          upload_id: Number(upload.id),
          storage_key: key,
          poster_key: null,
          content_type: 'video/mp4',
          size: bytes.length,
          duration_ms: 2000,
          width: 1280,
          height: 720,
          codec: 'h264',
          created_at: now,
          updated_at: now,
          deleted_at: null,
          file_deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      media.push(Number(row.id));
    }
    await addEventTriggers(handle);
    return {
      merchant,
      accounts,
      media,
      clip,
      clipBytes: bytes.length,
      seedSeconds: (performance.now() - started) / 1000,
    };
  });
}

/**
 * `bench_post_events`: a post's claim (waiting → publishing: the dispatcher took it), the moment a
 * publishing run took it (`claimed_at` set) and its arrival under review, with
 * the `updated_at` the server wrote (its clock), noted by triggers in the bench's own database;
 * the server's code is not touched.
 */
async function addEventTriggers({ db, engine }: DbHandle): Promise<void> {
  await sql`create table bench_post_events (post_id bigint not null, kind text not null, at bigint not null)`.execute(
    db,
  );
  if (engine === 'sqlite') {
    await sql`create trigger bench_claim after update of status on matrix_posts
      when old.status = 'waiting' and new.status = 'publishing'
      begin insert into bench_post_events values (new.id, 'claim', new.updated_at); end`.execute(
      db,
    );
    await sql`create trigger bench_taken after update of claimed_at on matrix_posts
      when old.claimed_at is null and new.claimed_at is not null
      begin insert into bench_post_events values (new.id, 'taken', new.claimed_at); end`.execute(
      db,
    );
    await sql`create trigger bench_review after update of status on matrix_posts
      when old.status <> 'under_review' and new.status = 'under_review'
      begin insert into bench_post_events values (new.id, 'review', new.updated_at); end`.execute(
      db,
    );
    return;
  }
  await sql`create function bench_post_event() returns trigger language plpgsql as $$
    begin
      if old.claimed_at is null and new.claimed_at is not null then
        insert into bench_post_events values (new.id, 'taken', new.claimed_at);
      end if;
      if old.status = 'waiting' and new.status = 'publishing' then
        insert into bench_post_events values (new.id, 'claim', new.updated_at);
      elsif old.status <> 'under_review' and new.status = 'under_review' then
        insert into bench_post_events values (new.id, 'review', new.updated_at);
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger bench_post_event after update of status, claimed_at on matrix_posts
    for each row execute function bench_post_event()`.execute(db);
}

/** A free loopback port (the server's PUBLIC_URL must name it before it starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const planBody = (bench: Bench, over: Partial<PlanBody>): PlanBody => ({
  name: '双十二矩阵',
  account_ids: bench.accounts.map((a) => a.id),
  media: bench.media.map((id) => ({ type: 'resource' as const, id })),
  titles: TITLES,
  topics: TOPICS,
  start_date: shanghaiDate(1),
  end_date: shanghaiDate(DAYS),
  slots: SLOTS,
  daily_max: SLOTS.length,
  timezone: ZONE,
  ...over,
});

async function timedCall<T>(client: ApiClient, token: string, url: string, body: unknown) {
  const t0 = performance.now();
  const reply = await client.call<T>('POST', url, { token, body });
  const seconds = (performance.now() - t0) / 1000;
  if (reply.status !== 200 || reply.json.code !== 1) {
    throw new Error(`${url} answered ${reply.status} ${reply.json.msg}`);
  }
  return { seconds, data: reply.json.data };
}

/** (1) The big plan previewed PREVIEWS times and added once; its id. */
async function scheduling(client: ApiClient, token: string, bench: Bench, rows: SummaryRow[]) {
  const body = planBody(bench, {});
  const previews: number[] = [];
  let total = 0;
  for (let i = 0; i < PREVIEWS; i += 1) {
    const { seconds, data } = await timedCall<PlanPreview>(
      client,
      token,
      '/matrix/plan_preview',
      body,
    );
    previews.push(seconds);
    total = data.total;
  }
  const added = await timedCall<{ id: number; posts: number }>(
    client,
    token,
    '/matrix/plan_add',
    body,
  );
  console.log(
    `\n   1. Scheduling: ${ACCOUNTS} accounts × ${SLOTS.length} slots × ${DAYS} days, ${MEDIA} media, ` +
      `${total} posts (${ZONE}, from tomorrow)`,
  );
  console.log(
    `      plan_preview: ${previews.map(sec).join(', ')} (median ${sec(median(previews))}); ` +
      `plan_add: ${sec(added.seconds)} (${added.data.posts} posts saved, plan ${added.data.id})`,
  );
  rows.push(
    {
      measure: `plan_preview, ${total} posts (median of ${PREVIEWS})`,
      baseline: '',
      measured: sec(median(previews)),
      ratio: '',
      target: `≤ ${WALL_TARGET_S} s`,
      met: median(previews) <= WALL_TARGET_S,
    },
    {
      measure: `plan_add, ${added.data.posts} posts`,
      baseline: '',
      measured: sec(added.seconds),
      ratio: '',
      target: `≤ ${WALL_TARGET_S} s`,
      met: added.seconds <= WALL_TARGET_S,
    },
  );
  return { planId: added.data.id, posts: added.data.posts };
}

/** (2) post_list at random pages and plan_detail against the trivial endpoint. */
async function lists(
  client: ApiClient,
  token: string,
  plan: { planId: number; posts: number },
  pid: number,
  rows: SummaryRow[],
) {
  const pages = Math.ceil(plan.posts / 20);
  const ok =
    (url: string, query: (i: number) => Record<string, string>) =>
    async (i: number): Promise<string | undefined> => {
      const reply = await client.fetch('GET', url, { token, query: query(i) });
      return reply.status === 200 ? undefined : `HTTP ${reply.status}`;
    };
  const cases: [string, (i: number) => Promise<string | undefined>][] = [
    [
      `post_list, random page of ${pages}`,
      ok('/matrix/post_list', () => ({
        plan_id: String(plan.planId),
        page: String(1 + Math.floor(Math.random() * pages)),
        limit: '20',
      })),
    ],
    ['post_list, page 1', ok('/matrix/post_list', () => ({ plan_id: String(plan.planId) }))],
    ['plan_detail', ok('/matrix/plan_detail', () => ({ id: String(plan.planId) }))],
  ];
  const detail = await client.call<ReleasePlan>('GET', '/matrix/plan_detail', {
    token,
    query: { id: String(plan.planId) },
  });
  if (detail.json.code !== 1) throw new Error(`plan_detail: ${detail.json.msg}`);
  console.log(
    `\n   2. Lists on that plan (${JSON.stringify(detail.json.data.counts)}): ${CLIENTS} clients; ` +
      `${LIST_REQUESTS} requests of each and as many of the baseline\n      ` +
      `(GET /platform/get_account, same merchant) in ${ROUNDS} alternating rounds`,
  );
  console.log(
    `      ${pad('request', 34)}${pad('baseline p50/p95', 20)}${pad('measured p50/p95', 20)}` +
      `${pad('server CPU/request', 20)}failures`,
  );
  const trivial = trivialRequest(client, token);
  for (const [label, one] of cases) {
    await closedLoop(CLIENTS, WARM_UP, one);
    await closedLoop(CLIENTS, WARM_UP, trivial);
    const r = await alternatingRounds(
      pid,
      ROUNDS,
      CLIENTS,
      Math.ceil(LIST_REQUESTS / ROUNDS),
      trivial,
      one,
    );
    console.log(
      `      ${pad(label, 34)}${pad(`${ms(median(r.b))} / ${ms(r.b95)}`, 20)}` +
        `${pad(`${ms(median(r.m))} / ${ms(r.m95)}`, 20)}${pad(r.cpuPerRequest, 20)}` +
        `${r.failures.length}${r.failures.length ? ` (${r.failures[0]})` : ''}`,
    );
    rows.push({
      measure: `${label}: p95`,
      baseline: ms(r.b95),
      measured: ms(r.m95),
      ratio: `${(r.m95 / r.b95).toFixed(2)}×`,
      target: `≤ ${LIST_RATIO}×`,
      met: r.m95 / r.b95 <= LIST_RATIO && r.failures.length === 0,
    });
  }
}

/**
 * The trivial endpoint at a steady pace until `done()`: CLIENTS clients, each starting a request
 * every PACE_MS (or as soon as its previous one answered, when slower): consoles in use while the
 * worker publishes, not a load that takes the CPU from it.
 */
async function pacedUntil(
  client: ApiClient,
  token: string,
  done: () => boolean,
): Promise<LoadResult[]> {
  const trivial = trivialRequest(client, token);
  const latencies: number[] = [];
  const failures: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      await sleep((PACE_MS * c) / CLIENTS);
      while (!done()) {
        const start = performance.now();
        const failure = await trivial().catch((error: unknown) => String(error));
        latencies.push(performance.now() - start);
        if (failure) failures.push(failure);
        await sleep(Math.max(0, start + PACE_MS - performance.now()));
      }
    }),
  );
  return [{ latencies, failures, seconds: (performance.now() - t0) / 1000 }];
}

/** The paced trivial endpoint for `seconds`. */
async function pacedFor(client: ApiClient, token: string, seconds: number) {
  const end = Date.now() + seconds * 1000;
  return pacedUntil(client, token, () => Date.now() >= end);
}

/**
 * The adapter's upload_video + create_video on the sandbox, `count` posts by PUBLISH_CONCURRENCY
 * workers (accounts in turn), as the server's worker calls them minus the job around them.
 */
async function directLoop(bench: Bench, base: string, count: number, offset: number) {
  const dataDir = bench.dataDir;
  const adapter = createDouyinPlatform({
    baseUrl: `${base}${SANDBOX_PLATFORM_PREFIX}`,
    clientKey: SANDBOX_CLIENT_KEY,
    clientSecret: async () => socialSandboxSecret({ ...loadConfig(), dataDir }),
    sandbox: true,
  });
  let next = 0;
  const failures: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: PUBLISH_CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const a = bench.accounts[(offset + i) % bench.accounts.length];
        const credentials = { openId: a.openId, accessToken: a.accessToken };
        try {
          const { mediaId } = await adapter.uploadMedia(credentials, {
            path: bench.clip,
            fileName: 'clip.mp4',
          });
          await adapter.createPost(credentials, {
            mediaId,
            title: TITLES[i % TITLES.length],
            topics: TOPICS,
          });
        } catch (error) {
          failures.push(String(error));
        }
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, failures };
}

/** (3) Publishing PUBLISH posts due at once, against the direct loop; the API meanwhile. */
async function publishing(
  client: ApiClient,
  token: string,
  bench: Bench,
  base: string,
  rows: SummaryRow[],
  pid: number,
  others: (BenchServer | undefined)[],
) {
  const { db } = bench.handle;
  // CPU of every process of ours: the server, and the platform's and the worker's when apart.
  const pids = [pid, ...others.flatMap((o) => (o ? [o.pid] : []))];
  const cpuAll = () => pids.reduce((sum, p) => sum + cpuTimeOf(p), 0);
  // Each process's, and this one's (the direct loop's client and the trivial calls' clients).
  const cpuEach = () => [...pids, process.pid].map(cpuTimeOf);
  const since = (from: number[]) => cpuEach().map((t, i) => t - from[i]);
  const add = (a: number[], b: number[]) => a.map((x, i) => x + b[i]);
  // The plan, through the API: one slot tomorrow, one post per account. Its schedule staggers
  // posts of the same media a minute apart; the bench then makes all of them due at one instant
  // (the burst a slot of 1 000 accounts is when media are as many).
  const { data: plan } = await timedCall<{ id: number; posts: number }>(
    client,
    token,
    '/matrix/plan_add',
    planBody(bench, {
      name: '整点发布',
      account_ids: bench.accounts.slice(0, PUBLISH).map((a) => a.id),
      start_date: shanghaiDate(1),
      end_date: shanghaiDate(1),
      slots: ['10:00'],
      daily_max: 1,
    }),
  );
  await closedLoop(CLIENTS, WARM_UP, trivialRequest(client, token));
  const idle: LoadResult[] = await pacedFor(client, token, IDLE_S);

  // The loop's first half (with the trivial endpoint's clients running, as during the burst),
  // after a few untimed posts (connections, the sandbox's first upload).
  await directLoop(bench, base, PUBLISH_CONCURRENCY * 2, 0);
  const half = Math.ceil(DIRECT / 2);
  const cpu = { loop: 0, server: 0 };
  const each = { loop: [] as number[], server: [] as number[] };
  let c0 = cpuAll();
  let e0 = cpuEach();
  let loopDone = false;
  const loopTrivial = pacedUntil(client, token, () => loopDone);
  const loopA = await directLoop(bench, base, half, 0);
  loopDone = true;
  await loopTrivial;
  cpu.loop += cpuAll() - c0;
  each.loop = since(e0);

  // The burst: every post due in 1.5 s.
  const due = Date.now() + 1500;
  await db
    .updateTable('matrix_posts')
    .set({ scheduled_at: due })
    .where('plan_id', '=', plan.id)
    .execute();
  const finished = async () =>
    Number(
      (
        await db
          .selectFrom('matrix_posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('plan_id', '=', plan.id)
          .where('status', 'not in', ['waiting', 'publishing'])
          .executeTakeFirstOrThrow()
      ).n,
    );
  let publishingDone = false;
  const limitMs = Number(process.env.BENCH_MATRIX_PUBLISH_LIMIT_S ?? 240) * 1000;
  const watcher = (async () => {
    while (Date.now() < due + limitMs && (await finished()) < plan.posts) await sleep(250);
    publishingDone = true;
  })();
  await sleep(Math.max(0, due - Date.now()));
  c0 = cpuAll();
  e0 = cpuEach();
  const busy = await pacedUntil(client, token, () => publishingDone);
  await watcher;
  cpu.server = cpuAll() - c0;
  each.server = since(e0);
  const wall = (Date.now() - due) / 1000;

  c0 = cpuAll();
  e0 = cpuEach();
  let loopBDone = false;
  const loopBTrivial = pacedUntil(client, token, () => loopBDone);
  const loopB = await directLoop(bench, base, DIRECT - half, half);
  loopBDone = true;
  await loopBTrivial;
  cpu.loop += cpuAll() - c0;
  each.loop = add(each.loop, since(e0));
  idle.push(...(await pacedFor(client, token, IDLE_S)));

  // The figures: claims and reviews from the triggers, queueing from dispatched_at.
  const posts = await db
    .selectFrom('matrix_posts')
    .select(['id', 'status', 'scheduled_at', 'dispatched_at', 'reason_id'])
    .where('plan_id', '=', plan.id)
    .execute();
  const ids = new Set(posts.map((p) => Number(p.id)));
  const events = (
    await sql<{
      post_id: number;
      kind: string;
      at: number;
    }>`select post_id, kind, at from bench_post_events`.execute(db)
  ).rows.filter((e) => ids.has(Number(e.post_id)));
  const claims = events.filter((e) => e.kind === 'claim').map((e) => Number(e.at));
  const reviews = events.filter((e) => e.kind === 'review').map((e) => Number(e.at));
  const claimDelays = claims.map((at) => (at - due) / 1000);
  const takenDelays = events
    .filter((e) => e.kind === 'taken')
    .map((e) => (Number(e.at) - due) / 1000);
  const dispatchDelays = posts
    .filter((p) => p.dispatched_at !== null)
    .map((p) => (Number(p.dispatched_at) - due) / 1000);
  const byStatus: Record<string, number> = {};
  for (const p of posts) byStatus[p.status] = (byStatus[p.status] ?? 0) + 1;
  const reasons = [...new Set(posts.map((p) => p.reason_id).filter(Boolean))];
  const firstClaim = Math.min(...claims);
  const lastReview = Math.max(...reviews);
  const serverRate = reviews.length / ((lastReview - firstClaim) / 1000);
  const loopCount = DIRECT - loopA.failures.length - loopB.failures.length;
  const loopRate = loopCount / (loopA.seconds + loopB.seconds);
  const claimP50 = percentile(claimDelays, 50);
  const claimP95 = percentile(claimDelays, 95);
  const sorted = [...claims].sort((a, b) => a - b);
  const firstFour = sorted.slice(0, 4).map((at) => (at - due) / 1000);

  console.log(
    `\n   3. Publishing: ${plan.posts} posts due at one instant (accounts ${plan.posts}, ${MEDIA} media ` +
      `of ${(bench.clipBytes / 1024).toFixed(0)} KB), the server's worker (embedded queue,\n` +
      `      matrix-publish concurrency ${PUBLISH_CONCURRENCY}) → the Douyin adapter → the sandbox over HTTP; ` +
      `GET /platform/get_account by ${CLIENTS} clients, one request each every ${PACE_MS} ms, throughout`,
  );
  console.log(
    `      ended after ${wall.toFixed(1)} s: ${JSON.stringify(byStatus)}` +
      `${reasons.length ? `; reasons ${reasons.join(', ')}` : ''}`,
  );
  console.log(
    `      due → queued (dispatched_at): p50 ${sec(percentile(dispatchDelays, 50))}, ` +
      `p95 ${sec(percentile(dispatchDelays, 95))}, max ${sec(Math.max(...dispatchDelays))}`,
  );
  console.log(
    `      due → publishing (claimed by the dispatcher): p50 ${sec(claimP50)}, p95 ${sec(claimP95)}, max ${sec(Math.max(...claimDelays))}; ` +
      `the first ${firstFour.length}: ${firstFour.map(sec).join(', ')}`,
  );
  console.log(
    `      due → a run took it (claimed_at): p50 ${sec(percentile(takenDelays, 50))}, ` +
      `p95 ${sec(percentile(takenDelays, 95))}, max ${sec(Math.max(...takenDelays))}`,
  );
  console.log(
    `      server: ${reviews.length} under review in ${sec((lastReview - firstClaim) / 1000)} from the ` +
      `first claim = ${serverRate.toFixed(1)} posts/s`,
  );
  console.log(
    `      direct loop (upload_video + create_video, ${PUBLISH_CONCURRENCY} at once): ${loopCount} posts in ` +
      `${sec(loopA.seconds + loopB.seconds)} (before ${sec(loopA.seconds)}, after ${sec(loopB.seconds)}) = ` +
      `${loopRate.toFixed(1)} posts/s; failures ${loopA.failures.length + loopB.failures.length}` +
      `${(loopA.failures[0] ?? loopB.failures[0]) ? ` (${loopA.failures[0] ?? loopB.failures[0]})` : ''}`,
  );
  const trivialCount = (r: LoadResult[]) => r.reduce((n, x) => n + x.latencies.length, 0);
  console.log(
    `      CPU of our processes (server, platform, worker; all threads; the trivial calls' share included: ${trivialCount(busy)} during the ` +
      `burst): ${sec(cpu.server / 1000)} for the burst = ${ms(cpu.server / plan.posts)} a post; ` +
      `${sec(cpu.loop / 1000)} for the loop = ${ms(cpu.loop / DIRECT)} a post`,
  );
  const names = ['server', 'platform', 'worker', 'workers'].slice(0, pids.length).concat('bench');
  const perPost = (times: number[], n: number) =>
    times.map((t, i) => `${names[i]} ${ms(t / n)}`).join(', ');
  console.log(
    `      CPU a post by process: burst ${perPost(each.server, plan.posts)}; ` +
      `loop ${perPost(each.loop, DIRECT)}`,
  );
  const p95 = busyVsIdle(
    'trivial endpoint p95, publishing vs idle',
    idle,
    busy,
    BUSY_RATIO,
    reviews.length === plan.posts,
  );
  console.log(
    `      trivial endpoint idle: ${requestsP50P95(p95.idle)}; while publishing: ` +
      `${requestsP50P95(p95.busy)}; failures ${p95.failures.length}`,
  );
  rows.push(
    {
      measure: `due → publishing p50 (${plan.posts} posts at once)`,
      baseline: '',
      measured: sec(claimP50),
      ratio: '',
      target: '',
    },
    {
      measure: `due → a run took it p95 (${plan.posts} posts)`,
      baseline: '',
      measured: sec(percentile(takenDelays, 95)),
      ratio: '',
      target: '',
    },
    {
      measure: `due → publishing p95 (${plan.posts} posts at once)`,
      baseline: '',
      measured: sec(claimP95),
      ratio: '',
      target: `≤ ${CLAIM_P95_S} s`,
      met: claimP95 <= CLAIM_P95_S && claims.length === plan.posts,
    },
    {
      measure: 'posts under review/s, server vs direct loop',
      baseline: `${loopRate.toFixed(1)}/s`,
      measured: `${serverRate.toFixed(1)}/s`,
      ratio: `${((serverRate / loopRate) * 100).toFixed(0)} %`,
      target: `≥ ${THROUGHPUT_TARGET * 100} %`,
      met: serverRate / loopRate >= THROUGHPUT_TARGET && reviews.length === plan.posts,
    },
    p95.row,
  );
}

async function main(): Promise<void> {
  const parts = new Set((process.env.BENCH_PARTS || 'schedule,lists,publish').split(','));
  console.log(`   load average before seeding: ${loadAverage()}`);
  const bench = await prepare();
  console.log(
    `   data (${bench.handle.engine}): ${ACCOUNTS} sandbox accounts bound to merchant, ${MEDIA} library ` +
      `videos (loaded in ${bench.seedSeconds.toFixed(1)} s)`,
  );
  let server: BenchServer | undefined;
  let platform: BenchServer | undefined;
  let worker: BenchServer | undefined;
  const extraWorkers: BenchServer[] = [];
  let client: ApiClient | undefined;
  let platformDir: string | undefined;
  try {
    if (PLATFORM_APART && bench.handle.engine === 'sqlite') {
      platformDir = `${bench.dataDir}-platform`;
      await fs.mkdir(platformDir);
      await sql`vacuum into ${path.join(platformDir, 'app.db')}`.execute(bench.handle.db);
      for (const file of await fs.readdir(bench.dataDir)) {
        if (file.endsWith('.secret')) {
          await fs.copyFile(path.join(bench.dataDir, file), path.join(platformDir, file));
        }
      }
    }
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // The platform in its own process, as Douyin is another company's server (our server serving
    // only the sandbox, on the same database), unless BENCH_MATRIX_PLATFORM=inside.
    let platformOrigin = origin;
    if (PLATFORM_APART) {
      const platformPort = await freePort();
      platformOrigin = `http://127.0.0.1:${platformPort}`;
      platform = await startBenchServer(
        'matrix-server.ts',
        {
          ...benchServerEnv(bench),
          // On SQLite its own copy of the database (its sandbox rows are what it reads): a platform
          // does not take our database's write lock. On PostgreSQL the same database.
          ...(platformDir ? { BENCH_DATA_DIR: platformDir } : {}),
          BENCH_PORT: String(platformPort),
          PUBLIC_URL: platformOrigin,
          SOCIAL_SANDBOX: '1',
          WORKER: '0',
          BENCH_CPU_PROFILE: '', // the server's alone
        },
        undefined,
        // Douyin's servers are not on our machine: here the platform yields the CPU to our API as
        // the worker does (BENCH_MATRIX_PLATFORM_NICE=0: as the API).
        Number(process.env.BENCH_MATRIX_PLATFORM_NICE ?? WORKER_NICENESS),
      );
    }
    const serverEnv = {
      ...benchServerEnv(bench),
      PUBLIC_URL: origin,
      SOCIAL_SANDBOX: '1',
      SOCIAL_SANDBOX_URL: platformOrigin,
      MATRIX_PUBLISH_CONCURRENCY: String(PUBLISH_CONCURRENCY),
    };
    server = await startBenchServer('matrix-server.ts', {
      ...serverEnv,
      BENCH_PORT: String(port),
      // The API without a worker, and the worker in its own process (as npm start), unless
      // BENCH_MATRIX_WORKER=inside.
      ...(WORKER_APART ? { WORKER: '0' } : {}),
    });
    if (WORKER_APART) {
      worker = await startBenchServer(
        'matrix-server.ts',
        {
          ...serverEnv,
          BENCH_PORT: '0',
          // Its own profile beside the server's.
          BENCH_CPU_PROFILE: process.env.BENCH_CPU_PROFILE
            ? `${process.env.BENCH_CPU_PROFILE}.worker`
            : '',
        },
        undefined,
        WORKER_NICENESS,
      );
      // BENCH_MATRIX_WORKERS=n: n worker processes (npm start's WORKER_PROCESSES).
      for (let i = 1; i < WORKERS; i += 1) {
        const more = await startBenchServer(
          'matrix-server.ts',
          {
            ...serverEnv,
            BENCH_PORT: '0',
            BENCH_CPU_PROFILE: '',
          },
          undefined,
          WORKER_NICENESS,
        );
        extraWorkers.push(more);
      }
    }
    client = new ApiClient(server.base, CLIENTS + 2);
    const token = await loginAs(client, 'merchant');
    console.log(`   server pid ${server.pid}; load average at start: ${loadAverage()}`);
    const rows: SummaryRow[] = [];
    if (parts.has('schedule') || parts.has('lists')) {
      const plan = await scheduling(client, token, bench, rows);
      if (parts.has('lists')) await lists(client, token, plan, server.pid, rows);
    }
    console.log(
      `   the platform ${PLATFORM_APART ? `in its own process (pid ${platform!.pid})` : 'inside the server'}; ` +
        `the worker ${WORKER_APART ? `in its own process (pid ${worker!.pid}, niceness +${WORKER_NICENESS}, as npm start; ${WORKERS} worker process(es))` : 'in the server (BENCH_MATRIX_WORKER=inside)'}`,
    );
    if (parts.has('publish')) {
      await publishing(client, token, bench, platformOrigin, rows, server.pid, [platform, worker]);
    }
    console.log('\n   summary (ratios to baselines measured in the same run)');
    printSummary(rows, 48);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await worker?.stop();
    for (const w of extraWorkers) await w.stop();
    await server?.stop();
    await platform?.stop();
    if (platformDir) await fs.rm(platformDir, { recursive: true, force: true });
    await bench.cleanup();
  }
}

runBench(main);
