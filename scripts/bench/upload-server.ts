// The server of bench section f (scripts/bench/upload-load.ts), in its own process so that its
// memory can be read from /proc/<pid>/status: a fresh SQLite data dir (BENCH_DATA_DIR), migrated
// and seeded with the demo accounts, local disk storage. Prints `BENCH_SERVER_PORT=<port>`.
import { openDatabase } from '../../server/platform/db/connection';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { seedDemo } from '../../server/modules/demo/seed';
import { ensurePlatformDefaults } from '../../server/modules/system/service';
import { buildBenchApp, serveBench } from './serve-bench';

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const handle = openDatabase({ dataDir });
  await migrateToLatest(handle.db, handle.engine);
  await ensurePlatformDefaults(handle.db, Date.now());
  await seedDemo(handle.db, Date.now());
  const app = await buildBenchApp(dataDir, handle);
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
