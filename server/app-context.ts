import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context';
import type { Config } from './platform/config';
import type { DbHandle } from './platform/db/connection';
import type { RunnerTiming } from './platform/jobs/queue';
import { createJobQueue } from './platform/jobs/runner';
import { systemClock, type Clock } from './platform/lib/clock';
import { loadSecretKeys } from './platform/secrets/keys';
import { createSealer } from './platform/secrets/sealed';
import { createSecretStore } from './platform/secrets/store';
import { createFileStorage } from './platform/storage/create';
import { createFileStore } from './platform/storage/places';
import type { FileStorage } from './platform/storage/storage';
import { createIntegrations, type Integrations } from './integrations/registry';
import type { Deliver } from './integrations/payment';

export interface ContextOptions {
  config: Config;
  db: DbHandle;
  log: FastifyBaseLogger;
  /** The clock (tests move time). */
  now?: Clock;
  /** The environment's file storage (default: the configured one, local disk or S3). */
  storage?: FileStorage;
  /** How long another process's storage settings may go unseen (PostgreSQL; tests shorten it). */
  storagePlaceTtlMs?: number;
  /** Integrations to use instead of the configured ones (tests: fakes). */
  integrations?: Partial<Integrations>;
  /** How the payment sandbox reaches the API (the API process: `app.inject`). */
  deliverPayment?: Deliver;
  /** The job runner's timing and (BullMQ) Redis key prefix (tests). */
  jobs?: { timing?: Partial<RunnerTiming>; prefix?: string; onEnqueue?: () => void };
}

/**
 * The app's context, built the same way for the API (server/app.ts) and `npm run worker`
 * (server/worker.ts). The caller closes `ctx.jobs` (its workers and connections) before the
 * database. Fails at once on a bad SECRETS_KEY(S).
 */
export function createAppContext(options: ContextOptions): AppContext {
  const { config, db: handle, log } = options;
  const now = options.now ?? systemClock;
  const { keys, source } = loadSecretKeys(config);
  const sealer = createSealer(keys, source);
  const secrets = createSecretStore(handle.db, sealer);
  const storage = createFileStore({
    db: handle.db,
    secrets,
    sealer,
    environment: options.storage ?? createFileStorage(config, now),
    environmentS3: options.storage ? undefined : config.s3,
    now,
    ttlMs: options.storagePlaceTtlMs,
  });
  const integrations = createIntegrations(
    { config, log, secrets, deliverPayment: options.deliverPayment, now },
    options.integrations,
  );
  // Last: the queue holds connections (BullMQ), which nothing before may leave open by throwing.
  const jobs = createJobQueue({
    db: handle.db,
    engine: handle.engine,
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    timing: { pollMs: config.jobsPollMs },
    ...options.jobs,
    log,
  });
  return {
    db: handle.db,
    engine: handle.engine,
    config,
    now,
    storage,
    log,
    jobs,
    secrets,
    sealer,
    integrations,
  };
}
