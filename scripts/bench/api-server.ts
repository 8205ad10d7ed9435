// The server of bench section d, in its own process (started by scripts/bench/api-load.ts) so that
// its memory can be read from /proc/<pid>/status and the load generator does not share its thread.
// Like server/main.ts, on a database the bench prepared: BENCH_DATA_DIR (SQLite), or
// BENCH_DATABASE_URL + BENCH_PG_SCHEMA. Prints `BENCH_SERVER_PORT=<port>` once listening.
import { buildBenchApp, openBenchServerDatabase, serveBench } from './serve-bench';

async function main(): Promise<void> {
  const { dataDir, handle } = openBenchServerDatabase();
  // No request log (the bench's baseline would pay it too, hiding the lists' own cost).
  const app = await buildBenchApp(dataDir, handle);
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
