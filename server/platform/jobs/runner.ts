import type { Engine } from '../db/dialect';
import type { Db } from '../db/schema';
import { createBullQueue } from './bullmq';
import { createEmbeddedQueue, type RunnerLog } from './embedded';
import { typedJobs, type Jobs } from './define-job';
import type { RunnerTiming } from './queue';

export interface RunnerOptions {
  db: Db;
  engine: Engine;
  /** BullMQ on this Redis; without it the embedded queue in the app's database. */
  redisUrl?: string;
  /** BullMQ: prefix of its Redis keys. */
  prefix?: string;
  timing?: Partial<RunnerTiming>;
  log?: RunnerLog;
  /** Embedded: called after jobs are added (wakes a worker in another process). */
  onEnqueue?: () => void;
}

/** The app's job queue: BullMQ when REDIS_URL is set, else embedded in the app's database. */
export function createJobQueue(options: RunnerOptions): Jobs {
  const { redisUrl, prefix, timing, log, onEnqueue } = options;
  return typedJobs(
    redisUrl
      ? createBullQueue({ url: redisUrl, prefix, timing, log })
      : createEmbeddedQueue({ db: options.db, engine: options.engine, timing, log, onEnqueue }),
  );
}
