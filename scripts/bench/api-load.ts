// npm run bench, section d: the money API under load and large lists (issue 4). Builds the real
// server on a temp SQLite database (or PostgreSQL: BENCH_DATABASE_URL=postgres://…, a private
// schema), seeds the demo data plus a large data set, listens on a free port and measures over
// real HTTP. Prints figures; never fails on slow numbers.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/connection';
import { migrateToLatest } from '../../server/db/migrate';
import type { Engine } from '../../server/db/dialect';
import type { Db } from '../../server/db/schema';
import { sql } from 'kysely';
import { DEMO_PASSWORD, seedDemo } from '../../server/db/seed';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { ensurePlatformDefaults } from '../../server/modules/system/service';

const MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 20_000);
const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 200_000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);
const CARDS = Number(process.env.BENCH_CARDS ?? 100_000);
const LOAD_REQUESTS = Number(process.env.BENCH_LOAD_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const BATCH = 500;

const pad = (s: unknown, n: number) => String(s).padEnd(n);
const ms = (v: number) => `${v.toFixed(1)} ms`;
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function insertInBatches<T>(
  count: number,
  make: (i: number) => T,
  write: (rows: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += BATCH) {
    const rows: T[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) rows.push(make(i));
    await write(rows);
  }
}

/** A large data set beside the demo data: merchants, a long ledger, transfers, cards. */
async function bulkData(db: Db, engine: Engine, now: number): Promise<void> {
  const partner = await db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', 'partner')
    .executeTakeFirstOrThrow();
  const merchant = await db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', 'merchant')
    .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    await insertInBatches(
      MERCHANTS,
      (i) => ({
        user_type: 2,
        pid: partner.id,
        service_id: partner.id,
        username: `bench_m${i}`,
        password_hash: merchant.password_hash,
        name: `商户 ${i}`,
        mobile: `139${String(i).padStart(8, '0')}`,
        created_at: now - i * 60_000,
        updated_at: now,
      }),
      (rows) => trx.insertInto('users').values(rows).execute(),
    );
    // A long ledger for `merchant` that nets to zero (+1.00, −1.00, …), so its balance still
    // equals its ledger.
    const balance = merchant.money;
    await insertInBatches(
      LEDGER_ROWS,
      (i) => {
        const up = i % 2 === 0;
        return {
          user_id: merchant.id,
          asset: 'money' as const,
          type: up ? ('transfer_in' as const) : ('exchange' as const),
          change: up ? 100 : -100,
          before: up ? balance : balance + 100,
          after: up ? balance + 100 : balance,
          memo: 'bench',
          related_type: null,
          related_id: null,
          operator_id: partner.id,
          created_at: now - (LEDGER_ROWS - i) * 1000,
        };
      },
      (rows) => trx.insertInto('ledger').values(rows).execute(),
    );
    // Transfers in pairs (partner → a bench merchant, then back), each with its two ledger rows,
    // so every balance still equals its ledger.
    const firstBench = merchant.id + 2; // the bench merchants follow the demo users
    const firstTransfer =
      Number(
        (
          await trx
            .selectFrom('transfers')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      ) + 1;
    const P = partner.money;
    await insertInBatches(
      TRANSFERS,
      (i) => {
        const back = i % 2 === 1;
        const other = firstBench + (Math.floor(i / 2) % Math.max(1, MERCHANTS));
        return {
          id: firstTransfer + i,
          transfer_no: `TRB${String(i).padStart(10, '0')}`,
          from_user_id: back ? other : partner.id,
          to_user_id: back ? partner.id : other,
          asset: 'money' as const,
          amount: 1,
          from_before: back ? 1 : P,
          from_after: back ? 0 : P - 1,
          to_before: back ? P - 1 : 0,
          to_after: back ? P : 1,
          remark: '',
          operator_id: partner.id,
          created_at: now - (TRANSFERS - i) * 1000,
        };
      },
      (rows) => trx.insertInto('transfers').values(rows).execute(),
    );
    await insertInBatches(
      TRANSFERS * 2,
      (k) => {
        const i = Math.floor(k / 2);
        const back = i % 2 === 1;
        const other = firstBench + (Math.floor(i / 2) % Math.max(1, MERCHANTS));
        const outgoing = k % 2 === 0;
        const user = outgoing === back ? other : partner.id;
        const isPartner = user === partner.id;
        const change = outgoing ? -1 : 1;
        const before = isPartner ? (back ? P - 1 : P) : back ? 1 : 0;
        return {
          user_id: user,
          asset: 'money' as const,
          type: outgoing ? ('transfer_out' as const) : ('transfer_in' as const),
          change,
          before,
          after: before + change,
          memo: '',
          related_type: 'transfer',
          related_id: firstTransfer + i,
          operator_id: partner.id,
          created_at: now - (TRANSFERS - i) * 1000,
        };
      },
      (rows) => trx.insertInto('ledger').values(rows).execute(),
    );
    // Explicit ids: move PostgreSQL's sequence past them (SQLite follows max(id) by itself).
    if (engine === 'postgres') {
      await sql`select setval(pg_get_serial_sequence('transfers', 'id'), (select max(id) from transfers))`.execute(
        trx,
      );
    }
    await insertInBatches(
      CARDS,
      (i) => ({
        card_no: `PB${String(i).padStart(12, '0')}`,
        card_pwd: randomBytes(8).toString('hex').toUpperCase(),
        batch_no: `BB${Math.floor(i / 1000)}`,
        asset: 'money' as const,
        face_value: 1000,
        price: 1000,
        creator_id: partner.id,
        owner_id: partner.id,
        service_id: partner.id,
        paid_by: null,
        status: 1, // used cards: the cards account is not involved
        used_by: merchant.id,
        used_at: now,
        expire_at: null,
        created_at: now - i * 1000,
        updated_at: now,
        deleted_at: null,
      }),
      (rows) => trx.insertInto('recharge_cards').values(rows).execute(),
    );
  });
}

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-bench-api-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const schema = pgUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  if (pgUrl && schema) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const handle = openDatabase({ dataDir, databaseUrl: pgUrl, pgSchema: schema });
  const cleanup = async () => {
    await handle.close().catch(() => undefined);
    if (pgUrl && schema) {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    const now = Date.now();
    await migrateToLatest(handle.db, handle.engine);
    await ensurePlatformDefaults(handle.db, now);
    await seedDemo(handle.db, now);
    const started = performance.now();
    await bulkData(handle.db, handle.engine, now);
    // Statistics, as autovacuum / `PRAGMA optimize` would have them on a database in use.
    await sql`analyze`.execute(handle.db);
    console.log(
      `   data (${handle.engine}): ${MERCHANTS} merchants, ${LEDGER_ROWS} ledger rows, ` +
        `${TRANSFERS} transfers, ${CARDS} cards (loaded in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const app = await buildApp({
      db: handle,
      logger: false,
      config: { dataDir, staticDir: path.join(dataDir, 'no-console') },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
    try {
      await measure(base, handle.db);
    } finally {
      await app.close();
    }
  } finally {
    await cleanup();
  }
}

async function call(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  token: string,
  body?: unknown,
  query?: Record<string, string>,
) {
  const qs = query ? `?${new URLSearchParams(query)}` : '';
  const res = await fetch(`${base}${url}${qs}`, {
    method,
    headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; msg: string; data: unknown };
  return { status: res.status, json };
}

async function measure(base: string, db: Db): Promise<void> {
  const login = async (account: string) => {
    const { json } = await call(base, 'POST', '/platform/login', '', {
      account,
      password: DEMO_PASSWORD,
    });
    return (json.data as { userinfo: { token: string } }).userinfo.token;
  };
  const partner = await login('partner');
  const merchant = await login('merchant');
  const admin = await login('admin');
  const merchantRow = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'merchant')
    .executeTakeFirstOrThrow();
  const benchIds = await db
    .selectFrom('users')
    .select('id')
    .where('username', 'like', 'bench_m%')
    .limit(1000)
    .execute();

  // 1. Transfers under load: CONCURRENCY clients, half to one hot merchant, half spread.
  console.log(
    `\n   transfers under load (${LOAD_REQUESTS} requests, ${CONCURRENCY} at a time; partner → merchants)`,
  );
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < LOAD_REQUESTS) {
        const i = next++;
        const to = i % 2 === 0 ? merchantRow.id : benchIds[i % benchIds.length].id;
        const start = performance.now();
        const { status, json } = await call(base, 'POST', '/platform/transfer', partner, {
          to_user_id: to,
          asset: 'money',
          amount: '0.01',
          direction: i % 4 === 1 ? 'take' : 'give',
        });
        latencies.push(performance.now() - start);
        const key = status >= 500 ? `HTTP ${status}` : json.code === 1 ? 'ok' : json.msg;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `   ${pad('latency', 22)}p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, ` +
      `p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))}`,
  );
  console.log(`   ${pad('throughput', 22)}${(LOAD_REQUESTS / seconds).toFixed(0)} transfers/s`);
  console.log(`   ${pad('outcomes', 22)}${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const problems = await reconcile(db);
  console.log(
    `   ${pad('invariants after', 22)}${problems.length === 0 ? 'hold' : problems.join('; ')}`,
  );

  // 2. Large lists: sequential requests (median, p95), then 16 clients at once.
  console.log(
    '\n   large lists (20 sequential requests each: median / p95; then 16 clients at once: p95)',
  );
  const lists: [string, string, string, Record<string, string>][] = [
    ['ledger, page 1', '/platform/user_money_log', merchant, { limit: '20' }],
    ['ledger, page 5000', '/platform/user_money_log', merchant, { limit: '20', page: '5000' }],
    [
      'ledger, type filter',
      '/platform/user_money_log',
      merchant,
      { type: 'exchange', asset: 'money' },
    ],
    ['transfers (partner)', '/platform/transfer_record', partner, {}],
    ['transfers (admin)', '/platform/transfer_record', admin, { asset: 'money' }],
    ['transfers (merchant)', '/platform/transfer_record', merchant, { direction: 'in' }],
    ['merchants (partner)', '/provider_service', partner, { user_type: '2' }],
    ['merchants, search', '/provider_service', partner, { user_type: '2', keyword: '商户 1999' }],
    ['merchants (admin)', '/provider_service', admin, { user_type: '2', page: '200' }],
    ['cards (partner)', '/recharge_card/card_list', partner, {}],
    ['cards, batch filter', '/recharge_card/card_list', partner, { batch_no: 'BB42' }],
  ];
  console.log(
    `   ${pad('list', 24)}${pad('total', 10)}${pad('median', 12)}${pad('p95', 12)}${pad('p95 (16 at once)', 18)}`,
  );
  for (const [label, url, token, query] of lists) {
    const first = await call(base, 'GET', url, token, undefined, query);
    if (first.status !== 200 || first.json.code !== 1) {
      console.log(`   ${pad(label, 24)}not available (${first.status} ${first.json.msg})`);
      continue;
    }
    const total = (first.json.data as { total?: number }).total ?? '';
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const start = performance.now();
      await call(base, 'GET', url, token, undefined, query);
      times.push(performance.now() - start);
    }
    const parallel: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        const start = performance.now();
        await call(base, 'GET', url, token, undefined, query);
        parallel.push(performance.now() - start);
      }),
    );
    console.log(
      `   ${pad(label, 24)}${pad(total, 10)}${pad(ms(percentile(times, 50)), 12)}${pad(ms(percentile(times, 95)), 12)}` +
        `${ms(percentile(parallel, 95))}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
