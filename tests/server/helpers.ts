import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../../server/app';
import type { Config } from '../../server/platform/config';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import type { Engine } from '../../server/platform/db/dialect';
import type { Database, Db, UserRow } from '../../server/platform/db/schema';
import { DEMO_PASSWORD } from '../../server/modules/demo/seed';
import { checkReplies, takeReplyMismatches } from './reply-check';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import type { SmsMessage, SmsProvider } from '../../server/integrations/sms';
import { PG_SCHEMA, T0, databaseUrl, withPgClient, type TemplateKind } from './db-templates';

export { DEMO_PASSWORD, T0 };

const PG_URL = process.env.TEST_DATABASE_URL;

/** Every server suite runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
/** The full URL of an API call (`/platform/login` → `/api/v1/platform/login`). */
export const api = (path: string) => `/api/v1${path}`;

/**
 * A port the system just handed out and released, for a server started as a child process. A port
 * picked at random can be one the kernel gives a test's outgoing connection (the ephemeral range
 * starts at 32768): that is how seed.test.ts once failed with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const engines: Engine[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * The engines a job-queue suite runs on: the embedded queue on each engine (its jobs live in the
 * app's own database), BullMQ on PostgreSQL only when there is one (its jobs live in Redis
 * whatever the engine: SQLite + Redis runs no code path the other three do not, and CI time
 * counts).
 */
export function queueEngines(queue: 'embedded' | 'bullmq'): Engine[] {
  return queue === 'bullmq' && engines.includes('postgres') ? ['postgres'] : engines;
}

export interface TestClock {
  (): number;
  advance(ms: number): void;
}

export function testClock(start = T0): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

/** Keeps every message instead of sending it. */
export class CapturingSms implements SmsProvider {
  readonly name = 'capture';
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage): Promise<void> {
    this.sent.push(message);
  }
  lastCode(mobile: string): string | undefined {
    return this.sent.filter((m) => m.mobile === mobile).at(-1)?.code;
  }
}

export interface Reply<T = unknown> {
  status: number;
  headers: Record<string, unknown>;
  body: { code: number; msg: string; data: T };
  raw: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as is (with `contentType`, default application/json). */
  payload?: string;
  contentType?: string;
  remoteAddress?: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  engine: Engine;
  clock: TestClock;
  sms: CapturingSms;
  dataDir: string;
  /** PostgreSQL: the test's database and schema (a second handle, "another process", opens them). */
  databaseUrl?: string;
  pgSchema?: string;
  /** Any path (`/api/v1/…`, `/assets/…`). */
  call<T = unknown>(method: 'GET' | 'POST', url: string, options?: CallOptions): Promise<Reply<T>>;
  /** API calls by their path under /api/v1 (`/platform/login`). */
  post<T = unknown>(url: string, body?: unknown, token?: string): Promise<Reply<T>>;
  get<T = unknown>(url: string, query?: Record<string, string>, token?: string): Promise<Reply<T>>;
  /** Logs in (demo password by default) and returns the token; throws when login fails. */
  login(account: string, password?: string): Promise<string>;
  user(username: string): Promise<UserRow>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Omit<BuildOptions, 'db' | 'now' | 'config'> {
  config?: Partial<Config>;
  /** Seed the demo data (default true). */
  seed?: boolean;
  /** Use the app's default SMS provider instead of a capturing one. */
  realSms?: boolean;
}

export interface TestDatabase {
  handle: DbHandle;
  dataDir: string;
  /** PostgreSQL: the test's database and schema (another connection or process can open it). */
  databaseUrl?: string;
  pgSchema?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own: a temp SQLite dir, or a database on the test PostgreSQL (its tables
 * in schema `pgSchema`). A copy of this Vitest run's template (tests/server/global-setup.ts):
 * migrated, or also with the platform defaults and the demo data seeded at T0.
 */
export async function createTestDatabase(
  engine: Engine,
  kind: TemplateKind = 'migrated',
): Promise<TestDatabase> {
  const templates = inject('dbTemplates');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-server-test-'));
  if (engine === 'sqlite') {
    await fs.copyFile(templates.sqlite[kind], path.join(dataDir, 'app.db'));
    const handle = openDatabase({ dataDir });
    return {
      handle,
      dataDir,
      drop: async () => {
        await handle.close();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!PG_URL || !templates.postgres) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${templates.prefix}_${randomBytes(5).toString('hex')}`;
  await withPgClient((client) =>
    client.query(`create database ${name} template ${templates.postgres![kind]}`),
  );
  const url = databaseUrl(name);
  const handle = openDatabase({ dataDir, databaseUrl: url, pgSchema: PG_SCHEMA });
  return {
    handle,
    dataDir,
    databaseUrl: url,
    pgSchema: PG_SCHEMA,
    drop: async () => {
      await handle.close();
      await dropDatabase(name);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Drops a test's database once its connections are gone. A closed pool's connections end a moment
 * after `close()` resolves (their Terminate is still on its way): dropped `with (force)` at once,
 * such a connection received "terminating connection due to administrator command" and threw in
 * the test process. Connections a killed child process left (whose process is gone) are forced.
 */
async function dropDatabase(name: string): Promise<void> {
  await withPgClient(async (client) => {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  });
}

/**
 * Kysely's migrator introspects every schema of the database (pg_get_serial_sequence by name),
 * which failed when another test file dropped its schema at that moment, while tests shared one
 * database a schema each. Each test now has a database of its own (`createTestDatabase`); a test
 * that migrates again (tests/server/seed.test.ts) still holds these locks, harmlessly.
 */
const SCHEMA_LOCK = 7_270_001;
/**
 * And one migration at a time: the introspection also fails when another file's migration is
 * altering its own schema's tables at that moment ("column memo_params of relation ledger does
 * not exist", seen once in a CI run).
 */
const MIGRATION_LOCK = 7_270_002;

/**
 * A database of its own on the test PostgreSQL (TEST_DATABASE_URL), for a server or worker process
 * started on DATABASE_URL (which takes no schema): its URL, and `drop` (`dropDatabase`: once the
 * test's own connections are gone; those a killed process left are forced).
 */
export async function createScratchDatabase(
  prefix: string,
): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await withPgClient((client) => client.query(`create database ${name}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    drop: () => dropDatabase(name),
  };
}

/** Runs a migration (or anything that calls one) so that no test schema is dropped meanwhile. */
export async function underMigrationLock<T>(engine: Engine, work: () => Promise<T>): Promise<T> {
  if (engine !== 'postgres') return work();
  return withPgClient(async (client) => {
    await client.query('select pg_advisory_lock_shared($1)', [SCHEMA_LOCK]);
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return work();
  });
}

export async function createTestApp(
  engine: Engine,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const { seed = true, realSms = false, config, integrations, ...build } = options;
  // Seeded: the platform defaults and the demo data at T0, as the template has them.
  const database = await createTestDatabase(engine, seed ? 'seeded' : 'migrated');
  const { db } = database.handle;
  const clock = testClock();
  const sms = new CapturingSms();
  let app: FastifyInstance;
  try {
    if (!seed) await ensurePlatformDefaults(db, clock());
    app = await buildApp({
      logger: false,
      instrument: checkReplies,
      ...build,
      db: database.handle,
      now: clock,
      integrations: { ...(realSms ? {} : { sms }), ...integrations },
      config: {
        dataDir: database.dataDir,
        staticDir: path.join(database.dataDir, 'no-console'),
        redisUrl: undefined,
        // A state-changing call that writes no audit row fails the test (a 500).
        auditStrict: true,
        ...config,
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }

  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    options: CallOptions = {},
  ): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.token = options.token;
    const request: InjectOptions = {
      method,
      url,
      headers,
      query: options.query,
      remoteAddress: options.remoteAddress,
    };
    if (options.payload !== undefined) {
      request.payload = options.payload;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      request.payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await app.inject(request);
    const mismatches = takeReplyMismatches();
    if (mismatches.length > 0) {
      throw new Error(`replies that do not match their route's schema:\n${mismatches.join('\n')}`);
    }
    let body: Reply<T>['body'];
    try {
      body = response.json();
    } catch {
      body = undefined as unknown as Reply<T>['body'];
    }
    return { status: response.statusCode, headers: response.headers, body, raw: response.body };
  };

  const testApp: TestApp = {
    app,
    db,
    engine,
    clock,
    sms,
    dataDir: database.dataDir,
    databaseUrl: database.databaseUrl,
    pgSchema: database.pgSchema,
    call,
    post: (url, body, token) => call('POST', api(url), { body, token }),
    get: (url, query, token) => call('GET', api(url), { query, token }),
    async login(account, password = DEMO_PASSWORD) {
      const reply = await call<{ userinfo: { token: string } }>('POST', api('/platform/login'), {
        body: { account, password },
      });
      if (reply.body?.code !== 1) throw new Error(`login ${account} failed: ${reply.raw}`);
      return reply.body.data.userinfo.token;
    },
    async user(username) {
      return db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
  return testApp;
}

export const ALL_TABLES: readonly (keyof Database)[] = [
  'users',
  'sessions',
  'audit_log',
  'domains',
  'platform_config',
  'partner_config',
  'user_config',
  'sms_codes',
  'login_throttle',
  'ledger',
  'system_accounts',
  'system_ledger',
  'idempotency_keys',
  'transfers',
  'recharge_cards',
  'card_sequences',
  'recharge_packages',
  'recharge_orders',
  'download_tickets',
  'ledger_holds',
  'ledger_hold_moves',
  'notifications',
  'articles',
  'platform_images',
];

/**
 * Every row of every table (or all but `except`), to assert that a refused call changed nothing.
 * The audit rows of refusals are left out: a refused call records that it was refused
 * (tests/server/audit.test.ts checks those rows).
 */
export async function snapshot(
  db: Db,
  except: readonly (keyof Database)[] = [],
): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of ALL_TABLES) {
    if (except.includes(table)) continue;
    const rows =
      table === 'audit_log'
        ? await db.selectFrom('audit_log').selectAll().where('result', '=', 'ok').execute()
        : await db.selectFrom(table).selectAll().execute();
    result[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return result;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
