import { buildApp } from './app';
import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db/connection';
import { prepareDatabase } from './prepare';
import { startWorkerProcess, type WorkerProcess } from './worker-process';
import { seedDemoClones } from './modules/demo';
import { seedDemoMedia } from './modules/demo';

/**
 * `npm start` / `npm run server`: migrate, seed (demo) or create the first admin, then serve
 * console + API, with a job worker in a child process unless WORKER=0 (server/worker-process.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase(config);
  let workers: WorkerProcess[] = [];
  const app = await buildApp({
    config,
    db: handle,
    jobs: { onEnqueue: () => workers.forEach((worker) => worker.wake()) },
  });
  const stopWorkers = () => Promise.all(workers.map((worker) => worker.stop()));
  try {
    if ((await prepareDatabase(handle, config, app.log)) && config.demoMedia) {
      await seedDemoMedia(app.ctx, app.log);
      await seedDemoClones(app.ctx, app.log);
    }
    // After the migrations: the embedded queue's table must exist.
    if (config.worker) {
      workers = Array.from({ length: config.workerProcesses }, () => startWorkerProcess(app.log));
    }
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await stopWorkers();
    await app.close();
    await handle.close();
    throw error;
  }
  console.log(`listening on http://${config.host}:${config.port}`);
  app.log.info(
    `jobs: ${app.ctx.jobs.adapter}, ${config.worker ? `${workers.length} worker process(es)` : 'no worker (WORKER=0)'}`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await stopWorkers();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
