import Fastify from 'fastify';
import { loadConfig } from './platform/config';
import { createAppContext } from './app-context';
import { openDatabase } from './platform/db/connection';
import { migrateToLatest } from './platform/db/migrate';
import { loggerOptions } from './platform/http/request-log';
import { startAppWorker } from './app-jobs';
import { WAKE_MESSAGE } from './worker-process';

/**
 * `npm run worker`: a job worker alone, no HTTP — on the same database as the API (and the same
 * Redis with REDIS_URL), on this machine or another. SIGINT/SIGTERM let the running jobs finish.
 * Also `npm start`'s worker, in a child process of the API (server/worker-process.ts): the API's
 * message makes it look for jobs at once, and it leaves when the API is gone.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Fastify's logger (pino) without a server: the same log format as the API's.
  const { log } = Fastify({ logger: loggerOptions(undefined, config.logLevel) });
  const handle = openDatabase(config);
  await migrateToLatest(handle.db, handle.engine);
  const ctx = createAppContext({ config, db: handle, log });
  const { jobs } = ctx;
  const worker = startAppWorker(ctx);
  log.info(`job worker started (${jobs.adapter})`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: finishing the running jobs`);
    await jobs.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  if (process.send) {
    process.on('message', (message) => {
      if (message === WAKE_MESSAGE) worker.wake();
    });
    // The API is gone (where setpriv's parent-death signal is missing): as if killed with it.
    process.once('disconnect', () => process.exit(1));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
