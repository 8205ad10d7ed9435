import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../src/api/contract/roles';
import type { Config } from './config';
import type { Engine } from './db/dialect';
import type { Db, SessionRow, UserRow } from './db/schema';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import type { DigitalHumanProvider } from './providers/digital-human/types';
import type { SmsProvider } from './providers/sms';
import type { FileStorage } from './storage/storage';

/** What services need from the running app; built once in buildApp and passed down explicitly. */
export interface AppContext {
  db: Db;
  engine: Engine;
  config: Config;
  now: Clock;
  sms: SmsProvider;
  /** Uploaded and generated files (local disk or S3-compatible storage). */
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** The job runner's queue (embedded, or BullMQ with REDIS_URL). */
  jobs: JobQueue;
  /** The digital human's AI provider (embedded, or an HTTP vendor: `DH_PROVIDER`). */
  digitalHuman: DigitalHumanProvider;
}

/** The caller of an authenticated route. */
export interface AuthContext {
  user: UserRow;
  role: Role;
  session: SessionRow;
}
