import { z } from 'zod';
import type {
  EnqueueOptions,
  JobInfo,
  JobKind,
  JobQueue,
  JobWorker,
  KindCounts,
  RunningJob,
} from './queue';

/**
 * A failure running again cannot fix: the runner fails the job at once, whatever attempts are
 * left (a job whose stored data fails its schema, or a handler that knows its input is broken).
 */
export class PermanentJobFailure extends Error {
  override name = 'PermanentJobFailure';
}

/**
 * One kind of job, declared by the feature module that owns it (docs/architecture.md §The path of a job): its
 * name, the zod schema of its data and how often it may run. Modules enqueue with
 * `ctx.jobs.enqueue(definition, data)`, so an undeclared kind or the wrong data does not compile;
 * what runs it is bound apart ({@link handleJob}), so that enqueuing code never imports the
 * handler's (no import cycles between a use case and its job).
 */
export interface JobDefinition<D> {
  readonly kind: string;
  readonly data: z.ZodType<D>;
  /** Runs at most this many times in all (default 1: no retry). */
  readonly attempts?: number;
  /** The first retry waits this long, each next one twice as long. */
  readonly backoffMs?: number;
}

/** Declares a kind of job whose data `schema` checks. */
export function defineJob<D>(
  kind: string,
  schema: z.ZodType<D>,
  options: Pick<JobDefinition<D>, 'attempts' | 'backoffMs'> = {},
): JobDefinition<D> {
  return { kind, data: schema, ...options };
}

/**
 * What runs one kind of job, for the app to register with the runner (server/app-jobs.ts). `C`
 * is the context the handler gets (the app's; the platform does not know it).
 */
export interface JobHandler<C> {
  readonly kind: string;
  /** Binds it to the context: the runner's kind (its data checked against the schema first). */
  bind(ctx: C, options?: { everyMs?: number }): JobKind<unknown>;
}

/**
 * Handles jobs of a declared kind with `run`. A job whose stored data fails the schema fails at
 * once, with the reason, instead of running.
 */
export function handleJob<D, C>(
  def: JobDefinition<D>,
  run: (ctx: C, job: RunningJob<D>) => Promise<void>,
  options: {
    concurrency?: (ctx: C) => number;
    /** Called when a worker takes the kind on (e.g. to warm a cache before the first job). */
    start?: (ctx: C) => void;
  } = {},
): JobHandler<C> {
  return {
    kind: def.kind,
    bind: (ctx) => {
      options.start?.(ctx);
      return {
        kind: def.kind,
        concurrency: options.concurrency?.(ctx),
        handler: async (job) => {
          const parsed = def.data.safeParse(job.data);
          if (!parsed.success) {
            throw new PermanentJobFailure(
              `the stored data of this ${def.kind} job fails its schema: ${z.prettifyError(parsed.error)}`,
            );
          }
          await run(ctx, { ...job, data: parsed.data });
        },
      };
    },
  };
}

/**
 * A recurring job (no data): `run` once every `everyMs` (a number, or read from the context: a
 * setting), however many workers run.
 */
export function recurringJob<C>(
  kind: string,
  everyMs: number | ((ctx: C) => number),
  run: (ctx: C) => Promise<void>,
): JobHandler<C> {
  return {
    kind,
    bind: (ctx, options = {}) => ({
      kind,
      everyMs: options.everyMs ?? (typeof everyMs === 'function' ? everyMs(ctx) : everyMs),
      handler: () => run(ctx),
    }),
  };
}

/** The typed face of the job queue that features use (`ctx.jobs`). */
export interface Jobs {
  readonly adapter: JobQueue['adapter'];
  /** Adds a job of a declared kind with its data; resolves to its id. */
  enqueue<D>(def: JobDefinition<D>, data: NoInfer<D>, options?: EnqueueOptions): Promise<string>;
  /** Adds many jobs of a kind at once (one write: a burst of due work); resolves to their ids. */
  enqueueMany<D>(
    def: JobDefinition<D>,
    data: readonly NoInfer<D>[],
    options?: EnqueueOptions,
  ): Promise<string[]>;
  get(id: string): Promise<JobInfo | undefined>;
  /** See {@link JobQueue.cancel}. */
  cancel(id: string): Promise<boolean>;
  stats(kinds: readonly string[]): Promise<KindCounts[]>;
  /** Starts a worker for these kinds (bound handlers) on this queue. */
  work(kinds: readonly JobKind<unknown>[]): JobWorker;
  /** Closes the workers it started and its connections. */
  close(): Promise<void>;
}

/** The typed face over a queue adapter (embedded or BullMQ). */
export function typedJobs(queue: JobQueue): Jobs {
  return {
    adapter: queue.adapter,
    enqueue: async (def, data, options = {}) =>
      queue.enqueue(def.kind, def.data.parse(data), {
        attempts: def.attempts,
        backoffMs: def.backoffMs,
        ...options,
      }),
    enqueueMany: async (def, data, options = {}) =>
      queue.enqueueMany(
        def.kind,
        data.map((d) => def.data.parse(d)),
        { attempts: def.attempts, backoffMs: def.backoffMs, ...options },
      ),
    get: (id) => queue.get(id),
    cancel: (id) => queue.cancel(id),
    stats: (kinds) => queue.stats(kinds),
    work: (kinds) => queue.work(kinds),
    close: () => queue.close(),
  };
}
