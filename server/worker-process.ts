import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nicedCommand } from './platform/jobs/child-process';

/** Added to the API's niceness for its worker: when both want the CPU, requests go first. */
export const WORKER_NICENESS = 10;
/** A worker that died is started again after this, doubled on each death in a row (at most 30 s). */
const RESTART_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A worker that ran this long before dying starts again after the first delay. */
const STEADY_MS = 60_000;
/** The message that tells the worker to look for jobs now (the API added some). */
export const WAKE_MESSAGE = 'jobs:wake';

export interface WorkerProcess {
  /** Tells the worker that jobs were added (it looks at once instead of at its next poll). */
  wake(): void;
  /** SIGTERM, then waits until it exits (it finishes its running jobs first). */
  stop(): Promise<void>;
}

export interface WorkerProcessLog {
  info(msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * `npm start`'s job worker: `server/worker.ts` in a child process (docs/architecture.md §The path
 * of a job), at a lower CPU priority than the API, dying with it (even by `kill -9`: setpriv's
 * parent-death signal where there is one; else it leaves when its IPC channel closes), started
 * again when it dies. The API's event loop never runs a job: a burst of 1 000 posts left its
 * trivial endpoint's p95 at 9.7× idle with the worker in the process (bench j).
 */
export function startWorkerProcess(
  log: WorkerProcessLog,
  env: NodeJS.ProcessEnv = process.env,
): WorkerProcess {
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here); // .ts through tsx, .mjs from the tests' bundle
  const entry = path.join(path.dirname(here), `worker${ext}`);
  const loader =
    ext === '.ts' && !process.execArgv.some((arg) => arg.includes('tsx'))
      ? ['--import', import.meta.resolve('tsx')]
      : [];
  const command = [process.execPath, ...process.execArgv, ...loader, entry];
  const [program, ...args] = nicedCommand(command, WORKER_NICENESS);

  let child: ChildProcess | undefined;
  let stopping = false;
  let delay = RESTART_MS;
  let restart: NodeJS.Timeout | undefined;

  const start = () => {
    const startedAt = Date.now();
    const proc = spawn(program!, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env,
    });
    child = proc;
    log.info(`job worker process started (pid ${proc.pid})`);
    proc.on('error', (error) => log.warn({ err: error }, 'job worker process: cannot start'));
    proc.on('exit', (code, signal) => {
      child = undefined;
      if (stopping) return;
      delay = Date.now() - startedAt >= STEADY_MS ? RESTART_MS : delay;
      log.warn({ code, signal, restartInMs: delay }, 'job worker process exited');
      restart = setTimeout(start, delay);
      delay = Math.min(delay * 2, RESTART_MAX_MS);
    });
  };
  start();

  return {
    wake() {
      // Lost when it is down: its start looks anyway, and it polls every second.
      if (child?.connected) child.send(WAKE_MESSAGE, () => undefined);
    },
    async stop() {
      stopping = true;
      clearTimeout(restart);
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
