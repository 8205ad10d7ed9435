// The server of bench section h (started by scripts/bench/video-load.ts), in its own process as
// server/main.ts runs it: the API and the in-process job worker with the app's kinds (the video
// output renders among them) at the product's default timing. On the database the bench prepared:
// BENCH_DATA_DIR (SQLite, files under it), or BENCH_DATABASE_URL + BENCH_PG_SCHEMA. The render
// preset comes from the environment (VIDEO_RENDER_PRESET) as in production. Prints
// `BENCH_SERVER_PORT=<port>` once listening.
import path from 'node:path';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/connection';
import { startAppWorker } from '../../server/jobs/kinds';
import { serveBench } from './serve-bench';

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const handle = openDatabase({
    dataDir,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
  });
  const app = await buildApp({
    db: handle,
    logger: false,
    config: { dataDir, staticDir: path.join(dataDir, 'no-console') },
  });
  startAppWorker(app.ctx);
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
