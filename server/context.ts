import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './platform/config';
import type { Engine } from './platform/db/dialect';
import type { Db } from './platform/db/schema';
import type { Jobs } from './platform/jobs/define-job';
import type { Clock } from './platform/lib/clock';
import type { Sealer } from './platform/secrets/sealed';
import type { SecretStore } from './platform/secrets/store';
import type { Integrations } from './integrations/registry';
import type { FileStore } from './platform/storage/places';

/**
 * What services need from the running app; built once by createAppContext (server/app-context.ts)
 * for the API and the worker alike, and passed down explicitly.
 */
export interface AppContext {
  db: Db;
  engine: Engine;
  config: Config;
  now: Clock;
  /**
   * Uploaded and generated files: new ones in the storage in use (the system init settings' bucket,
   * else the environment's local disk or S3), each read where it was written (places.ts).
   */
  storage: FileStore;
  log: FastifyBaseLogger;
  /** The job runner's queue (embedded, or BullMQ with REDIS_URL). */
  jobs: Jobs;
  /** The outside services (payment, SMS, digital human), chosen by configuration. */
  integrations: Integrations;
  /** The integrations' sealed secrets (`integration_settings`). */
  secrets: SecretStore;
  /**
   * Seals and opens the secrets a feature keeps in its own rows (a social account's tokens), bound
   * to table, field and row (docs/architecture.md §Secrets).
   */
  sealer: Sealer;
}

/** The caller of an authenticated route (declared by the platform's policy layer). */
export type { AuthContext } from './platform/http/policy';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
