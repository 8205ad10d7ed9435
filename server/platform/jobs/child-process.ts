import { spawn, spawnSync } from 'node:child_process';
import { currentWorkDir, recordChild } from './work-dirs';

export interface ChildOptions {
  /** Aborting it stops the child (SIGTERM, then SIGKILL after `killAfterMs`). */
  signal?: AbortSignal;
  /** Added to this process's niceness (default 10: the API's event loop goes first). */
  niceness?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each line the child writes to stdout (ffmpeg's `-progress pipe:1`). */
  onLine?: (line: string) => void;
  /** stderr lines kept as the failure reason (default 20). */
  keepLines?: number;
  killAfterMs?: number;
  /** The unit's work directory the child is recorded in (default: the one this code runs for). */
  workDir?: string;
}

let deathSignal: boolean | undefined;
/**
 * Whether children can be made to die with this process: `setpriv --pdeathsig KILL` (util-linux)
 * asks the kernel to SIGKILL the child when its parent dies, even by `kill -9`. Checked once; where
 * it is missing (not Linux, an old util-linux) children run without it and the start's sweep of
 * work directories stops them (docs/decisions.md "Jobs").
 */
export function childrenDieWithWorker(): boolean {
  if (deathSignal === undefined) {
    deathSignal =
      process.platform === 'linux' &&
      spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  }
  return deathSignal;
}

/**
 * `command` (program and arguments) run at `niceness` more than this process, and killed by the
 * kernel when this process dies where setpriv allows it (see {@link childrenDieWithWorker}).
 */
export function nicedCommand(command: readonly string[], niceness: number): string[] {
  const niced = ['nice', '-n', String(niceness), ...command];
  return childrenDieWithWorker() ? ['setpriv', '--pdeathsig', 'KILL', '--', ...niced] : niced;
}

/** A child that exited with an error: `message` ends with the last lines it wrote to stderr. */
export class ChildProcessError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly exitSignal: NodeJS.Signals | null,
    readonly stderrTail: string,
  ) {
    super(
      `${command} ${exitCode === null ? `was killed (${exitSignal})` : `exited with ${exitCode}`}${
        stderrTail ? `: ${stderrTail}` : ''
      }`,
    );
    this.name = 'ChildProcessError';
  }
}

/**
 * Runs long work (ffmpeg…) in a child process at a lower CPU priority (`nice`), never on the
 * event loop: an argument array (no shell), stdout read line by line, the last stderr lines
 * kept as the failure reason. Resolves when it exits with 0; rejects with a ChildProcessError
 * otherwise, or with the signal's reason when aborted. The child dies with this process (even by
 * `kill -9`: setpriv's parent-death signal) and is recorded in the unit's work directory, so a
 * later start stops it if it outlived its worker anyway (work-dirs.ts).
 */
export function runNiced(command: string, args: readonly string[], options: ChildOptions = {}) {
  const { signal, niceness = 10, keepLines = 20, killAfterMs = 5_000 } = options;
  return new Promise<void>((resolve, reject) => {
    signal?.throwIfAborted();
    const [program, ...argv] = nicedCommand([command, ...args], niceness);
    const child = spawn(program!, argv, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that an abort stops whatever it started too (a grandchild
      // left running would also hold the pipes open).
      detached: true,
    });
    // Recorded in the unit's work directory: a start after this worker died stops it if it lives.
    const workDir = options.workDir ?? currentWorkDir();
    const forget =
      workDir && child.pid ? recordChild(workDir, child.pid, [command, ...args]) : () => {};
    const tail: string[] = [];
    let partialErr = '';
    let partialOut = '';
    const keep = (line: string) => {
      if (line.trim() === '') return;
      tail.push(line);
      if (tail.length > keepLines) tail.shift();
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const lines = (partialErr + chunk).split('\n');
      partialErr = lines.pop() ?? '';
      lines.forEach(keep);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partialOut + chunk).split('\n');
      partialOut = lines.pop() ?? '';
      if (options.onLine) lines.forEach(options.onLine);
    });

    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), killAfterMs);
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.once('error', (error) => {
      forget();
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, exitSignal) => {
      clearTimeout(killTimer);
      forget();
      signal?.removeEventListener('abort', onAbort);
      keep(partialErr);
      if (partialOut && options.onLine) options.onLine(partialOut);
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new ChildProcessError(command, code, exitSignal, tail.join('\n')));
    });
  });
}
