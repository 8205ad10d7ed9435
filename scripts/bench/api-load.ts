// npm run bench, section d: the speed targets as ratios to baselines measured in the same
// run (docs/performance.md "Money API and large lists"). Seeds its own database (SQLite, or
// PostgreSQL with BENCH_DATABASE_URL: a private schema), runs the real server in a child process,
// loads it over real HTTP with closed-loop clients, and prints each measure beside its baseline,
// the ratio, the target and whether it is met. Never fails on slow numbers.
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_LOCALE } from '../../src/api/contract/messages';
import type { AppContext, AuthContext } from '../../server/context';
import { buildApp } from '../../server/app';
import { LIST_CACHE_TTL_MS } from '../../server/platform/db/list-cache';
import { AuditTrail } from '../../server/platform/http/audit-trail';
import { cardCsv } from '../../server/modules/cards/export-cards';
import { idempotencyOf } from '../../server/modules/ledger/service';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { transfer } from '../../server/modules/money/service';
import { authenticate } from '../../server/modules/sessions/service';
import { prepareBenchDatabase, SIZES, type BenchDatabase } from './api-seed';
import { benchServerEnv, loginAs, startBenchServer, type BenchServer } from './bench-setup';
import {
  alternatingRounds,
  ApiClient,
  closedLoop,
  expectOk,
  loadAverage,
  memoryOf,
  median,
  ms,
  pad,
  percentile,
  printSummary,
  resetPeak,
  runBench,
  sampleRss,
  type LoadResult,
  type Reply,
  type SummaryRow,
} from './http-load';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
/** Requests per list measure (and as many for its baseline), over ROUNDS alternating rounds. */
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 600);
const ROUNDS = 6;
/** Untimed requests of a list, then of the baseline, before its measure. */
const WARM_UP = 200;
/** Transfers per round, through the API and directly; TRANSFER_ROUNDS rounds of each. */
const TRANSFERS_PER_ROUND = Number(process.env.BENCH_LOAD_REQUESTS ?? 600);
const TRANSFER_ROUNDS = 2;
const EXPORT_ROUNDS = 2;
const LATENCY_RATIO = 3;
/** get_system_info's p95 against the trivial endpoint's (issue 24). */
const SYSTEM_INFO_RATIO = 1.5;
const RATE_SHARE = 0.5;
const MEMORY_MB = 50;
/** Which measures to run (default all): BENCH_PARTS=lists,transfers,export,system_info. */
const PARTS = new Set((process.env.BENCH_PARTS || 'lists,transfers,export,system_info').split(','));

const MB = 1024 * 1024;

interface Tokens {
  partner: string;
  admin: string;
  merchant: string;
}

/**
 * Outdates the server's cached list totals and anchors as another process's write does: on
 * SQLite a write through this process's own connection (the server sees it in `PRAGMA
 * data_version`); on PostgreSQL their time limit passing.
 */
async function outdateListCaches(bench: BenchDatabase): Promise<void> {
  if (bench.handle.engine === 'sqlite') {
    await bench.handle.db
      .updateTable('users')
      .set((eb) => ({ updated_at: eb('updated_at', '+', 1) })) // a change: the same value is none
      .where('username', '=', 'admin')
      .execute();
  } else {
    await new Promise((resolve) => setTimeout(resolve, LIST_CACHE_TTL_MS + 100));
  }
}

/**
 * 1. Lists at CONCURRENCY clients beside the trivial authenticated endpoint (GET
 * /platform/get_account: the session check, then the caller's own row, already loaded by it) for
 * the same user, in alternating rounds so that both see the same machine.
 */
async function listRows(
  client: ApiClient,
  tokens: Tokens,
  serverPid: number,
  bench: BenchDatabase,
): Promise<SummaryRow[]> {
  const lists: [string, string, string, Record<string, string>, boolean][] = [
    // label, url, token, query, has a target
    ['cards: used, page 1', '/recharge_card/card_list', tokens.partner, { status: '1' }, true],
    [
      'cards: used, page 5000 (last)',
      '/recharge_card/card_list',
      tokens.partner,
      { status: '1', page: '5000' },
      true,
    ],
    [
      'cards: batch, page 1',
      '/recharge_card/card_list',
      tokens.partner,
      { batch_no: 'BB42' },
      true,
    ],
    [
      'cards: batch, page 50 (last)',
      '/recharge_card/card_list',
      tokens.partner,
      { batch_no: 'BB42', page: '50' },
      true,
    ],
    ['merchants (partner), page 1', '/provider_service', tokens.partner, { user_type: '2' }, true],
    [
      'merchants (partner), page 500',
      '/provider_service',
      tokens.partner,
      { user_type: '2', page: '500' },
      true,
    ],
    ['merchants (admin), page 1', '/provider_service', tokens.admin, { user_type: '2' }, true],
    [
      'merchants (admin), page 500',
      '/provider_service',
      tokens.admin,
      { user_type: '2', page: '500' },
      true,
    ],
    ['ledger (merchant), page 1', '/platform/user_money_log', tokens.merchant, {}, false],
    [
      'ledger (merchant), page 5000',
      '/platform/user_money_log',
      tokens.merchant,
      { page: '5000' },
      false,
    ],
    ['transfers (partner), page 1', '/platform/transfer_record', tokens.partner, {}, false],
  ];
  console.log(
    `\n   1. lists: ${CONCURRENCY} clients; ${LIST_REQUESTS} requests of each list and as many of` +
      ` the baseline\n      (GET /platform/get_account, same user) in ${ROUNDS} alternating rounds`,
  );
  console.log(
    `      ${pad('list', 34)}${pad('rows', 9)}${pad('baseline p50/p95', 20)}${pad('list p50/p95', 22)}` +
      `${pad('server CPU/request', 20)}${pad('first', 11)}failures`,
  );
  const rows: SummaryRow[] = [];
  const perRound = Math.ceil(LIST_REQUESTS / ROUNDS);
  // The server warmed up first (JIT), as a server in use is: 100 requests of each list and of
  // the baseline at full concurrency, untimed. Then, once the cached totals and anchors are
  // outdated (db/list-cache.ts), each list's first request alone: the "first" column, what a
  // page costs when its total and anchor are counted again (after a write, or a new filter).
  for (const [, url, token, query] of lists) {
    await closedLoop(CONCURRENCY, 100, expectOk(client, 'GET', url, token, query));
    await closedLoop(CONCURRENCY, 100, expectOk(client, 'GET', '/platform/get_account', token));
  }
  await outdateListCaches(bench);
  const cold: { ms: number; reply: Reply<{ total?: number }> }[] = [];
  for (const [, url, token, query] of lists) {
    const t0 = performance.now();
    const reply = await client.call<{ total?: number }>('GET', url, { token, query });
    cold.push({ ms: performance.now() - t0, reply });
  }
  for (const [i, [label, url, token, query, hasTarget]] of lists.entries()) {
    const { ms: coldMs, reply: first } = cold[i];
    if (first.status !== 200 || first.json.code !== 1) {
      console.log(`      ${pad(label, 34)}not available (${first.status} ${first.json.msg})`);
      continue;
    }
    const trivial = expectOk(client, 'GET', '/platform/get_account', token);
    const list = expectOk(client, 'GET', url, token, query);
    // Each measure starts from a server that has been serving this list and the baseline: after
    // thousands of another list's requests, the first ones of a new list ran slower (the
    // functions they share with it optimised again for the new shapes), which only the first
    // measure after a change of list showed, in its p95.
    await closedLoop(CONCURRENCY, WARM_UP, list);
    await closedLoop(CONCURRENCY, WARM_UP, trivial);
    const { b, m, failures, cpuPerRequest, b95, m95 } = await alternatingRounds(
      serverPid,
      ROUNDS,
      CONCURRENCY,
      perRound,
      trivial,
      list,
    );
    const ratio = m95 / b95;
    console.log(
      `      ${pad(label, 34)}${pad(first.json.data.total ?? '', 9)}` +
        `${pad(`${ms(median(b))} / ${ms(b95)}`, 20)}${pad(`${ms(median(m))} / ${ms(m95)}`, 22)}` +
        `${pad(cpuPerRequest, 20)}${pad(ms(coldMs), 11)}` +
        `${failures.length}${failures.length ? ` (${failures[0]})` : ''}`,
    );
    rows.push({
      measure: `${label}: p95`,
      baseline: ms(b95),
      measured: ms(m95),
      ratio: `${ratio.toFixed(2)}×`,
      target: hasTarget ? `≤ ${LATENCY_RATIO}×` : '—',
      met: hasTarget ? ratio <= LATENCY_RATIO && failures.length === 0 : undefined,
    });
  }
  return rows;
}

/**
 * 4. GET /platform/get_system_info (public, cached per host: docs/domain.md §12) for a branded
 * host and an unknown one, at CONCURRENCY clients, beside the trivial endpoint in alternating
 * rounds.
 */
async function systemInfoRows(
  client: ApiClient,
  tokens: Tokens,
  serverPid: number,
): Promise<SummaryRow[]> {
  console.log(
    `\n   4. get_system_info: ${CONCURRENCY} clients; ${LIST_REQUESTS} requests of each and as many` +
      ` of the baseline\n      (GET /platform/get_account) in ${ROUNDS} alternating rounds`,
  );
  const rows: SummaryRow[] = [];
  const perRound = Math.ceil(LIST_REQUESTS / ROUNDS);
  for (const [label, domain] of [
    ['get_system_info (branded host)', 'localhost'],
    ['get_system_info (unknown host)', 'nowhere.example.com'],
  ] as const) {
    const trivial = expectOk(client, 'GET', '/platform/get_account', tokens.admin);
    const info = expectOk(client, 'GET', '/platform/get_system_info', '', { domain });
    await closedLoop(CONCURRENCY, WARM_UP, info);
    await closedLoop(CONCURRENCY, WARM_UP, trivial);
    const { b, m, failures, cpuPerRequest, b95, m95 } = await alternatingRounds(
      serverPid,
      ROUNDS,
      CONCURRENCY,
      perRound,
      trivial,
      info,
    );
    const ratio = m95 / b95;
    console.log(
      `      ${pad(label, 34)}${pad(`${ms(median(b))} / ${ms(b95)}`, 20)}` +
        `${pad(`${ms(median(m))} / ${ms(m95)}`, 22)}${pad(cpuPerRequest, 20)}` +
        `${failures.length}${failures.length ? ` (${failures[0]})` : ''}`,
    );
    rows.push({
      measure: `${label}: p95`,
      baseline: ms(b95),
      measured: ms(m95),
      ratio: `${ratio.toFixed(2)}×`,
      target: `≤ ${SYSTEM_INFO_RATIO}×`,
      met: ratio <= SYSTEM_INFO_RATIO && failures.length === 0,
    });
  }
  return rows;
}

/**
 * 2. Transfers: through the API by CONCURRENCY clients, against the same service call the route
 * handler makes (`transfer(ctx, auth, input, idempotency)`) run in a loop in this process, one at
 * a time and CONCURRENCY at a time. Partner → its merchants, give and take alternating, each with
 * an idempotency key as the console sends.
 */
async function transferRows(
  client: ApiClient,
  ctx: AppContext,
  tokens: Tokens,
  targets: number[],
): Promise<SummaryRow[]> {
  const auth: AuthContext = await authenticate(ctx, tokens.partner);
  const run = Date.now().toString(36);
  let serial = 0;
  const bodyOf = (i: number) => ({
    to_user_id: targets[i % targets.length],
    asset: 'money' as const,
    amount: '0.01',
    // Each target alternates: given to in one pass over the targets, taken from in the next.
    direction: Math.floor(i / targets.length) % 2 === 0 ? ('give' as const) : ('take' as const),
  });
  // The direct calls write the audit row the route writes (same declaration, same work).
  const trail = (toUserId: number) =>
    new AuditTrail(
      { action: 'money.transfer', resource: 'user', id: () => toUserId },
      { id: auth.user.id, role: auth.role },
      { ip: '127.0.0.1', id: 'bench', headers: {} },
      ctx.now,
      { body: undefined, query: undefined, auth },
    );
  // Fund every target first, so that every `take` finds a balance.
  for (const id of targets) {
    const body = {
      to_user_id: id,
      asset: 'money' as const,
      units: 100,
      direction: 'give' as const,
    };
    await transfer(ctx, auth, body, undefined, trail(id));
  }
  const viaApi = async (i: number) => {
    const key = `bench-${run}-${(serial += 1)}`;
    const { status, json } = await client.call('POST', '/platform/transfer', {
      token: tokens.partner,
      body: bodyOf(i),
      headers: { 'idempotency-key': key },
    });
    return status === 200 && json.code === 1 ? undefined : `HTTP ${status} ${json.msg}`;
  };
  const direct = async (i: number) => {
    const key = `bench-${run}-${(serial += 1)}`;
    const body = bodyOf(i);
    await transfer(
      ctx,
      auth,
      { ...body, units: 1 },
      idempotencyOf(key, auth.user.id, '/platform/transfer', body),
      trail(body.to_user_id),
    );
    return undefined;
  };
  const n = TRANSFERS_PER_ROUND;
  const results = {
    api: [] as LoadResult[],
    serial: [] as LoadResult[],
    parallel: [] as LoadResult[],
  };
  for (let r = 0; r < TRANSFER_ROUNDS; r += 1) {
    results.api.push(await closedLoop(CONCURRENCY, n, viaApi));
    results.serial.push(await closedLoop(1, n, direct));
    results.parallel.push(await closedLoop(CONCURRENCY, n, direct));
  }
  const rate = (rs: LoadResult[]) =>
    rs.reduce((s, x) => s + x.latencies.length - x.failures.length, 0) /
    rs.reduce((s, x) => s + x.seconds, 0);
  const [api, one, many] = [rate(results.api), rate(results.serial), rate(results.parallel)];
  const failures = results.api.flatMap((x) => x.failures);
  const directFailures = [...results.serial, ...results.parallel].flatMap((x) => x.failures);
  const lat = results.api.flatMap((x) => x.latencies);
  console.log(
    `\n   2. transfers: ${TRANSFER_ROUNDS} rounds of ${n} each way, alternating (partner → ` +
      `${targets.length} merchants, give/take 0.01)`,
  );
  console.log(
    `      ${pad(`through the API, ${CONCURRENCY} clients`, 34)}${pad(`${api.toFixed(0)}/s`, 10)}` +
      `p50 ${ms(median(lat))}, p95 ${ms(percentile(lat, 95))}; failures ${failures.length}` +
      `${failures.length ? ` (${failures[0]})` : ''}`,
  );
  console.log(
    `      ${pad('service call, one at a time', 34)}${one.toFixed(0)}/s` +
      (directFailures.length
        ? ` (direct failures: ${directFailures.length}, ${directFailures[0]})`
        : ''),
  );
  console.log(`      ${pad(`service call, ${CONCURRENCY} at a time`, 34)}${many.toFixed(0)}/s`);
  const row = (label: string, baseline: number): SummaryRow => ({
    measure: `transfers/s, API vs ${label}`,
    baseline: `${baseline.toFixed(0)}/s`,
    measured: `${api.toFixed(0)}/s`,
    ratio: `${((api / baseline) * 100).toFixed(0)} %`,
    target: `≥ ${RATE_SHARE * 100} %`,
    met: api / baseline >= RATE_SHARE && failures.length === 0,
  });
  return [row('loop', one), row(`${CONCURRENCY} in-process (stricter)`, many)];
}

/** Counts the CSV lines of a download, decompressing as a browser would. */
async function download(
  client: ApiClient,
  url: string,
): Promise<{ rows: number; bytes: number; wire: number }> {
  const res = await client.open('GET', url);
  if (res.statusCode !== 200) throw new Error(`export_data: HTTP ${res.statusCode}`);
  const encoding = res.headers['content-encoding'];
  let wire = 0;
  res.on('data', (chunk: Buffer) => (wire += chunk.length));
  const body =
    encoding === 'br'
      ? res.pipe(zlib.createBrotliDecompress())
      : encoding === 'gzip'
        ? res.pipe(zlib.createGunzip())
        : res;
  let lines = 0;
  let bytes = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines += 1;
  }
  return { rows: lines - 1, bytes, wire };
}

/**
 * 3. The export of every card of `partner`: the ticket and the public download through the API
 * (chunks counted and dropped), against the same generator the route streams (same query, same
 * CSV formatting) written into a sink that drops it. The server's memory: VmRSS before, the peak
 * after (VmHWM, reset just before by /proc/<pid>/clear_refs) and RSS sampled every 10 ms.
 */
async function exportRows(
  client: ApiClient,
  ctx: AppContext,
  tokens: Tokens,
  serverPid: number,
  partnerId: number,
): Promise<SummaryRow[]> {
  const apiRuns: { rows: number; seconds: number; growth: number; wire: number; bytes: number }[] =
    [];
  const directRuns: { rows: number; seconds: number }[] = [];
  const exportOnce = async () => {
    const ticket = await client.call<{ url: string }>('POST', '/recharge_card/export_ticket', {
      token: tokens.partner,
      body: {},
    });
    if (ticket.json.code !== 1) throw new Error(`export_ticket: ${ticket.json.msg}`);
    const url = ticket.json.data.url.replace(/^\/api\/v1/, '');
    const before = memoryOf(serverPid).rss;
    const peakReset = resetPeak(serverPid);
    const stopSampling = sampleRss(serverPid, 10);
    const t0 = performance.now();
    const got = await download(client, url);
    const seconds = (performance.now() - t0) / 1000;
    const sampled = stopSampling();
    const peak = Math.max(sampled.max, peakReset ? memoryOf(serverPid).hwm : 0);
    return { ...got, seconds, growth: peak - before };
  };
  const directOnce = async () => {
    const t0 = performance.now();
    let rows = -1;
    const viewer = { role: 'partner' as const, id: partnerId };
    for await (const chunk of cardCsv(ctx, viewer, {}, DEFAULT_LOCALE, ctx.now())) {
      const buf = Buffer.from(chunk, 'utf8'); // what a write would encode, then dropped
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) rows += 1;
    }
    return { rows, seconds: (performance.now() - t0) / 1000 };
  };
  await directOnce(); // warm-up of both paths (JIT, page cache)
  await exportOnce();
  for (let r = 0; r < EXPORT_ROUNDS; r += 1) {
    apiRuns.push(await exportOnce());
    directRuns.push(await directOnce());
  }
  const rate = (runs: { rows: number; seconds: number }[]) =>
    runs.reduce((s, x) => s + x.rows, 0) / runs.reduce((s, x) => s + x.seconds, 0);
  const [api, direct] = [rate(apiRuns), rate(directRuns)];
  const growth = Math.max(...apiRuns.map((x) => x.growth));
  console.log(
    `\n   3. export of ${apiRuns[0].rows} cards (${EXPORT_ROUNDS} rounds each, alternating)`,
  );
  for (const [i, x] of apiRuns.entries()) {
    console.log(
      `      API round ${i + 1}: ${x.seconds.toFixed(2)} s, ${(x.bytes / MB).toFixed(1)} MB CSV ` +
        `(${(x.wire / MB).toFixed(1)} MB on the wire), server RSS +${(x.growth / MB).toFixed(1)} MB;` +
        ` direct: ${directRuns[i].seconds.toFixed(2)} s (${directRuns[i].rows} rows)`,
    );
  }
  return [
    {
      measure: 'export rows/s, API vs direct loop',
      baseline: `${direct.toFixed(0)}/s`,
      measured: `${api.toFixed(0)}/s`,
      ratio: `${((api / direct) * 100).toFixed(0)} %`,
      target: `≥ ${RATE_SHARE * 100} %`,
      met: api / direct >= RATE_SHARE && apiRuns.every((x) => x.rows === directRuns[0].rows),
    },
    {
      measure: 'export: server memory growth (max)',
      baseline: '—',
      measured: `${(growth / MB).toFixed(1)} MB`,
      ratio: '—',
      target: `≤ ${MEMORY_MB} MB`,
      met: growth <= MEMORY_MB * MB,
    },
  ];
}

function printTable(rows: SummaryRow[]): void {
  console.log('\n   summary (ratios to baselines measured in the same run)');
  printSummary(rows, 46);
}

async function main(): Promise<void> {
  console.log(`   load average before seeding: ${loadAverage()}`);
  const bench = await prepareBenchDatabase();
  const { db, engine } = bench.handle;
  console.log(
    `   data (${engine}): ${SIZES.merchants} merchants of partner, ${SIZES.ledgerRows} ledger rows, ` +
      `${SIZES.transfers} transfers, ${SIZES.cards} cards (loaded in ${bench.seedSeconds.toFixed(1)} s)`,
  );
  let server: BenchServer | undefined;
  let direct: FastifyInstance | undefined;
  let client: ApiClient | undefined;
  try {
    server = await startBenchServer('api-server.ts', benchServerEnv(bench));
    client = new ApiClient(server.base, CONCURRENCY);
    // The direct baselines' AppContext, built by buildApp as the server builds its own.
    direct = await buildApp({
      db: bench.handle,
      logger: false,
      config: { dataDir: bench.dataDir, staticDir: path.join(bench.dataDir, 'no-console') },
    });
    const tokens: Tokens = {
      partner: await loginAs(client, 'partner'),
      admin: await loginAs(client, 'admin'),
      merchant: await loginAs(client, 'merchant'),
    };
    const partner = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'partner')
      .executeTakeFirstOrThrow();
    const targets = (
      await db
        .selectFrom('users')
        .select('id')
        .where('username', 'like', 'bench_m%')
        .orderBy('id')
        .limit(CONCURRENCY)
        .execute()
    ).map((u) => u.id);
    console.log(`   server pid ${server.pid}; load average at start: ${loadAverage()}`);
    const rows = [
      ...(PARTS.has('lists') ? await listRows(client, tokens, server.pid, bench) : []),
      ...(PARTS.has('transfers') ? await transferRows(client, direct.ctx, tokens, targets) : []),
      ...(PARTS.has('export')
        ? await exportRows(client, direct.ctx, tokens, server.pid, partner.id)
        : []),
      ...(PARTS.has('system_info') ? await systemInfoRows(client, tokens, server.pid) : []),
    ];
    const problems = await reconcile(db);
    console.log(
      `\n   money invariants after the load: ${problems.length === 0 ? 'hold' : problems.join('; ')}`,
    );
    printTable(rows);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await direct?.close();
    await server?.stop();
    await bench.cleanup();
  }
}

runBench(main);
