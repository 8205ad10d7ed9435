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
  // From a quiet run of the whole suite (2026-11-30: 215 files, 540 s on 2 cores).
  'tests/server/video-tasks-render-embedded.test.ts': 48,
  'tests/server/dh-videos-vendor.test.ts': 37,
  'tests/model/matrix-plan-form-view.test.tsx': 36,
  'tests/server/resources.test.ts': 34,
  'tests/model/auth-view-overstep.test.tsx': 34,
  'tests/server/customers.test.ts': 34,
  'tests/server/cards.test.ts': 31,
  'tests/model/auth-view-signed-out.test.tsx': 24,
  'tests/server/video-tasks-crash-embedded.test.ts': 24,
  'tests/server/dh-videos-render-embedded.test.ts': 23,
  'tests/server/dh-clones-http.test.ts': 23,
  'tests/server/money-crash-postgres.test.ts': 23,
  'tests/server/seed.test.ts': 23,
  'tests/server/money-crash-sqlite.test.ts': 21,
  'tests/server/render-kill.test.ts': 21,
  'tests/model/matrix-accounts-view.test.tsx': 20,
  'tests/model/ai-tool-dialog-view.test.tsx': 19,
  'tests/server/dh-videos-crash-embedded.test.ts': 18,
  'tests/server/video-tasks-render-bullmq.test.ts': 17,
  'tests/model/task-presets-view.test.tsx': 17,
  'tests/model/auth-view-local-token.test.tsx': 15,
  'tests/model/customers-view.test.tsx': 15,
  'tests/server/dh-videos-render-bullmq.test.ts': 14,
  'tests/model/video-tasks-view.test.tsx': 14,
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
