/** Chromium's `scheduler.yield()` (a task that keeps its place ahead of other queued work). */
interface YieldingScheduler {
  yield(): Promise<void>;
}

/**
 * Resolves in a later task, so the browser handles input, paints and other queued tasks first:
 * long start-up work cut at these points leaves no task long enough to hold up a key press.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
