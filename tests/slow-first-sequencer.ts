import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order Vitest starts test files in (vitest.config.ts `sequence.sequencer`): the slowest
 * first, whichever project they are in.
 *
 * Vitest's own order puts one project's files before the other's and, without a cache of earlier
 * runs (CI starts from `npm ci`: no node_modules/.vite), the larger files first. A short file can
 * be a slow one (a crash suite restarts a server twenty times, a view path test walks dozens of
 * paths): started late, it alone ran for minutes after the pool's other workers had finished.
 * Started first, the many short files fill the other workers meanwhile (longest processing time
 * first). The files not listed keep Vitest's order after these.
 *
 * Seconds per file on the 2-core CI machine (`--reporter=json`); only their order matters. A
 * file missing from the list is merely started later; re-measure when a file becomes a slow one.
 */
const SECONDS: Record<string, number> = {
  // From a fresh-clone .ci/run (2026-11-29: view and server files sharing workers, auth split).
  'tests/server/video-tasks-render-embedded.test.ts': 53,
  'tests/model/auth-view-overstep.test.tsx': 52,
  'tests/server/dh-videos-vendor.test.ts': 49,
  'tests/model/auth-view-signed-out.test.tsx': 41,
  'tests/server/dh-videos-render-embedded.test.ts': 41,
  'tests/server/resources.test.ts': 36,
  'tests/model/auth-view-local-token.test.tsx': 35,
  'tests/server/customers.test.ts': 35,
  'tests/server/money-crash-postgres.test.ts': 35,
  'tests/server/cards.test.ts': 34,
  'tests/server/dh-clones-http.test.ts': 32,
  'tests/model/video-tasks-view.test.tsx': 32,
  'tests/server/money-crash-sqlite.test.ts': 31,
  'tests/server/video-tasks-render-bullmq.test.ts': 31,
  'tests/server/render-kill.test.ts': 30,
  'tests/server/dh-videos-crash-embedded.test.ts': 29,
  'tests/model/tabs-view.test.tsx': 29,
  'tests/server/video-tasks-crash-embedded.test.ts': 29,
  'tests/server/seed.test.ts': 28,
  'tests/model/resource-library-view.test.tsx': 26,
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) =>
      SECONDS[
        file.moduleId
          .slice(root.length + 1)
          .split('\\')
          .join('/')
      ] ?? 0;
    // Array.prototype.sort is stable: the files not listed keep Vitest's order.
    return sorted.sort((a, b) => seconds(b) - seconds(a));
  }
}
