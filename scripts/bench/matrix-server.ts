// A server of bench section j (started by scripts/bench/matrix-load.ts), in its own process: the
// API (WORKER=0, as `npm start`'s API, whose worker is a child process), the sandbox platform
// (SOCIAL_SANDBOX=1), or a job worker with the app's kinds (the matrix dispatcher and
// `matrix-publish` among them) at the product's default timing, on the embedded queue. It
// listens on BENCH_PORT, the port of its PUBLIC_URL: the Douyin adapter reaches the sandbox there
// over HTTP, as it would reach Douyin. On
// the database the bench prepared: BENCH_DATA_DIR (SQLite, files under it), or BENCH_DATABASE_URL
// + BENCH_PG_SCHEMA. Prints `BENCH_SERVER_PORT=<port>` once listening. With BENCH_CPU_PROFILE=<file>
// it writes a CPU profile (.cpuprofile, for Chrome's DevTools) of its whole run when stopped.
// WORKER=0: no worker (the platform's own process, or an API whose worker runs elsewhere).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startAppWorker } from '../../server/app-jobs';
import { buildBenchApp, openBenchServerDatabase, serveBench } from './serve-bench';

/** Profiles the process until SIGTERM, then writes the profile to `file` (before serveBench exits). */
async function profileTo(file: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  process.prependOnceListener('SIGTERM', () => {
    void session.post('Profiler.stop').then(({ profile }) => {
      fs.writeFileSync(file, JSON.stringify(profile));
    });
  });
}

async function main(): Promise<void> {
  if (process.env.BENCH_CPU_PROFILE) await profileTo(process.env.BENCH_CPU_PROFILE);
  const { dataDir, handle } = openBenchServerDatabase();
  const app = await buildBenchApp(dataDir, handle);
  if (process.env.WORKER !== '0') startAppWorker(app.ctx);
  await serveBench(app, handle, Number(process.env.BENCH_PORT ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
