import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ChildProcessError, runNiced } from '../../server/platform/jobs/child-process';

/** Long work (ffmpeg) runs in a child at a lower CPU priority. */
describe('runNiced', () => {
  it('runs the child at a lower priority and hands over its stdout line by line', async () => {
    const lines: string[] = [];
    // `nice` without arguments prints its own niceness: the child's.
    await runNiced('nice', [], { onLine: (line) => lines.push(line) });
    expect(lines).toEqual([String(Math.min(19, os.getPriority() + 10))]);
    lines.length = 0;
    await runNiced('nice', [], { niceness: 5, onLine: (line) => lines.push(line) });
    expect(lines).toEqual([String(Math.min(19, os.getPriority() + 5))]);
  });

  it('fails with the last stderr lines as the reason', async () => {
    const script =
      'for i in $(seq 1 30); do echo "line $i" >&2; done; printf "no newline" >&2; exit 3';
    const error = await runNiced('sh', ['-c', script], { keepLines: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildProcessError);
    const failure = error as ChildProcessError;
    expect(failure.exitCode).toBe(3);
    expect(failure.stderrTail).toBe('line 29\nline 30\nno newline');
    expect(failure.message).toBe('sh exited with 3: line 29\nline 30\nno newline');
  });

  it('stops the child when aborted, and rejects with the reason', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runNiced('sleep', ['30'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 100);
    await expect(run).rejects.toThrow('cancelled');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('escalates to SIGKILL when the child ignores SIGTERM', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runNiced('sh', ['-c', 'trap "" TERM; sleep 30 & wait; sleep 30'], {
      signal: controller.signal,
      killAfterMs: 300,
    });
    setTimeout(() => controller.abort(new Error('stop')), 200);
    await expect(run).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects at once for an already aborted signal, and when the command is missing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(runNiced('true', [], { signal: controller.signal })).rejects.toThrow('too late');
    const missing = await runNiced('no-such-command-here', []).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ChildProcessError);
    expect((missing as ChildProcessError).exitCode).toBe(127);
  });
});
