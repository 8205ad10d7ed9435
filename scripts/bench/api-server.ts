// The server of bench section d, in its own process (started by scripts/bench/api-load.ts) so that
// its memory can be read from /proc/<pid>/status and the load generator does not share its thread.
// Like server/main.ts, on a database the bench prepared: BENCH_DATA_DIR (SQLite), or
// BENCH_DATABASE_URL + BENCH_PG_SCHEMA. Prints `BENCH_SERVER_PORT=<port>` once listening.
import path from 'node:path';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/connection';
import { serveBench } from './serve-bench';

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const handle = openDatabase({
    dataDir,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
  });
  // No request log (the bench's baseline would pay it too, hiding the lists' own cost).
  const app = await buildApp({
    db: handle,
    logger: false,
    config: { dataDir, staticDir: path.join(dataDir, 'no-console') },
  });
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
