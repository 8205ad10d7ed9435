import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './build/aliases.ts';
import SlowFirstSequencer from './tests/slow-first-sequencer.ts';

/** Test files under `dirs` that replace a module with `vi.mock`: they run isolated (`…-mocks`). */
function mocking(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /\.test\.tsx?$/.test(name))
      .map((name) => `${dir}/${name}`)
      .filter((file) => readFileSync(file, 'utf8').includes('vi.mock(')),
  );
}
const SERVER_MOCKS = mocking('tests/server');
const UNIT_MOCKS = mocking('tests/unit', 'tests/model');
const UNIT = {
  // happy-dom: the same paths in about 30 % less CPU than jsdom (docs/decisions.md "Tests").
  // A file that runs axe says `// @vitest-environment jsdom` (axe-core supports jsdom).
  environment: 'happy-dom' as const,
  // A file that renders nothing and touches no browser API says so on its first line
  // (`// @vitest-environment node`): no DOM is set up for it.
  setupFiles: ['tests/setup-dom.ts'],
  // View tests render real Chakra pages in a DOM emulation: on a busy 2-core machine one
  // can take several seconds (a path's steps each render and settle).
  testTimeout: 20000,
};
const SERVER = {
  environment: 'node' as const,
  // The template databases each test copies (migrated, seeded), made once per run.
  globalSetup: ['tests/server/global-setup.ts'],
  testTimeout: 30000,
  hookTimeout: 60000,
};

/**
 * The test files' temporary directories (each server test's database copy and data dir, renders,
 * spawned servers' data) in memory where the machine has /dev/shm: SQLite commits with
 * `synchronous = FULL`, and on disk every commit waited for the disk (docs/decisions.md "Tests").
 */
function memoryTmpDir(): string | undefined {
  if (!existsSync('/dev/shm')) return undefined;
  const dir = '/dev/shm/video-console-tests';
  mkdirSync(dir, { recursive: true });
  return dir;
}
const TMPDIR = process.env.TEST_TMPDIR ?? memoryTmpDir();

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // Three files at a time even on 2 cores (Vitest's default there is one): the server suites
    // mostly wait (databases, password hashing threads, a spawned server) while view tests render.
    maxWorkers: 3,
    env: TMPDIR ? { TMPDIR } : {},
    // The slowest files start first, across both projects (tests/slow-first-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          ...UNIT,
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/model/**/*.test.{ts,tsx}'],
          exclude: UNIT_MOCKS,
          // One module graph and DOM per worker, not per file: tests/setup-dom.ts resets what a
          // file may leave behind (rendered trees, notices, storage, locale, the HTTP layer's
          // settings, fake timers) before the next one starts (docs/decisions.md "Tests").
          isolate: false,
        },
      },
      {
        extends: true,
        // The view files that replace a module (`vi.mock`) need a module graph of their own.
        test: { ...UNIT, name: 'unit-mocks', include: UNIT_MOCKS },
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
