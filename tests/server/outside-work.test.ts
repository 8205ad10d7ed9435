import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { runNiced } from '../../server/platform/jobs/child-process';
import { defineJob, handleJob, typedJobs, type Jobs } from '../../server/platform/jobs/define-job';
import { createEmbeddedQueue } from '../../server/platform/jobs/embedded';
import {
  OutcomeUnknown,
  PermanentWorkFailure,
  runOutsideWork,
  type OutsideWork,
  type WorkFailure,
} from '../../server/platform/jobs/outside-work';
import { inWorkDir, openWorkDir, sweepWorkDirs } from '../../server/platform/jobs/work-dirs';
import { createTestDatabase } from './helpers';
import { eventually, sleep } from './job-queue-suite';

/**
 * The outside-work lifecycle (server/platform/jobs/outside-work.ts) run by the real job runner
 * (the embedded queue on SQLite): a fake feature whose unit lives in memory.
 */
interface Unit {
  status: 'queued' | 'working' | 'done' | 'failed';
  reason: WorkFailure | null;
  stored: string[];
  refunds: number;
  /** What happened, in order: claim, check, perform, store, fail. */
  steps: string[];
  progressWrites: number[];
  workDirs: string[];
}

const newUnit = (): Unit => ({
  status: 'queued',
  reason: null,
  stored: [],
  refunds: 0,
  steps: [],
  progressWrites: [],
  workDirs: [],
});

type Behaviour = (unit: Unit, attempt: number) => Promise<string>;

describe('the outside-work lifecycle', () => {
  let database: { dataDir: string; drop: () => Promise<void> };
  let handle: DbHandle;
  let jobs: Jobs;
  let dataDir: string;
  const units = new Map<number, Unit>();
  const behaviours = new Map<number, Behaviour>();
  const checks = new Map<number, (unit: Unit) => Promise<string | null>>();
  /** Units that declare they need no work directory. */
  const dirless = new Set<number>();
  let nextId = 1;

  const WORK = defineJob('outside-work-test', z.object({ id: z.number() }), {
    attempts: 3,
    backoffMs: 50,
  });

  function feature(id: number, job: { attempt: number }): OutsideWork<Unit, string, number> {
    const unit = units.get(id)!;
    const check = checks.get(id);
    return {
      kind: 'test-unit',
      key: id,
      claim: async () => {
        unit.steps.push('claim');
        if (unit.status !== 'queued' && unit.status !== 'working') return null;
        const resumed = unit.status === 'working';
        unit.status = 'working';
        return { unit, resumed };
      },
      ...(check
        ? {
            check: async (u) => {
              u.steps.push('check');
              return check(u);
            },
          }
        : {}),
      workDir: () => !dirless.has(id),
      perform: async (u, work) => {
        u.steps.push('perform');
        if (dirless.has(id)) {
          expect(() => work.dir).toThrow(/no work directory/);
        } else {
          u.workDirs.push(work.dir);
          await fs.writeFile(path.join(work.dir, 'partial.bin'), 'x');
        }
        return behaviours.get(id)!(u, job.attempt);
      },
      progress: async (u, percent) => {
        u.progressWrites.push(percent);
      },
      progressEveryMs: 100,
      store: async (u, result) => {
        u.steps.push('store');
        u.stored.push(result);
        u.status = 'done';
      },
      exhausted: (error) => ({ reasonId: 'test.exhausted', detail: String(error) }),
      fail: async (u, reason) => {
        u.steps.push('fail');
        u.refunds += 1;
        u.reason = reason;
        u.status = 'failed';
      },
    };
  }

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-outside-work-'));
    handle = openDatabase({ dataDir: database.dataDir });
    jobs = typedJobs(createEmbeddedQueue({ ...handle, timing: { leaseMs: 2_000, pollMs: 20 } }));
    const handler = handleJob(WORK, async (_: null, job) => {
      await runOutsideWork({ dataDir }, job, feature(job.data.id, job));
    });
    jobs.work([handler.bind(null)]);
  });
  afterAll(async () => {
    await jobs?.close();
    await handle?.close();
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    behaviours.clear();
    checks.clear();
  });

  async function run(behaviour: Behaviour, check?: (unit: Unit) => Promise<string | null>) {
    const id = nextId++;
    units.set(id, newUnit());
    behaviours.set(id, behaviour);
    if (check) checks.set(id, check);
    const jobId = await jobs.enqueue(WORK, { id });
    const ended = await eventually(async () => {
      const state = (await jobs.get(jobId))?.state;
      return state === 'completed' || state === 'failed';
    });
    expect(ended).toBe(true);
    return { unit: units.get(id)!, job: (await jobs.get(jobId))! };
  }

  it('a permanent failure fails the unit at once: refunded once, its reason stored', async () => {
    const { unit, job } = await run(async () => {
      throw new PermanentWorkFailure({
        reasonId: 'test.unreadable',
        reasonParams: { n: 1 },
        detail: 'input 2 cannot be read',
      });
    });
    expect(unit.steps).toEqual(['claim', 'perform', 'fail']);
    expect(unit.refunds).toBe(1);
    expect(unit.status).toBe('failed');
    expect(unit.reason).toEqual({
      reasonId: 'test.unreadable',
      reasonParams: { n: 1 },
      detail: 'input 2 cannot be read',
    });
    expect(job).toMatchObject({ state: 'completed', attempts: 1 });
    // Its work directory under DATA_DIR/work is gone.
    expect(unit.workDirs[0]!.startsWith(path.join(dataDir, 'work', 'test-unit'))).toBe(true);
    expect(existsSync(unit.workDirs[0]!)).toBe(false);
  });

  it('a unit that needs no work directory gets none', async () => {
    // Its perform checks that `work.dir` is refused: with a directory, the unit would fail.
    dirless.add(nextId);
    const { unit, job } = await run(async () => 'in place');
    expect(unit.steps).toEqual(['claim', 'perform', 'store']);
    expect(unit.stored).toEqual(['in place']);
    expect(unit.workDirs).toEqual([]);
    expect(job).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('a transient failure is retried by the runner, then the unit is done and stored once', async () => {
    const { unit, job } = await run(async (_, attempt) => {
      if (attempt < 2) throw new Error('connection reset');
      return 'file-2';
    });
    expect(unit.steps).toEqual(['claim', 'perform', 'claim', 'perform', 'store']);
    expect(unit.stored).toEqual(['file-2']);
    expect(unit.refunds).toBe(0);
    expect(job).toMatchObject({ state: 'completed', attempts: 2 });
    for (const dir of unit.workDirs) expect(existsSync(dir)).toBe(false);
  });

  it('a transient failure on the last attempt fails the unit with the exhausted reason', async () => {
    const { unit } = await run(async () => {
      throw new Error('vendor 503');
    });
    expect(unit.steps.filter((s) => s === 'perform')).toHaveLength(3);
    expect(unit.steps.at(-1)).toBe('fail');
    expect(unit.refunds).toBe(1);
    expect(unit.reason).toMatchObject({ reasonId: 'test.exhausted' });
  });

  it('an unknown outcome: the next run asks check before re-running anything', async () => {
    let sent = 0;
    const { unit, job } = await run(
      async () => {
        sent += 1;
        throw new OutcomeUnknown('timed out after sending');
      },
      // The vendor made it after all.
      async () => 'made-by-the-vendor',
    );
    expect(sent).toBe(1);
    expect(unit.steps).toEqual(['claim', 'perform', 'claim', 'check', 'store']);
    expect(unit.stored).toEqual(['made-by-the-vendor']);
    expect(job).toMatchObject({ state: 'completed', attempts: 2 });
  });

  it('an unknown outcome that check does not find is run again after check', async () => {
    const { unit } = await run(
      async (_, attempt) => {
        if (attempt === 1) throw new OutcomeUnknown('timed out after sending');
        return 'second-try';
      },
      async () => null,
    );
    expect(unit.steps).toEqual(['claim', 'perform', 'claim', 'check', 'perform', 'store']);
    expect(unit.stored).toEqual(['second-try']);
  });

  it('writes progress at most once per interval, and waits for the last write', async () => {
    // Reports every 5 ms or so for ~350 ms (longer on a busy machine): at most one write per
    // 100 ms of the reports' own clock, each waited for. Judged by when each report was made,
    // not by how many came between (a busy machine's timers fire late).
    const id = nextId++;
    units.set(id, newUnit());
    const reportedAt: number[] = [];
    const writes: number[] = [];
    const result = await runOutsideWork(
      { dataDir },
      { attempt: 1, maxAttempts: 1, signal: new AbortController().signal },
      {
        ...feature(id, { attempt: 1 }),
        progress: async (_, percent) => {
          await sleep(10);
          writes.push(percent);
        },
        perform: async (_, work) => {
          for (let n = 0; n < 70; n += 1) {
            reportedAt.push(Date.now());
            work.report(n);
            await sleep(5);
          }
          return 'done';
        },
      },
    );
    expect(result).toBe('done');
    expect(writes[0]).toBe(0);
    expect(writes.length).toBeGreaterThanOrEqual(2);
    const span = reportedAt[reportedAt.length - 1]! - reportedAt[0]!;
    expect(writes.length).toBeLessThanOrEqual(Math.floor(span / 100) + 1);
    // Date.now() here may be read a millisecond before the runner's own.
    for (let n = 1; n < writes.length; n += 1) {
      expect(reportedAt[writes[n]!]! - reportedAt[writes[n - 1]!]!).toBeGreaterThanOrEqual(99);
    }
  });
});

describe('work directories', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-work-dirs-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it("a dead worker's directory: its child is stopped and the directory removed; a live worker's stays", async () => {
    // A live unit of this worker, with a child running in it.
    const mine = await openWorkDir(dataDir, 'render', '7');
    const controller = new AbortController();
    const minePids: number[] = [];
    const mineRun = inWorkDir(mine, () =>
      runNiced('sh', ['-c', 'echo $$; sleep 30; true'], {
        signal: controller.signal,
        onLine: (line) => minePids.push(Number(line)),
      }),
    ).catch(() => {});
    // A unit of a worker that died: its owner pid is gone; its child still runs.
    const dead = spawn('true');
    await new Promise((resolve) => dead.once('exit', resolve));
    const orphan = await openWorkDir(dataDir, 'render', '8');
    await fs.writeFile(
      path.join(orphan, 'owner.json'),
      JSON.stringify({ host: os.hostname(), pid: dead.pid, started: '1' }),
    );
    const orphanPids: number[] = [];
    const orphanRun = inWorkDir(orphan, () =>
      runNiced('sh', ['-c', 'echo $$; sleep 30; true'], {
        onLine: (line) => orphanPids.push(Number(line)),
      }),
    ).catch((error: unknown) => error);
    // A recorded pid whose process is now something else is never killed.
    const other = spawn('sleep', ['30']);
    await fs.writeFile(
      path.join(orphan, '.children', String(other.pid)),
      JSON.stringify(['ffmpeg', '-i', 'x']),
    );
    expect(await eventually(() => minePids.length > 0 && orphanPids.length > 0)).toBe(true);

    const report = await sweepWorkDirs(dataDir);
    expect(report.removed).toEqual([orphan]);
    expect(report.killed).toHaveLength(1);
    expect(await orphanRun).toBeTruthy(); // the child was killed
    expect(existsSync(orphan)).toBe(false);
    expect(alive(orphanPids[0]!)).toBe(false);
    expect(alive(other.pid!)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    expect(alive(minePids[0]!)).toBe(true);
    other.kill('SIGKILL');
    controller.abort(new Error('done'));
    await mineRun;
  });
});
