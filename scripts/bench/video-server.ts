// The server of bench section h (started by scripts/bench/video-load.ts), in its own process as
// server/main.ts runs it: the API and the in-process job worker with the app's kinds (the video
// output renders among them) at the product's default timing. On the database the bench prepared:
// BENCH_DATA_DIR (SQLite, files under it), or BENCH_DATABASE_URL + BENCH_PG_SCHEMA. The render
// preset comes from the environment (VIDEO_RENDER_PRESET) as in production. Prints
// `BENCH_SERVER_PORT=<port>` once listening.
import { startAppWorker } from '../../server/app-jobs';
import { buildBenchApp, openBenchServerDatabase, serveBench } from './serve-bench';

async function main(): Promise<void> {
  const { dataDir, handle } = openBenchServerDatabase();
  const app = await buildBenchApp(dataDir, handle);
  startAppWorker(app.ctx);
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
