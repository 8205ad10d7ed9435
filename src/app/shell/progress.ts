/**
 * The top progress bar's model (docs/domain.md §17: minimum 0.08, trickle rate 0.02, trickle speed 800 ms,
 * animation speed 200 ms). Work starts and ends by reference count: navigations and slow calls
 * overlap, and the bar completes when the last one ends. Timers are injectable for tests.
 */
export const PROGRESS = {
  minimum: 0.08,
  trickleRate: 0.02,
  trickleSpeed: 800,
  speed: 200,
} as const;

/** Calls shorter than this never show the bar. */
export const SLOW_CALL_MS = 300;

export interface ProgressState {
  /** 0..1 while visible; null when hidden. */
  value: number | null;
}

interface Timers {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
  setTimeout: (fn: () => void, ms: number) => unknown;
  random: () => number;
}

const realTimers: Timers = {
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  random: Math.random,
};

export function createProgress(timers: Timers = realTimers) {
  let pending = 0;
  let state: ProgressState = { value: null };
  let trickle: unknown = null;
  const listeners = new Set<() => void>();

  const set = (value: number | null) => {
    state = { value };
    listeners.forEach((l) => l());
  };
  const clampUp = (n: number) => Math.min(0.994, Math.max(PROGRESS.minimum, n));

  return {
    getSnapshot: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      pending += 1;
      if (pending > 1 && state.value !== null) return;
      set(PROGRESS.minimum);
      if (trickle === null) {
        trickle = timers.setInterval(() => {
          if (state.value !== null && state.value < 1) {
            set(clampUp(state.value + timers.random() * PROGRESS.trickleRate));
          }
        }, PROGRESS.trickleSpeed);
      }
    },
    done() {
      if (pending === 0) return;
      pending -= 1;
      if (pending > 0) return;
      if (trickle !== null) timers.clearInterval(trickle);
      trickle = null;
      set(1);
      // Let the bar reach the end, then fade it out.
      timers.setTimeout(() => {
        if (pending === 0) set(null);
      }, PROGRESS.speed * 2);
    },
    /** Wraps work that may be slow: the bar shows only if it is still running after SLOW_CALL_MS. */
    track<T>(work: Promise<T>): Promise<T> {
      let started = false;
      const timer = timers.setTimeout(() => {
        started = true;
        this.start();
      }, SLOW_CALL_MS);
      const end = () => {
        if (started) this.done();
        else globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>);
      };
      work.then(end, end);
      return work;
    },
  };
}

/** The console's one progress bar. */
export const progress = createProgress();
