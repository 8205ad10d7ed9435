import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './build/aliases.ts';
import SlowFirstSequencer from './tests/slow-first-sequencer.ts';

/** Server files that replace a module with `vi.mock`: they run isolated (project server-mocks). */
const SERVER_MOCKS = readdirSync('tests/server')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/server/${name}`)
  .filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));
const SERVER = {
  environment: 'node' as const,
  // The template databases each test copies (migrated, seeded), made once per run.
  globalSetup: ['tests/server/global-setup.ts'],
  testTimeout: 30000,
  hookTimeout: 60000,
};

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // Three files at a time even on 2 cores (Vitest's default there is one): the server suites
    // mostly wait (databases, password hashing threads, a spawned server) while view tests render.
    maxWorkers: 3,
    // The slowest files start first, across both projects (tests/slow-first-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/model/**/*.test.{ts,tsx}'],
          // happy-dom: the same paths in about 30 % less CPU than jsdom (docs/decisions.md "Tests").
          // A file that runs axe says `// @vitest-environment jsdom` (axe-core supports jsdom).
          environment: 'happy-dom',
          // A file that renders nothing and touches no browser API says so on its first line
          // (`// @vitest-environment node`): no DOM is set up for it.
          setupFiles: ['tests/setup-dom.ts'],
          // View tests render real Chakra pages in a DOM emulation: on a busy 2-core machine one
          // can take several seconds (a path's steps each render and settle).
          testTimeout: 20000,
        },
      },
      {
        extends: true,
        test: {
          ...SERVER,
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: SERVER_MOCKS,
          // One module graph per worker, not per file: every server test builds its own app,
          // database and data dir (tests/server/helpers.ts), so no file sees another's state, and
          // importing the server once per worker instead of once per file saves a quarter of the
          // project's CPU (docs/decisions.md "Tests").
          isolate: false,
        },
      },
      {
        extends: true,
        // The server files that replace a module (`vi.mock`) need a module graph of their own.
        test: { ...SERVER, name: 'server-mocks', include: SERVER_MOCKS },
      },
    ],
  },
});
