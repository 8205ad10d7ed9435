/**
 * The job runner's one interface (docs/architecture.md rule 7). Two adapters implement
 * it: embedded (jobs in the app's own database, server/platform/jobs/embedded.ts), the default, and BullMQ
 * on Redis (server/platform/jobs/bullmq.ts) when `REDIS_URL` is set. The same job kinds (handlers) run on
 * both. State that users see (a task's status and outputs) belongs in the app's own tables, not
 * only in the queue.
 */

export const JOB_STATES = [
  'waiting',
  'delayed',
  'active',
  'completed',
  'failed',
  'cancelled',
] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface EnqueueOptions {
  /** Run no sooner than this many ms from now. */
  delayMs?: number;
  /** Lower runs first; 0 (default) before any prioritised job, as in BullMQ. */
  priority?: number;
  /** Runs at most this many times in all (default 1: no retry). */
  attempts?: number;
  /** The first retry waits this long, each next one twice as long (default 1 s). */
  backoffMs?: number;
}

/** A job as its handler sees it. */
export interface RunningJob<D = unknown> {
  id: string;
  kind: string;
  data: D;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
  /** The runs it may have in all: `attempt === maxAttempts` is its last. */
  maxAttempts: number;
  /** Aborted when the job is cancelled or its lease is lost: stop and throw (or return). */
  signal: AbortSignal;
  /** Reports progress, 0–100. */
  progress(percent: number): Promise<void>;
}

/** One kind of job: its handler and how it runs. */
export interface JobKind<D = unknown> {
  kind: string;
  handler: (job: RunningJob<D>) => Promise<void>;
  /** Jobs of this kind one worker runs at once (default 1). */
  concurrency?: number;
  /** A recurring job: one run every this many ms, however many workers run. */
  everyMs?: number;
}

export interface JobInfo {
  id: string;
  kind: string;
  state: JobState;
  progress: number;
  /** Runs started so far. */
  attempts: number;
  /** The last failure's message. */
  error: string | null;
}

export type KindCounts = { kind: string } & Record<JobState, number>;

/** The worker side: claims and runs jobs of its kinds until closed. */
export interface JobWorker {
  /** Looks for due jobs now: another process added some (embedded; BullMQ hears it from Redis). */
  wake(): void;
  /** Stops taking jobs and waits for the ones running. */
  close(): Promise<void>;
}

export interface JobQueue {
  readonly adapter: 'embedded' | 'bullmq';
  /** Adds a job; resolves to its id. */
  enqueue(kind: string, data: unknown, options?: EnqueueOptions): Promise<string>;
  /** Adds jobs of one kind with the same options at once (one write); resolves to their ids. */
  enqueueMany(kind: string, data: readonly unknown[], options?: EnqueueOptions): Promise<string[]>;
  get(id: string): Promise<JobInfo | undefined>;
  /**
   * A waiting or delayed job never runs; a running one is asked to stop (its signal aborts) and
   * ends cancelled. False when the job is missing or already finished.
   */
  cancel(id: string): Promise<boolean>;
  /** Counts per kind and state (these kinds, and any other the queue holds). */
  stats(kinds: readonly string[]): Promise<KindCounts[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
  work(kinds: readonly JobKind<any>[]): JobWorker;
  /** Closes the workers it started and its connections. */
  close(): Promise<void>;
}

/** Timing of the runner (tests shorten it). */
export interface RunnerTiming {
  /** How long a claimed job is held without renewal (BullMQ: lockDuration). Default 30 s. */
  leaseMs: number;
  /** Embedded: how often an idle worker looks for due jobs. Default 1 s. */
  pollMs: number;
}

export const DEFAULT_TIMING: RunnerTiming = { leaseMs: 30_000, pollMs: 1_000 };

export const DEFAULT_BACKOFF_MS = 1_000;

/** The wait before retry `n` (1 = the first retry): `backoffMs · 2^(n-1)`. */
export function backoffDelay(backoffMs: number, retry: number): number {
  return backoffMs * 2 ** (retry - 1);
}

/** The message of what a handler threw. */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

export const emptyCounts = (kind: string): KindCounts => ({
  kind,
  waiting: 0,
  delayed: 0,
  active: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
});
