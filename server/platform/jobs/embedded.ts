import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Engine } from '../db/dialect';
import type { Database, Db, Executor } from '../db/schema';
import { writeRelaxed } from '../db/transaction';
import {
  backoffDelay,
  DEFAULT_BACKOFF_MS,
  DEFAULT_TIMING,
  emptyCounts,
  errorText,
  type EnqueueOptions,
  type JobInfo,
  type JobKind,
  type JobQueue,
  type JobState,
  type JobWorker,
  type KindCounts,
  type RunnerTiming,
} from './queue';
import { sql, type ExpressionBuilder } from 'kysely';
import { PermanentJobFailure } from './define-job';

/** What the runner logs: its own failures (a lost database connection), never a job's data. */
export interface RunnerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EmbeddedOptions {
  db: Db;
  engine: Engine;
  timing?: Partial<RunnerTiming>;
  log?: RunnerLog;
  /** Called after jobs are added, for workers in other processes (server/worker-process.ts). */
  onEnqueue?: () => void;
}

/** A job whose worker died this many times is failed instead of re-queued (BullMQ's default). */
const MAX_STALLS = 1;
/** Finished jobs are kept this long (stats, a look at what failed), then deleted. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

const silentLog: RunnerLog = { warn: () => undefined, error: () => undefined };

function rowState(state: string, runAt: number, now: number): JobState {
  return state === 'waiting' && runAt > now ? 'delayed' : (state as JobState);
}

function numericId(id: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined;
}

/**
 * The embedded adapter: jobs are rows of the `jobs` table in the app's own database (SQLite or
 * PostgreSQL, through Kysely). Any number of workers, in this process or others on the same
 * database, claim jobs with one conditional update each (on PostgreSQL `for update skip locked`,
 * on SQLite one writer at a time), hold them by a lease renewed while the handler runs, and a
 * reaper in every worker re-queues the jobs whose lease ran out (their worker died).
 */
export function createEmbeddedQueue(options: EmbeddedOptions): JobQueue {
  const { db, engine } = options;
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const log = options.log ?? silentLog;
  const workers = new Set<EmbeddedWorker>();

  const jobRow = (
    kind: string,
    data: unknown,
    opts: EnqueueOptions,
    now: number,
    uniqueKey?: string,
  ) => ({
    kind,
    data: JSON.stringify(data ?? null),
    state: 'waiting',
    priority: opts.priority ?? 0,
    run_at: now + Math.max(0, opts.delayMs ?? 0),
    max_attempts: Math.max(1, opts.attempts ?? 1),
    backoff_ms: Math.max(0, opts.backoffMs ?? DEFAULT_BACKOFF_MS),
    unique_key: uniqueKey ?? null,
    created_at: now,
    locked_by: null,
    locked_until: null,
    last_error: null,
    finished_at: null,
  });

  async function insertJob(
    kind: string,
    data: unknown,
    opts: EnqueueOptions,
    uniqueKey?: string,
  ): Promise<number | undefined> {
    const query = db.insertInto('jobs').values(jobRow(kind, data, opts, Date.now(), uniqueKey));
    const row = await (
      uniqueKey ? query.onConflict((oc) => oc.column('unique_key').doNothing()) : query
    )
      .returning('id')
      .executeTakeFirst();
    wakeWorkers();
    return row?.id;
  }

  function wakeWorkers() {
    for (const worker of workers) worker.wake();
    options.onEnqueue?.();
  }

  /** Rows per insert of `enqueueMany`: well under the engines' bound-parameter limits. */
  const INSERT_CHUNK = 200;

  async function insertJobs(kind: string, data: readonly unknown[], opts: EnqueueOptions) {
    const now = Date.now();
    const ids = await db.transaction().execute(async (trx) => {
      const out: number[] = [];
      for (let i = 0; i < data.length; i += INSERT_CHUNK) {
        const rows = await trx
          .insertInto('jobs')
          .values(data.slice(i, i + INSERT_CHUNK).map((d) => jobRow(kind, d, opts, now)))
          .returning('id')
          .execute();
        out.push(...rows.map((r) => r.id));
      }
      return out;
    });
    wakeWorkers();
    return ids;
  }

  /**
   * Which of `kinds` have a due waiting job: one read before any claim. A worker looks each time a
   * job ends, and on SQLite an update that finds nothing still takes the write lock (0.3 ms; 7 600
   * of them while 500 posts were published, bench j); a read per kind was 15 reads a post.
   */
  async function dueKinds(kinds: readonly string[]): Promise<Set<string>> {
    if (kinds.length === 0) return new Set();
    const rows = await db
      .selectFrom('jobs')
      .select('kind')
      .distinct()
      .where('kind', 'in', kinds)
      .where('state', '=', 'waiting')
      .where('run_at', '<=', Date.now())
      .execute();
    return new Set(rows.map((r) => r.kind));
  }

  /** Takes up to `count` due waiting jobs of `kind` for `workerId` in one write (maybe none). */
  async function claim(kind: string, workerId: string, count: number) {
    const now = Date.now();
    const next = db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('state', '=', 'waiting')
      .where('run_at', '<=', now)
      .orderBy('priority')
      .orderBy('run_at')
      .orderBy('id')
      .limit(count)
      .$if(engine === 'postgres', (q) => q.forUpdate().skipLocked());
    // Relaxed: a claim undone by a power failure is a worker that died holding the job.
    const rows = await writeRelaxed(db, engine, (trx) =>
      trx
        .updateTable('jobs')
        .set((eb) => ({
          state: 'active',
          locked_by: workerId,
          locked_until: now + timing.leaseMs,
          attempts_made: eb('attempts_made', '+', 1),
        }))
        // PostgreSQL may run an `in (…)` subquery more than once (each run skipping the rows the
        // last one locked: more than `count` rows); an array of its ids is made once.
        .where(
          engine === 'postgres'
            ? sql<boolean>`id = any(array(${next}))`
            : sql<boolean>`id in (${next})`,
        )
        .where('state', '=', 'waiting')
        .returningAll()
        .execute(),
    );
    // In the queue's order (RETURNING keeps none).
    return rows.sort(
      (a, b) => a.priority - b.priority || a.run_at - b.run_at || Number(a.id) - Number(b.id),
    );
  }

  /** Puts back the jobs whose lease ran out (their worker died or hung); deletes old ones. */
  let lastPurge = 0;
  async function reap(): Promise<void> {
    const now = Date.now();
    const expired = db
      .updateTable('jobs')
      .where('state', '=', 'active')
      .where('locked_until', '<', now);
    await expired
      .where('cancel_requested', '=', 1)
      .set({ state: 'cancelled', locked_by: null, locked_until: null, finished_at: now })
      .execute();
    await expired
      .set((eb) => ({
        state: eb.case().when('stalls', '>=', MAX_STALLS).then('failed').else('waiting').end(),
        finished_at: eb.case().when('stalls', '>=', MAX_STALLS).then(now).else(null).end(),
        stalls: eb('stalls', '+', 1),
        locked_by: null,
        locked_until: null,
        run_at: now,
        last_error: 'its worker stopped while running it',
      }))
      .execute();
    if (now - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = now;
      await db
        .deleteFrom('jobs')
        .where('state', 'in', ['completed', 'failed', 'cancelled'])
        .where('finished_at', '<', now - KEEP_FINISHED_MS)
        .execute();
    }
  }

  class EmbeddedWorker implements JobWorker {
    private readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    private readonly running = new Map<string, number>();
    private readonly runs = new Set<Promise<void>>();
    private timer: NodeJS.Timeout | undefined;
    private pumping: Promise<void> | undefined;
    /** What the next pass looks at: every kind, or only kinds whose run just ended. */
    private pending: 'all' | Set<string> | undefined;
    private closed = false;
    private lastReap = 0;
    /** When a pass last read which kinds have due jobs (dueKinds). */
    private lastLook = 0;
    private readonly lastTick = new Map<string, number>();

    constructor(private readonly kinds: readonly JobKind<unknown>[]) {
      this.wake();
    }

    /** Looks for due jobs of every kind (started, a job added, the poll). */
    wake(): void {
      this.pending = 'all';
      this.kick();
    }

    /**
     * A run of `kind` ended: its slot is taken again with no read first (a burst of 1 000 posts
     * made 1 000 reads of every kind, bench j). Jobs of other kinds wake the worker when added
     * here or by the API, and the other processes' are found by the poll: a pass looks at every
     * kind at least once per poll interval.
     */
    private ended(kind: string): void {
      if (this.pending === 'all') return this.kick();
      const kinds = this.pending ?? new Set<string>();
      kinds.add(kind);
      this.pending = kinds;
      this.kick();
    }

    private kick(): void {
      if (this.closed || this.pumping || !this.pending) return;
      const scope = this.pending;
      this.pending = undefined;
      clearTimeout(this.timer);
      this.pumping = this.pump(scope)
        .catch((error: unknown) => log.error({ err: error }, 'job runner: polling failed'))
        .finally(() => {
          this.pumping = undefined;
          if (this.closed) return;
          if (this.pending) this.kick();
          else this.timer = setTimeout(() => this.wake(), timing.pollMs);
        });
    }

    private async pump(scope: 'all' | ReadonlySet<string>): Promise<void> {
      const now = Date.now();
      if (now - this.lastReap >= timing.leaseMs / 2) {
        this.lastReap = now;
        await reap();
      }
      for (const kind of this.kinds) {
        if (!kind.everyMs) continue;
        const tick = Math.floor(now / kind.everyMs);
        if (this.lastTick.get(kind.kind) === tick) continue;
        // Every worker inserts the tick; the unique key keeps one.
        await insertJob(kind.kind, { tick }, {}, `${kind.kind}@${tick}`);
        this.lastTick.set(kind.kind, tick);
      }
      const freeOf = (kind: JobKind<unknown>) =>
        (kind.concurrency ?? 1) - (this.running.get(kind.kind) ?? 0);
      const withRoom = this.kinds.filter((k) => freeOf(k) > 0).map((k) => k.kind);
      let due: ReadonlySet<string>;
      if (scope === 'all' || now - this.lastLook >= timing.pollMs) {
        this.lastLook = now;
        due = await dueKinds(withRoom);
      } else {
        due = new Set(withRoom.filter((kind) => scope.has(kind)));
      }
      for (const kind of this.kinds) {
        if (!due.has(kind.kind)) continue;
        while (!this.closed) {
          const free = freeOf(kind);
          if (free <= 0) break;
          const rows = await claim(kind.kind, this.id, free);
          for (const row of rows) this.start(kind, row);
          if (rows.length < free) break;
        }
      }
    }

    private start(kind: JobKind<unknown>, row: Awaited<ReturnType<typeof claim>>[number]) {
      this.running.set(kind.kind, (this.running.get(kind.kind) ?? 0) + 1);
      const run = this.run(kind, row)
        .catch((error: unknown) =>
          log.error({ err: error, job: row.id, kind: kind.kind }, 'job runner: finishing failed'),
        )
        .finally(() => {
          this.running.set(kind.kind, (this.running.get(kind.kind) ?? 1) - 1);
          this.runs.delete(run);
          this.ended(kind.kind);
        });
      this.runs.add(run);
    }

    private async run(
      kind: JobKind<unknown>,
      row: Awaited<ReturnType<typeof claim>>[number],
    ): Promise<void> {
      const controller = new AbortController();
      let lost = false;
      // The job's own row while this worker holds it. Its bookkeeping commits relaxed: undone by a
      // power failure, the job runs again, as when a worker dies after its handler.
      const mine = (executor: Executor = db) =>
        executor
          .updateTable('jobs')
          .where('id', '=', row.id)
          .where('locked_by', '=', this.id)
          .where('state', '=', 'active');
      let renewing: Promise<void> = Promise.resolve();
      const renewal = setInterval(() => {
        renewing = writeRelaxed(db, engine, (trx) =>
          mine(trx)
            .set({ locked_until: Date.now() + timing.leaseMs })
            .returning('cancel_requested')
            .executeTakeFirst(),
        )
          .then((held) => {
            if (!held) {
              lost = true;
              controller.abort(new Error('the job was taken back (its lease ran out)'));
            } else if (held.cancel_requested === 1) {
              controller.abort(new Error('cancelled'));
            }
          })
          .catch((error: unknown) =>
            log.warn({ err: error, job: row.id }, 'job runner: lease renewal failed'),
          );
      }, timing.leaseMs / 3);

      let failure: unknown;
      let failed = false;
      try {
        await kind.handler({
          id: String(row.id),
          kind: row.kind,
          data: JSON.parse(row.data) as unknown,
          attempt: row.attempts_made,
          maxAttempts: row.max_attempts,
          signal: controller.signal,
          progress: async (percent) => {
            const value = Math.max(0, Math.min(100, Math.round(percent)));
            await mine().set({ progress: value }).execute();
          },
        });
      } catch (error) {
        failed = true;
        failure = error;
      } finally {
        clearInterval(renewal);
        await renewing;
      }
      if (lost) return; // the reaper gave it to another worker
      const now = Date.now();
      // Cancelled when that was asked meanwhile, else `state`.
      const unlessCancelled = (eb: ExpressionBuilder<Database, 'jobs'>, state: string) =>
        eb.case().when('cancel_requested', '=', 1).then('cancelled').else(state).end();
      // One write ends it: cancelled when that was asked meanwhile, else by its outcome.
      const ended = (outcome: 'completed' | 'failed', extra: Record<string, unknown> = {}) =>
        writeRelaxed(db, engine, (trx) =>
          mine(trx)
            .set((eb) => ({
              state: unlessCancelled(eb, outcome),
              locked_by: null,
              locked_until: null,
              finished_at: now,
              ...extra,
            }))
            .execute(),
        );
      if (!failed) {
        await ended('completed', {
          progress: sql<number>`case when cancel_requested = 1 then progress else 100 end`,
        });
      } else if (
        row.attempts_made < row.max_attempts &&
        !(failure instanceof PermanentJobFailure)
      ) {
        await writeRelaxed(db, engine, (trx) =>
          mine(trx)
            .set((eb) => ({
              state: unlessCancelled(eb, 'waiting'),
              run_at: now + backoffDelay(row.backoff_ms, row.attempts_made),
              finished_at: eb.case().when('cancel_requested', '=', 1).then(now).else(null).end(),
              locked_by: null,
              locked_until: null,
              last_error: errorText(failure),
            }))
            .execute(),
        );
      } else {
        await ended('failed', { last_error: errorText(failure) });
      }
    }

    async close(): Promise<void> {
      this.closed = true;
      clearTimeout(this.timer);
      await this.pumping;
      await Promise.all(this.runs);
      workers.delete(this);
    }
  }

  return {
    adapter: 'embedded',

    async enqueue(kind, data, opts = {}) {
      return String(await insertJob(kind, data, opts));
    },

    async enqueueMany(kind, data, opts = {}) {
      return data.length === 0 ? [] : (await insertJobs(kind, data, opts)).map(String);
    },

    async get(id): Promise<JobInfo | undefined> {
      const key = numericId(id);
      if (key === undefined) return undefined;
      const row = await db.selectFrom('jobs').selectAll().where('id', '=', key).executeTakeFirst();
      if (!row) return undefined;
      return {
        id,
        kind: row.kind,
        state: rowState(row.state, row.run_at, Date.now()),
        progress: row.progress,
        attempts: row.attempts_made,
        error: row.last_error,
      };
    },

    async cancel(id) {
      const key = numericId(id);
      if (key === undefined) return false;
      const waiting = await db
        .updateTable('jobs')
        .set({ state: 'cancelled', finished_at: Date.now() })
        .where('id', '=', key)
        .where('state', '=', 'waiting')
        .executeTakeFirst();
      if (waiting.numUpdatedRows > 0n) return true;
      const active = await db
        .updateTable('jobs')
        .set({ cancel_requested: 1 })
        .where('id', '=', key)
        .where('state', '=', 'active')
        .where('cancel_requested', '=', 0)
        .executeTakeFirst();
      return active.numUpdatedRows > 0n;
    },

    async stats(kinds) {
      const now = Date.now();
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => [
          'kind',
          'state',
          eb.fn.countAll<number>().as('count'),
          sql<number>`sum(case when run_at > ${now} then 1 else 0 end)`.as('later'),
        ])
        .groupBy(['kind', 'state'])
        .execute();
      const byKind = new Map(kinds.map((kind) => [kind, emptyCounts(kind)]));
      for (const row of rows) {
        let counts = byKind.get(row.kind);
        if (!counts) byKind.set(row.kind, (counts = emptyCounts(row.kind)));
        const count = Number(row.count);
        if (row.state === 'waiting') {
          counts.delayed += Number(row.later);
          counts.waiting += count - Number(row.later);
        } else if (row.state in counts) {
          counts[row.state as JobState] += count;
        }
      }
      return [...byKind.values()].sort((a: KindCounts, b: KindCounts) =>
        a.kind.localeCompare(b.kind),
      );
    },

    work(kinds) {
      const worker = new EmbeddedWorker(kinds);
      workers.add(worker);
      return worker;
    },

    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
    },
  };
}
