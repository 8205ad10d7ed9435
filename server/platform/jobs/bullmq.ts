import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { PermanentJobFailure } from './define-job';
import type { RunnerLog } from './embedded';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_TIMING,
  emptyCounts,
  type EnqueueOptions,
  type JobInfo,
  type JobKind,
  type JobQueue,
  type JobState,
  type JobWorker,
  type RunnerTiming,
} from './queue';

export interface BullOptions {
  url: string;
  /** Prefix of every Redis key (several apps or test files share one Redis). */
  prefix?: string;
  timing?: Partial<RunnerTiming>;
  log?: RunnerLog;
}

const KEEP_FINISHED_S = 7 * 24 * 3600;
const CANCELLED = 'cancelled';

/**
 * The BullMQ 6 adapter (REDIS_URL): one BullMQ queue per job kind (a Worker runs one queue, so
 * concurrency is per kind), ids `kind/bullmqId`. Workers in any number of processes or machines
 * share the queues; a worker killed mid-job loses its lock and BullMQ's stalled-job check gives
 * the job to another (`maxStalledCount: 1`, as the embedded adapter). A recurring kind is a job
 * scheduler (v6: no repeatable jobs), one job per tick whatever the number of workers.
 *
 * BullMQ has no cancelled state: a waiting job is removed and remembered by a marker key; a
 * running one is aborted through its worker (a message on a Redis channel reaches every
 * worker) and fails with the reason "cancelled".
 */
/** BullMQ's options for ours. */
function jobOptions(opts: EnqueueOptions) {
  return {
    delay: Math.max(0, opts.delayMs ?? 0),
    ...(opts.priority ? { priority: opts.priority } : {}),
    attempts: Math.max(1, opts.attempts ?? 1),
    backoff: { type: 'exponential', delay: Math.max(0, opts.backoffMs ?? DEFAULT_BACKOFF_MS) },
    removeOnComplete: { age: KEEP_FINISHED_S },
    removeOnFail: { age: KEEP_FINISHED_S },
  };
}

export function createBullQueue(options: BullOptions): JobQueue {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const prefix = options.prefix ?? 'vc';
  const log = options.log;
  // Workers need `maxRetriesPerRequest: null` (their blocking commands wait indefinitely).
  const connection = new Redis(options.url, { maxRetriesPerRequest: null });
  const queues = new Map<string, Queue>();
  const workers = new Set<JobWorker>();
  const channel = `${prefix}:jobs:cancel`;
  const markerKey = (kind: string, jobId: string) => `${prefix}:jobs:cancelled:${kind}:${jobId}`;
  const cancelledCount = (kind: string) => `${prefix}:jobs:cancelled-count:${kind}`;

  function queueOf(kind: string): Queue {
    let queue = queues.get(kind);
    if (!queue) {
      queue = new Queue(kind, { connection, prefix });
      queues.set(kind, queue);
    }
    return queue;
  }

  function parseId(id: string): [kind: string, jobId: string] | undefined {
    const slash = id.indexOf('/');
    return slash > 0 && slash < id.length - 1
      ? [id.slice(0, slash), id.slice(slash + 1)]
      : undefined;
  }

  async function findJob(id: string): Promise<[string, string, Job | undefined] | undefined> {
    const parsed = parseId(id);
    if (!parsed) return undefined;
    const [kind, jobId] = parsed;
    return [kind, jobId, (await queueOf(kind).getJob(jobId)) as Job | undefined];
  }

  return {
    adapter: 'bullmq',

    async enqueue(kind, data, opts = {}) {
      const job = await queueOf(kind).add(kind, data ?? null, jobOptions(opts));
      return `${kind}/${job.id}`;
    },

    async enqueueMany(kind, data, opts = {}) {
      if (data.length === 0) return [];
      const jobs = await queueOf(kind).addBulk(
        data.map((d) => ({ name: kind, data: d ?? null, opts: jobOptions(opts) })),
      );
      return jobs.map((job) => `${kind}/${job.id}`);
    },

    async get(id): Promise<JobInfo | undefined> {
      const found = await findJob(id);
      if (!found) return undefined;
      const [kind, jobId, job] = found;
      const marked = (await connection.exists(markerKey(kind, jobId))) === 1;
      if (!job) {
        return marked
          ? { id, kind, state: 'cancelled', progress: 0, attempts: 0, error: null }
          : undefined;
      }
      const raw = await job.getState();
      if (raw === 'unknown') return undefined;
      let state: JobState =
        raw === 'prioritized' || raw === 'waiting-children' ? 'waiting' : (raw as JobState);
      if (state === 'failed' && job.failedReason === CANCELLED) state = 'cancelled';
      return {
        id,
        kind,
        state,
        progress: typeof job.progress === 'number' ? job.progress : 0,
        attempts: job.attemptsStarted ?? job.attemptsMade,
        error: job.failedReason || null,
      };
    },

    async cancel(id) {
      const found = await findJob(id);
      if (!found) return false;
      const [kind, jobId, job] = found;
      if (!job) return false;
      const marker = markerKey(kind, jobId);
      // Set first: a worker that takes the job from now on sees it before running the handler.
      if ((await connection.set(marker, '1', 'EX', KEEP_FINISHED_S, 'NX')) !== 'OK') return false;
      const state = await job.getState();
      if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
        try {
          await job.remove();
          await connection.incr(cancelledCount(kind));
          return true;
        } catch {
          // taken by a worker meanwhile: cancel it there
        }
      }
      if ((await job.getState()) === 'active') {
        await connection.publish(channel, id);
        await connection.incr(cancelledCount(kind));
        return true;
      }
      await connection.del(marker);
      return false;
    },

    async stats(kinds) {
      const names = new Set([...kinds, ...queues.keys()]);
      const result = [];
      for (const kind of [...names].sort()) {
        const counts = await queueOf(kind).getJobCounts(
          'waiting',
          'prioritized',
          'waiting-children',
          'delayed',
          'active',
          'completed',
          'failed',
        );
        const cancelled = Number((await connection.get(cancelledCount(kind))) ?? 0);
        result.push({
          ...emptyCounts(kind),
          waiting:
            (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts['waiting-children'] ?? 0),
          delayed: counts.delayed ?? 0,
          active: counts.active ?? 0,
          completed: counts.completed ?? 0,
          failed: counts.failed ?? 0,
          cancelled,
        });
      }
      return result;
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
    work(kinds: readonly JobKind<any>[]) {
      const subscriber = connection.duplicate();
      const byKind = new Map<string, Worker>();
      for (const kind of kinds) {
        const worker = new Worker(
          kind.kind,
          async (job: Job, _token?: string, signal?: AbortSignal) => {
            const id = `${kind.kind}/${job.id}`;
            const cancelled = async () =>
              (await connection.exists(markerKey(kind.kind, job.id!))) === 1;
            if (await cancelled()) throw new UnrecoverableError(CANCELLED);
            const abort = signal ?? new AbortController().signal;
            try {
              await kind.handler({
                id,
                kind: kind.kind,
                data: job.data,
                attempt: job.attemptsStarted ?? job.attemptsMade + 1,
                maxAttempts: job.opts.attempts ?? 1,
                signal: abort,
                progress: async (percent) => {
                  await job.updateProgress(Math.max(0, Math.min(100, Math.round(percent))));
                },
              });
            } catch (error) {
              if (abort.aborted && (await cancelled())) throw new UnrecoverableError(CANCELLED);
              if (error instanceof PermanentJobFailure) throw new UnrecoverableError(error.message);
              throw error;
            }
            if (abort.aborted && (await cancelled())) throw new UnrecoverableError(CANCELLED);
          },
          {
            connection,
            prefix,
            concurrency: kind.concurrency ?? 1,
            lockDuration: timing.leaseMs,
            stalledInterval: Math.max(500, Math.round(timing.leaseMs / 2)),
            maxStalledCount: 1,
          },
        );
        worker.on('error', (error) =>
          log?.error({ err: error }, 'job runner: BullMQ worker error'),
        );
        byKind.set(kind.kind, worker);
      }
      const ready = (async () => {
        await subscriber.subscribe(channel);
        subscriber.on('message', (_channel: string, id: string) => {
          const parsed = parseId(id);
          if (parsed) byKind.get(parsed[0])?.cancelJob(parsed[1], CANCELLED);
        });
        for (const kind of kinds) {
          if (!kind.everyMs) continue;
          await queueOf(kind.kind).upsertJobScheduler(
            kind.kind,
            { every: kind.everyMs },
            {
              name: kind.kind,
              data: {},
              opts: {
                removeOnComplete: { age: KEEP_FINISHED_S },
                removeOnFail: { age: KEEP_FINISHED_S },
              },
            },
          );
        }
      })();
      ready.catch((error: unknown) =>
        log?.error({ err: error }, 'job runner: BullMQ start-up failed'),
      );
      const handle: JobWorker = {
        // Redis tells BullMQ's workers of new jobs itself.
        wake: () => undefined,
        async close() {
          await ready.catch(() => undefined);
          await Promise.all([...byKind.values()].map((worker) => worker.close()));
          subscriber.disconnect();
          workers.delete(handle);
        },
      };
      workers.add(handle);
      return handle;
    },

    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      await connection.quit();
    },
  };
}
