// The server of bench section g (started by scripts/bench/resource-load.ts), in its own process
// as server/main.ts runs it: the API and an in-process job worker (the app's kinds, plus
// `bench-render`: an ffmpeg encode through runNiced, as a render task will run). On the database
// the bench prepared: BENCH_DATA_DIR (SQLite), or BENCH_DATABASE_URL + BENCH_PG_SCHEMA. Prints
// `BENCH_SERVER_PORT=<port>` once listening.
import { buildBenchApp, openBenchServerDatabase, serveBench } from './serve-bench';
import { runNiced } from '../../server/platform/jobs/child-process';
import { startAppWorker } from '../../server/app-jobs';
import { handleJob } from '../../server/platform/jobs/define-job';
import { benchRenderJob } from './bench-render-job';

/** A render's stand-in: a 720p H.264 encode of a generated clip, in a niced child process. */
const renderKind = handleJob(
  benchRenderJob,
  async (_ctx: unknown, job) => {
    const { out, seconds } = job.data;
    await runNiced(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...['-i', `testsrc2=size=1280x720:rate=30:duration=${seconds}`],
        ...['-c:v', 'libx264', '-preset', 'medium', '-threads', '1', '-pix_fmt', 'yuv420p', out],
      ],
      { signal: job.signal },
    );
  },
  { concurrency: () => 2 },
);

async function main(): Promise<void> {
  const { dataDir, handle } = openBenchServerDatabase();
  const app = await buildBenchApp(dataDir, handle, { timing: { pollMs: 200 } });
  startAppWorker(app.ctx);
  app.ctx.jobs.work([renderKind.bind(app.ctx)]);
  await serveBench(app, handle);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
