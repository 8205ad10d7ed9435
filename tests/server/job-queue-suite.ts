/**
 * The job runner's behaviour, the same on every adapter: run by
 * jobs-embedded-sqlite.test.ts, jobs-embedded-postgres.test.ts and jobs-bullmq.test.ts, each on
 * its own database / Redis key prefix so that they can run in parallel.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineJob,
  handleJob,
  PermanentJobFailure,
  typedJobs,
} from '../../server/platform/jobs/define-job';
import type { JobKind, JobQueue, RunnerTiming } from '../../server/platform/jobs/queue';

/** Where a suite's queues live: `open()` gives another queue (its own connection) on it. */
export interface QueueStore {
  open(timing: RunnerTiming): JobQueue;
  /** Environment for tests/server/fixtures/job-worker.ts to open the same store. */
  childEnv: Record<string, string>;
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Leases short enough for a dead worker's job to come back within seconds. */
const TIMING: RunnerTiming = { leaseMs: 2_000, pollMs: 50 };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `ms` pass; resolves to whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(25);
  }
  return check();
}

/** The counts of one kind (stats also lists the other kinds the store holds). */
async function countsOf(queue: JobQueue, kind: string) {
  return (await queue.stats([kind])).find((counts) => counts.kind === kind);
}

export function defineQueueSuite(name: string, makeStore: () => Promise<QueueStore>): void {
  describe(`the job runner on ${name}`, () => {
    let store: QueueStore;
    let opened: JobQueue[] = [];
    const open = () => {
      const queue = store.open(TIMING);
      opened.push(queue);
      return queue;
    };

    beforeAll(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await Promise.all(opened.map((queue) => queue.close()));
      opened = [];
    });
    afterAll(async () => {
      await store?.close();
    });

    it('gives each job to one worker only, under 20 concurrent workers', async () => {
      const producer = open();
      const JOBS = 100;
      const ids = await Promise.all(
        Array.from({ length: JOBS }, (_, n) => producer.enqueue('claim', { n })),
      );
      const runs: number[] = [];
      let running = 0;
      let most = 0;
      const kind: JobKind<{ n: number }> = {
        kind: 'claim',
        handler: async (job) => {
          running += 1;
          most = Math.max(most, running);
          runs.push(job.data.n);
          await sleep(2 + (job.data.n % 5));
          running -= 1;
        },
      };
      // 4 connections (queues), 5 workers each.
      for (let q = 0; q < 4; q += 1) {
        const queue = open();
        for (let w = 0; w < 5; w += 1) queue.work([kind]);
      }
      const done = async () => (await countsOf(producer, 'claim'))?.completed === JOBS;
      expect(await eventually(done, 25_000)).toBe(true);
      expect(runs.toSorted((a, b) => a - b)).toEqual(Array.from({ length: JOBS }, (_, n) => n));
      expect(most).toBeGreaterThan(1);
      expect((await producer.get(ids[0]))?.state).toBe('completed');
      expect(await countsOf(producer, 'claim')).toEqual({
        kind: 'claim',
        waiting: 0,
        delayed: 0,
        active: 0,
        completed: JOBS,
        failed: 0,
        cancelled: 0,
      });
    });

    it('adds many jobs in one call; a worker runs up to its concurrency of them at once, never more', async () => {
      const producer = open();
      expect(await producer.enqueueMany('many', [])).toEqual([]);
      const ids = await producer.enqueueMany(
        'many',
        Array.from({ length: 30 }, (_, n) => ({ n })),
        { attempts: 2, backoffMs: 10 },
      );
      expect(new Set(ids).size).toBe(30);
      const runs: number[] = [];
      let running = 0;
      let most = 0;
      open().work([
        {
          kind: 'many',
          concurrency: 4,
          handler: async (job: { data: { n: number }; attempt: number }) => {
            running += 1;
            most = Math.max(most, running);
            await sleep(5);
            running -= 1;
            // Each job's first run fails once: the options given to all apply to each.
            if (job.attempt === 1 && job.data.n % 10 === 0) throw new Error('once');
            runs.push(job.data.n);
          },
        } as JobKind<{ n: number }>,
      ]);
      const done = async () => (await countsOf(producer, 'many'))?.completed === 30;
      expect(await eventually(done, 20_000)).toBe(true);
      expect(runs.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
      expect(most).toBe(4);
      expect((await producer.get(ids[10]))?.attempts).toBe(2);
    });

    it('runs a job another process adds while a stream of another kind keeps the worker busy', async () => {
      // A job's end takes the next of its kind without looking at the others (embedded.ts): the
      // others are still looked at once per poll interval, not only when the stream ends.
      const producer = open();
      const STREAM = 600;
      await producer.enqueueMany(
        'stream',
        Array.from({ length: STREAM }, (_, n) => ({ n })),
      );
      let streamed = 0;
      let streamedWhenOtherRan: number | undefined;
      open().work([
        {
          kind: 'stream',
          concurrency: 2,
          handler: async () => {
            await sleep(5);
            streamed += 1;
          },
        },
        {
          kind: 'other',
          handler: async () => {
            streamedWhenOtherRan = streamed;
          },
        },
      ] as JobKind<unknown>[]);
      expect(await eventually(() => streamed >= 20)).toBe(true);
      await producer.enqueue('other', {}); // wakes no worker of that queue: found by looking
      expect(await eventually(() => streamedWhenOtherRan !== undefined, 20_000)).toBe(true);
      expect(streamedWhenOtherRan).toBeLessThan(STREAM / 2);
    });

    it('re-runs a job whose worker was killed (SIGKILL) mid-job in another worker, once', async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-jobs-kill-'));
      const logFile = path.join(dir, 'log');
      await fs.writeFile(logFile, '');
      const lines = () => readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      let child: ChildProcess | undefined;
      try {
        const queue = open();
        const id = await queue.enqueue('effect', {});
        child = spawn(
          process.execPath,
          ['--import', 'tsx', 'tests/server/fixtures/job-worker.ts'],
          {
            cwd: ROOT,
            env: {
              ...process.env,
              ...store.childEnv,
              JOBS_LEASE_MS: String(TIMING.leaseMs),
              JOBS_HOLD_MS: '60000',
              JOBS_LOG_FILE: logFile,
            },
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        );
        expect(await eventually(() => lines().includes(`started ${id}`), 30_000)).toBe(true);

        // Another worker, here: while the child lives (and renews its lease) it never gets the job.
        const effects: string[] = [];
        queue.work([
          {
            kind: 'effect',
            handler: async (job) => {
              appendFileSync(logFile, `effect ${job.id}\n`);
              effects.push(job.id);
            },
          },
        ]);
        await sleep(TIMING.leaseMs * 1.5);
        expect(effects).toEqual([]);
        expect((await queue.get(id))?.state).toBe('active');

        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        expect(await eventually(async () => (await queue.get(id))?.state === 'completed')).toBe(
          true,
        );
        expect(effects).toEqual([id]);
        expect(lines()).toEqual(['ready', `started ${id}`, `effect ${id}`]);
        expect((await queue.get(id))?.attempts).toBe(2);
      } finally {
        child?.kill('SIGKILL');
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it('retries a failing job with exponential backoff, then fails it past its attempts', async () => {
      const queue = open();
      const BACKOFF = 300;
      const flaky = await queue.enqueue(
        'retry',
        { failUntil: 3 },
        { attempts: 3, backoffMs: BACKOFF },
      );
      const hopeless = await queue.enqueue(
        'retry',
        { failUntil: 99 },
        { attempts: 2, backoffMs: 50 },
      );
      const starts = new Map<string, number[]>();
      queue.work([
        {
          kind: 'retry',
          concurrency: 2,
          handler: async (job: { id: string; attempt: number; data: { failUntil: number } }) => {
            starts.set(job.id, [...(starts.get(job.id) ?? []), Date.now()]);
            if (job.attempt < job.data.failUntil) throw new Error(`attempt ${job.attempt} failed`);
          },
        },
      ]);
      expect(await eventually(async () => (await queue.get(flaky))?.state === 'completed')).toBe(
        true,
      );
      expect(await eventually(async () => (await queue.get(hopeless))?.state === 'failed')).toBe(
        true,
      );
      const times = starts.get(flaky)!;
      expect(times).toHaveLength(3);
      // 300 ms, then 600 ms (a little slack for timer rounding).
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(BACKOFF - 20);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(2 * BACKOFF - 20);
      expect(starts.get(hopeless)).toHaveLength(2);
      expect(await queue.get(hopeless)).toMatchObject({
        state: 'failed',
        attempts: 2,
        error: 'attempt 2 failed',
      });
    });

    it('runs a delayed job no sooner than its delay, and prioritised jobs by priority', async () => {
      const queue = open();
      const enqueuedAt = Date.now();
      const delayed = await queue.enqueue('later', { name: 'delayed' }, { delayMs: 1_000 });
      expect((await queue.get(delayed))?.state).toBe('delayed');
      expect(await countsOf(queue, 'later')).toMatchObject({ delayed: 1, waiting: 0 });
      for (const [name, priority] of [
        ['third', 3],
        ['first', 1],
        ['second', 2],
      ] as const) {
        await queue.enqueue('later', { name }, { priority });
      }
      const ran: { name: string; at: number }[] = [];
      queue.work([
        {
          kind: 'later',
          handler: async (job: { data: { name: string } }) => {
            ran.push({ name: job.data.name, at: Date.now() });
          },
        },
      ]);
      expect(await eventually(() => ran.length === 4)).toBe(true);
      expect(ran.map((r) => r.name)).toEqual(['first', 'second', 'third', 'delayed']);
      expect(ran[3].at - enqueuedAt).toBeGreaterThanOrEqual(1_000 - 20);
    });

    it('reports progress while a job runs', async () => {
      const queue = open();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const id = await queue.enqueue('progress', {});
      queue.work([
        {
          kind: 'progress',
          handler: async (job) => {
            await job.progress(40);
            await released;
          },
        },
      ]);
      expect(await eventually(async () => (await queue.get(id))?.progress === 40)).toBe(true);
      expect((await queue.get(id))?.state).toBe('active');
      release();
      expect(await eventually(async () => (await queue.get(id))?.state === 'completed')).toBe(true);
    });

    it('cancels a waiting job (it never runs) and a running one (its signal aborts)', async () => {
      const producer = open();
      const waiting = await producer.enqueue('cancel', { name: 'waiting' }, { delayMs: 800 });
      expect(await producer.cancel(waiting)).toBe(true);
      expect(await producer.cancel(waiting)).toBe(false);
      expect((await producer.get(waiting))?.state).toBe('cancelled');

      const running = await producer.enqueue('cancel', { name: 'running' }, { attempts: 3 });
      const started: string[] = [];
      let aborted = 0;
      open().work([
        {
          kind: 'cancel',
          handler: async (job: { data: { name: string }; signal: AbortSignal }) => {
            started.push(job.data.name);
            await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
            aborted += 1;
            throw job.signal.reason;
          },
        },
      ]);
      expect(await eventually(async () => (await producer.get(running))?.state === 'active')).toBe(
        true,
      );
      expect(await producer.cancel(running)).toBe(true);
      expect(
        await eventually(async () => (await producer.get(running))?.state === 'cancelled'),
      ).toBe(true);
      expect(aborted).toBe(1);
      await sleep(1_000); // the waiting one's time has passed: still not run; no retry either
      expect(started).toEqual(['running']);
      expect((await countsOf(producer, 'cancel'))?.cancelled).toBe(2);
    });

    it('runs a recurring job once per tick however many workers run', async () => {
      const EVERY = 400;
      const runs: string[] = [];
      const kind: JobKind = {
        kind: 'tick',
        everyMs: EVERY,
        handler: async (job) => {
          runs.push(job.id);
        },
      };
      const started = Date.now();
      const workers = [open(), open(), open()].map((queue) => queue.work([kind]));
      await sleep(2_500);
      await Promise.all(workers.map((worker) => worker.close()));
      const elapsed = Date.now() - started;
      expect(new Set(runs).size).toBe(runs.length);
      expect(runs.length).toBeGreaterThanOrEqual(3);
      expect(runs.length).toBeLessThanOrEqual(Math.ceil(elapsed / EVERY) + 1);
    });

    it('fails a job whose stored data fails its schema at once, with the reason, without running it', async () => {
      const queue = open();
      const jobs = typedJobs(queue);
      const render = defineJob('typed', z.strictObject({ outputId: z.number().int() }), {
        attempts: 3,
        backoffMs: 50,
      });
      const ran: number[] = [];
      const good = await jobs.enqueue(render, { outputId: 7 });
      // Data written by an older release, or by hand: not what the kind's schema says.
      const stale = await queue.enqueue('typed', { output: '7' }, { attempts: 3, backoffMs: 50 });
      jobs.work([
        handleJob(render, async (_ctx: null, job) => {
          ran.push(job.data.outputId);
          expect(job.maxAttempts).toBe(3);
        }).bind(null),
      ]);
      expect(await eventually(async () => (await queue.get(stale))?.state === 'failed')).toBe(true);
      expect(await eventually(async () => (await queue.get(good))?.state === 'completed')).toBe(
        true,
      );
      expect(ran).toEqual([7]);
      const failed = await queue.get(stale);
      expect(failed?.attempts).toBe(1);
      expect(failed?.error).toContain('fails its schema');
      expect(failed?.error).toContain('outputId');
      // Enqueuing checks the data too (the types already refuse it at compile time).
      await expect(jobs.enqueue(render, { outputId: 1.5 })).rejects.toThrow();
    });

    it('fails a job at once, whatever attempts are left, when its handler says running again cannot help', async () => {
      const queue = open();
      const id = await queue.enqueue('hopeless', {}, { attempts: 3, backoffMs: 50 });
      let runs = 0;
      queue.work([
        {
          kind: 'hopeless',
          handler: async () => {
            runs += 1;
            throw new PermanentJobFailure('the input is unreadable');
          },
        },
      ]);
      expect(await eventually(async () => (await queue.get(id))?.state === 'failed')).toBe(true);
      await sleep(300);
      expect(runs).toBe(1);
      expect((await queue.get(id))?.error).toBe('the input is unreadable');
    });
  });
}
