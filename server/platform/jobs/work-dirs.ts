import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, writeFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Work directories of outside work (docs/architecture.md §The path of a job): every unit works in
 * `DATA_DIR/work/<kind>/<key>-<random>`, never in the OS temp dir, so that what a dead worker
 * left behind is found and removed by the next start.
 *
 * Each directory holds `owner.json` (the worker's host, pid and the pid's start time) and, under
 * `.children/`, one file per child process started in it (its argv). A directory is an orphan
 * when its owner is on this host and that process is gone (no such pid, or a pid reused by a
 * process that started at another time). Directories of another host are never touched: that
 * host's own start sweeps them (docs/decisions.md "Jobs").
 */

const OWNER_FILE = 'owner.json';
const CHILDREN = '.children';
/** A directory without an owner file (its worker died between the two calls) is an orphan after this. */
const OWNERLESS_GRACE_MS = 60_000;

interface Owner {
  host: string;
  pid: number;
  /** The process's start time (field 22 of /proc/<pid>/stat), null where /proc is missing. */
  started: string | null;
}

/** The start time of a process (clock ticks since boot), or null when it is gone or unknown. */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

const SELF: Owner = { host: os.hostname(), pid: process.pid, started: startOf(process.pid) };

/** Whether the worker that owns a directory may still be running (another host's: assumed). */
function ownerAlive(owner: Owner): boolean {
  if (owner.host !== SELF.host) return true;
  if (HAS_PROC) return owner.started !== null && startOf(owner.pid) === owner.started;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch {
    return false;
  }
}

const current = new AsyncLocalStorage<string>();

/** The work directory of the unit this code runs for (children record themselves in it). */
export const currentWorkDir = (): string | undefined => current.getStore();

/** Runs `work` as the unit of `dir`: the children it starts are recorded there. */
export const inWorkDir = <T>(dir: string, work: () => Promise<T>): Promise<T> =>
  current.run(dir, work);

/**
 * Records a child process started for the unit of `dir` (its argv as /proc shows it once `nice`
 * and `setpriv` have exec'd it), so that a later sweep can stop it if its worker died. Returns
 * the function that forgets it again when it exits.
 */
export function recordChild(dir: string, pid: number, argv: readonly string[]): () => void {
  const file = path.join(dir, CHILDREN, String(pid));
  try {
    mkdirSync(path.join(dir, CHILDREN), { recursive: true });
    writeFileSync(file, JSON.stringify(argv));
  } catch {
    // The directory is gone (the unit ended): nothing to record.
  }
  return () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

/** Opens a fresh work directory for one unit, after removing that unit's own leftovers. */
export async function openWorkDir(dataDir: string, kind: string, key: string): Promise<string> {
  const parent = path.join(dataDir, 'work', kind);
  await fs.mkdir(parent, { recursive: true });
  await sweepWorkDirs(dataDir, { kind, prefix: `${key}-` });
  const dir = await fs.mkdtemp(path.join(parent, `${key}-`));
  await fs.writeFile(path.join(dir, OWNER_FILE), JSON.stringify(SELF));
  return dir;
}

export interface SweepReport {
  /** Directories removed. */
  removed: string[];
  /** Leftover children stopped (pids). */
  killed: number[];
}

/**
 * Removes orphan work directories under `DATA_DIR/work` (all kinds, or one kind's names with a
 * prefix), first stopping (SIGKILL to its process group) each child they recorded that still
 * runs — only when `/proc/<pid>/cmdline` is still that child's argv, so a reused pid is never
 * killed. Directories of live workers (this one's included) are left alone.
 */
export async function sweepWorkDirs(
  dataDir: string,
  only?: { kind: string; prefix: string },
): Promise<SweepReport> {
  const report: SweepReport = { removed: [], killed: [] };
  const root = path.join(dataDir, 'work');
  const kinds = only ? [only.kind] : await names(root);
  for (const kind of kinds) {
    for (const name of await names(path.join(root, kind))) {
      if (only && !name.startsWith(only.prefix)) continue;
      const dir = path.join(root, kind, name);
      if (!(await orphan(dir))) continue;
      report.killed.push(...(await stopChildren(dir)));
      await fs.rm(dir, { recursive: true, force: true });
      report.removed.push(dir);
    }
  }
  return report;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

async function orphan(dir: string): Promise<boolean> {
  let owner: Owner;
  try {
    owner = JSON.parse(await fs.readFile(path.join(dir, OWNER_FILE), 'utf8')) as Owner;
  } catch {
    try {
      const stat = await fs.stat(dir);
      return stat.isDirectory() && Date.now() - stat.mtimeMs > OWNERLESS_GRACE_MS;
    } catch {
      return false;
    }
  }
  return !ownerAlive(owner);
}

async function stopChildren(dir: string): Promise<number[]> {
  const killed: number[] = [];
  for (const name of await names(path.join(dir, CHILDREN))) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    let argv: string[];
    let cmdline: string;
    try {
      argv = JSON.parse(await fs.readFile(path.join(dir, CHILDREN, name), 'utf8')) as string[];
      cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone, or no /proc: nothing we can check, so nothing is killed
    }
    // Before `nice` exec's the command, the argv still starts with setpriv/nice: compare the tail.
    if (!`\0${cmdline.replace(/\0$/, '')}`.endsWith(`\0${argv.join('\0')}`)) continue;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // not a group leader, or already gone
      }
    }
    killed.push(pid);
  }
  return killed;
}
