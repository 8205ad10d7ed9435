// What the load generators of bench sections d, f, g and h share (api-load.ts, upload-load.ts,
// resource-load.ts, video-load.ts): their own database (a temp SQLite file, or a private schema on
// PostgreSQL with BENCH_DATABASE_URL) migrated and seeded with the demo data, the real server in a
// child process (a scripts/bench/*-server.ts that prints `BENCH_SERVER_PORT=<port>`), and a login.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { nicedCommand } from '../../server/platform/jobs/child-process';
import { DEMO_PASSWORD, seedDemo } from '../../server/modules/demo/seed';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import type { ApiClient } from './http-load';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BenchDatabaseBase {
  handle: DbHandle;
  dataDir: string;
  /** PostgreSQL: the server URL and the private schema. */
  pgUrl?: string;
  pgSchema?: string;
  /** Closes the database, drops the private schema and removes the data dir. */
  cleanup(): Promise<void>;
}

async function pgQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Opens the bench's own database (data dir `<tmp>/<prefix>…`), migrates it, adds the platform
 * defaults and the demo data, then `fill` (given the same `now`) adds the bench's data; cleaned
 * up when any of it fails.
 */
export async function openBenchDatabase<T extends object>(
  prefix: string,
  fill: (handle: DbHandle, now: number, dataDir: string) => Promise<T>,
): Promise<BenchDatabaseBase & T> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
  const pgSchema = pgUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  if (pgUrl) await pgQuery(pgUrl, `create schema ${pgSchema}`);
  const handle = openDatabase({ dataDir, databaseUrl: pgUrl, pgSchema });
  const cleanup = async () => {
    await handle.close().catch(() => undefined);
    if (pgUrl) await pgQuery(pgUrl, `drop schema if exists ${pgSchema} cascade`);
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    const now = Date.now();
    await migrateToLatest(handle.db, handle.engine);
    await ensurePlatformDefaults(handle.db, now);
    await seedDemo(handle.db, now);
    const filled = await fill(handle, now, dataDir);
    return { ...filled, handle, dataDir, pgUrl, pgSchema, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The environment a bench server reads its database from (see serve-bench.ts). */
export function benchServerEnv(bench: BenchDatabaseBase): Record<string, string> {
  return {
    BENCH_DATA_DIR: bench.dataDir,
    BENCH_DATABASE_URL: bench.pgUrl ?? '',
    BENCH_PG_SCHEMA: bench.pgSchema ?? '',
  };
}

export interface BenchServer {
  /** `http://127.0.0.1:<port>` followed by `basePath`. */
  base: string;
  pid: number;
  /** SIGTERM, SIGKILL after 5 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `scripts/bench/<script>` in a child process (with `env` over this process's) and waits,
 * at most 60 s, for the port it prints.
 */
export async function startBenchServer(
  script: string,
  env: Record<string, string>,
  basePath = '/api/v1',
  /** Started at this niceness more than ours, every thread of it (as npm start's worker). */
  niceness = 0,
): Promise<BenchServer> {
  const node = [process.execPath, '--import', 'tsx', path.join(root, 'scripts', 'bench', script)];
  const [program, ...args] = niceness > 0 ? nicedCommand(node, niceness) : node;
  const child: ChildProcess = spawn(program, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^BENCH_SERVER_PORT=(\d+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return {
    base: `http://127.0.0.1:${port}${basePath}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Logs a demo account in (DEMO_PASSWORD); its token. */
export async function loginAs(client: ApiClient, account: string): Promise<string> {
  const { json } = await client.call<{ userinfo: { token: string } }>('POST', '/platform/login', {
    body: { account, password: DEMO_PASSWORD },
  });
  if (json.code !== 1) throw new Error(`login ${account}: ${json.msg}`);
  return json.data.userinfo.token;
}
