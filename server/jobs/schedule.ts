import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * A sweep: work the server does on its own every `everyMs` (close unpaid orders, later purge old
 * rows). Each is one named function, so the job runner can take them over as recurring jobs.
 */
export interface Sweep {
  /** Names the sweep in the log (and, later, the job runner's job kind). */
  name: string;
  everyMs: number;
  /** One pass; resolves to how many items it handled (logged when any). */
  run: () => Promise<number>;
}

export interface RunningSweep {
  /** Stops the timer and waits for a pass under way, so nothing runs after the database closes. */
  stop(): Promise<void>;
}

/** Runs `sweep` every `everyMs`; a pass still running when the next is due skips that turn. */
export function startSweep(sweep: Sweep, log: FastifyBaseLogger): RunningSweep {
  let pass: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (pass) return;
    pass = sweep
      .run()
      .then((handled) => {
        if (handled > 0) log.info({ sweep: sweep.name, handled }, 'sweep done');
      })
      .catch((error: unknown) => log.error({ err: error, sweep: sweep.name }, 'sweep failed'))
      .finally(() => {
        pass = undefined;
      });
  }, sweep.everyMs);
  // The sweeps never keep the process alive on their own.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}

/** Starts the sweeps when the app is ready and stops them when it closes. */
export function scheduleSweeps(app: FastifyInstance, sweeps: readonly Sweep[]): void {
  let running: RunningSweep[] = [];
  app.addHook('onReady', async () => {
    running = sweeps.map((sweep) => startSweep(sweep, app.log));
  });
  app.addHook('onClose', async () => {
    await Promise.all(running.map((sweep) => sweep.stop()));
    running = [];
  });
}
