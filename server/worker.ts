import Fastify from 'fastify';
import { loadConfig } from './platform/config';
import type { AppContext } from './context';
import { openDatabase } from './platform/db/connection';
import { migrateToLatest } from './platform/db/migrate';
import { loggerOptions } from './platform/http/request-log';
import { startAppWorker } from './app-jobs';
import { createJobQueue } from './platform/jobs/runner';
import { systemClock } from './platform/lib/clock';
import { createDigitalHumanProvider } from './integrations/digital-human';
import { createLogSmsProvider } from './integrations/sms/sms';
import { createFileStorage } from './platform/storage/create';

/**
 * `npm run worker`: a job worker alone, no HTTP — on the same database as the API (and the same
 * Redis with REDIS_URL), on this machine or another. SIGINT/SIGTERM let the running jobs finish.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Fastify's logger (pino) without a server: the same log format as the API's.
  const { log } = Fastify({ logger: loggerOptions(undefined, config.logLevel) });
  const handle = openDatabase(config);
  await migrateToLatest(handle.db, handle.engine);
  const jobs = createJobQueue({
    db: handle.db,
    engine: handle.engine,
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    log,
  });
  const ctx: AppContext = {
    db: handle.db,
    engine: handle.engine,
    config,
    now: systemClock,
    sms: createLogSmsProvider(config.dataDir, log),
    storage: createFileStorage(config, systemClock),
    log,
    jobs,
    digitalHuman: createDigitalHumanProvider(config),
  };
  startAppWorker(ctx);
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
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
