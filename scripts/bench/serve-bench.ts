// What every bench server does (api-server.ts, resource-server.ts, video-server.ts,
// upload-server.ts): build the app on the database the load generator prepared, listen on a free
// loopback port, print `BENCH_SERVER_PORT=<port>` for the load generator, and close the app and
// its database on SIGTERM / SIGINT.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/app';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';

/** BENCH_DATA_DIR (SQLite, files under it), or BENCH_DATABASE_URL + BENCH_PG_SCHEMA. */
export function openBenchServerDatabase(): { dataDir: string; handle: DbHandle } {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const handle = openDatabase({
    dataDir,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
  });
  return { dataDir, handle };
}

/** The app without a request log or a console, on `handle`; `jobs` as buildApp takes them. */
export function buildBenchApp(
  dataDir: string,
  handle: DbHandle,
  jobs?: BuildOptions['jobs'],
): Promise<FastifyInstance> {
  return buildApp({
    db: handle,
    logger: false,
    config: { dataDir, staticDir: path.join(dataDir, 'no-console') },
    ...(jobs ? { jobs } : {}),
  });
}

/** Listens on `port` (default: a free one). */
export async function serveBench(
  app: FastifyInstance,
  handle: { close(): Promise<void> },
  port = 0,
): Promise<void> {
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  console.log(`BENCH_SERVER_PORT=${typeof address === 'object' && address ? address.port : 0}`);
  const stop = async () => {
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
