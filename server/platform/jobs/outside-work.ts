import type { RunningJob } from './queue';
import { inWorkDir, openWorkDir } from './work-dirs';
import fs from 'node:fs/promises';

/**
 * The lifecycle of one unit of outside work — a render, a digital-human video, a clone, next a
 * publish to a social platform (docs/architecture.md §The path of a job). The feature declares
 * its steps; this runs them, the same way for every feature:
 * 1. `claim` (a conditional update): null when there is nothing to do (done, failed, deleted).
 * 2. A work directory `DATA_DIR/work/<kind>/<key>-…` (work-dirs.ts), removed at the end; the
 *    children started in it are recorded there and die with the worker.
 * 3. On a re-run of a started unit (a retry, a run after a crash) `check` is asked first, before
 *    anything is re-run: a result already made elsewhere (a vendor job that finished after our
 *    call timed out) is stored instead of doing the work again.
 * 4. `perform`, reporting progress through the workspace: written by `progress` at most once per
 *    `progressEveryMs` (the last report always waits for the writes under way).
 * 5. `store`: the result is kept and the unit finished (settled, once: the feature's billing).
 * A failure is classified (`classify`, else by its class):
 * - permanent ({@link PermanentWorkFailure}): `fail` once with the reason (the feature refunds
 *   and the person sees the reason); the job ends.
 * - transient (any other error): thrown, so the runner retries with backoff; on the last attempt
 *   `fail` with the reason `exhausted` gives.
 * - unknown outcome ({@link OutcomeUnknown}: a call timed out after sending): retried like a
 *   transient one, and the next run asks `check` before anything is re-run; on the last attempt
 *   `check` is asked at once, and only without a result does the unit fail.
 * An aborted job (cancelled, its lease lost) is neither failed nor refunded: the error is thrown.
 */

/** Why a unit failed, as the person sees it: a server message id, its params, a readable detail. */
export interface WorkFailure {
  reasonId: string;
  reasonParams?: Record<string, string | number>;
  detail?: string;
}

/** A failure running again cannot fix: the unit fails now with this reason (and is refunded). */
export class PermanentWorkFailure extends Error {
  constructor(
    readonly reason: WorkFailure,
    options: { cause?: unknown; message?: string } = {},
  ) {
    super(options.message ?? reason.detail ?? reason.reasonId, { cause: options.cause });
    this.name = 'PermanentWorkFailure';
  }
}

/** A call whose effect is not known (it timed out after sending): `check` before running again. */
export class OutcomeUnknown extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'OutcomeUnknown';
  }
}

/** How a failure is treated. */
export type WorkVerdict = { permanent: WorkFailure } | 'transient' | 'unknown';

/** What the steps of a unit see while it runs. */
export interface Workspace<P> {
  /**
   * Its own directory under `DATA_DIR/work`, removed when the unit ends (an error to read when
   * the unit declared it needs none: {@link OutsideWork.workDir}).
   */
  readonly dir: string;
  /** Aborted when the job is cancelled or its lease lost. */
  signal: AbortSignal;
  /** Reports progress; written at most once per `progressEveryMs`. */
  report(update: P): void;
  /** Waits for the progress writes under way. */
  flush(): Promise<void>;
  /** Whether an earlier run started this unit (a retry, a run after a crash). */
  resumed: boolean;
}

/** A unit of outside work as the feature declares it (U: the claimed unit, R: its result). */
export interface OutsideWork<U, R, P = number> {
  /** The kind (its work directories' folder) and the unit's key. */
  kind: string;
  key: string | number;
  /**
   * Takes the unit with a conditional update; null: nothing to do. `resumed` says whether an
   * earlier run had started it (then `check` is asked before `perform`).
   */
  claim(): Promise<{ unit: U; resumed: boolean } | null>;
  /** On a re-run: the result an earlier run made after all, or null to run `perform`. */
  check?(unit: U, work: Workspace<P>): Promise<R | null>;
  perform(unit: U, work: Workspace<P>): Promise<R>;
  /** Keeps the result and finishes the unit (the feature's settlement, once). */
  store(unit: U, result: R): Promise<void>;
  /** Fails the unit with `reason` and gives back what it held (the feature's refund). */
  fail(unit: U, reason: WorkFailure, error: unknown): Promise<void>;
  /** The feature's own classes of failure; default: by the error's class (see above). */
  classify?(error: unknown, unit: U): WorkVerdict;
  /** The reason a unit fails with when its attempts ran out. */
  exhausted(error: unknown, unit: U): WorkFailure;
  /** Writes a progress report (throttled). */
  progress?(unit: U, update: P): Promise<void>;
  /**
   * Whether the unit works in a directory of its own (default: yes). A publish from the local
   * disk needs none: opening and removing one cost ~0.7 ms of the worker's loop a post (bench j).
   */
  workDir?(unit: U): boolean | Promise<boolean>;
  /** Default 1 000 ms. */
  progressEveryMs?: number;
}

/** What the lifecycle needs of the app. */
export interface WorkEnv {
  dataDir: string;
}

export type WorkOutcome = 'skipped' | 'done' | 'failed';

/** Default classification: by the error's class. */
export function verdictOf(error: unknown): WorkVerdict {
  if (error instanceof PermanentWorkFailure) return { permanent: error.reason };
  if (error instanceof OutcomeUnknown) return 'unknown';
  return 'transient';
}

/** Runs one unit of outside work for `job` (see the comment at the top). */
export async function runOutsideWork<U, R, P>(
  env: WorkEnv,
  job: Pick<RunningJob<unknown>, 'attempt' | 'maxAttempts' | 'signal'>,
  work: OutsideWork<U, R, P>,
): Promise<WorkOutcome> {
  const claimed = await work.claim();
  if (!claimed) return 'skipped';
  const { unit } = claimed;
  const dir =
    ((await work.workDir?.(unit)) ?? true)
      ? await openWorkDir(env.dataDir, work.kind, String(work.key))
      : undefined;
  const space = workspace(dir, job, unit, work, claimed.resumed || job.attempt > 1);
  const inDir = <T>(run: () => Promise<T>) => (dir ? inWorkDir(dir, run) : run());
  try {
    return await inDir(async () => {
      let result: R;
      try {
        const found = space.resumed && work.check ? await work.check(unit, space) : null;
        result = found ?? (await work.perform(unit, space));
        await space.flush();
      } catch (error) {
        await space.flush();
        if (job.signal.aborted) throw error;
        const verdict = work.classify?.(error, unit) ?? verdictOf(error);
        if (verdict !== 'transient' && verdict !== 'unknown') {
          await work.fail(unit, verdict.permanent, error);
          return 'failed';
        }
        if (job.attempt < job.maxAttempts) throw error;
        const late = verdict === 'unknown' && work.check ? await work.check(unit, space) : null;
        if (late === null) {
          await work.fail(unit, work.exhausted(error, unit), error);
          return 'failed';
        }
        result = late;
      }
      await work.store(unit, result);
      return 'done';
    });
  } finally {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  }
}

function workspace<U, R, P>(
  dir: string | undefined,
  job: Pick<RunningJob<unknown>, 'signal'>,
  unit: U,
  work: OutsideWork<U, R, P>,
  resumed: boolean,
): Workspace<P> {
  const every = work.progressEveryMs ?? 1_000;
  let lastWrite = -Infinity;
  let writing: Promise<unknown> = Promise.resolve();
  return {
    get dir() {
      if (dir === undefined) throw new Error(`${work.kind}: this unit has no work directory`);
      return dir;
    },
    signal: job.signal,
    resumed,
    report: (update) => {
      if (!work.progress) return;
      const at = Date.now();
      if (at - lastWrite < every) return;
      lastWrite = at;
      // A failed progress write never fails the work (the next one tries again).
      writing = writing.then(() => work.progress?.(unit, update)).catch(() => {});
    },
    flush: () => writing.then(() => undefined),
  };
}
