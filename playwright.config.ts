import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
/**
 * Debian's Chromium headless shell (package chromium-headless-shell: the same Chromium build
 * without the full browser's UI layers, what Playwright itself runs for headless tests) when it is
 * installed: the same specs in about 10 % less CPU than /usr/bin/chromium (docs/decisions.md
 * "Tests"). `CHROMIUM_PATH` chooses another.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
const MOVES_MONEY = [
  '**/cards.spec.ts',
  '**/cards-large.spec.ts',
  '**/customers.spec.ts',
  '**/property.spec.ts',
  '**/recharge.spec.ts',
  '**/recharge-buy.spec.ts',
  // Video tasks are paid for (the demo merchant's money).
  '**/video-tasks.spec.ts',
  '**/video-task-batch.spec.ts',
  // A narrated task: money for the video, digital-human seconds for its speech.
  '**/narration.spec.ts',
  // Digital-human videos freeze and settle the demo users' digital-human seconds.
  '**/digital-human-videos.spec.ts',
  // Clones are paid for (one image clone, one voice clone bought with the merchant's money).
  '**/digital-human-clones.spec.ts',
  // Video templates: two digital-human videos (the merchant's seconds).
  '**/video-templates.spec.ts',
  // Binds the demo merchant's social accounts and publishes its videos (no dashboard reads them).
  '**/matrix.spec.ts',
  // Publishes the demo merchant's videos to the sandbox platform through a release plan.
  '**/matrix-plans.spec.ts',
];

/**
 * Each project has a server of its own (`npm start` with the demo data on a fresh data dir under
 * E2E_DATA_DIR, on E2E_PORT and the port after it): no project waits for another or sees its
 * changes (docs/decisions.md "Tests").
 */
const SERVERS = { seeded: PORT, 'moves-money': PORT + 1 } as const;
/** tests/e2e/system-init.spec.ts's fake WeChat API (the port after the servers'). */
const FAKE_WECHAT_PORT = PORT + 2;
type ProjectName = keyof typeof SERVERS;
const dataDir = (project: ProjectName) => `${E2E_DATA_DIR}/${project}`;
const baseURL = (project: ProjectName) => `http://127.0.0.1:${SERVERS[project]}`;
const project = (name: ProjectName) => ({
  name,
  use: { baseURL: baseURL(name) },
  // tests/e2e/fixtures.ts `dataDir()`: the server's sms.log and stored files.
  metadata: { dataDir: dataDir(name) },
});

/** Browser tests: the system Chromium against `npm start` on a fresh temporary data dir. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    locale: 'zh-CN',
    // Recording a trace snapshots the page at every step: on 2 cores the demo-data specs took
    // 7.8 min with traces and 4.5 min without. `E2E_TRACE=1` records them (kept for failed tests).
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
  // Specs that read the demo data's numbers (dashboards, seeded balances and counts) and the specs
  // that move money and add users (partners with balances of their own) each have their own
  // server and data, so no spec sees another's changes half-way and neither waits for the other.
  projects: [
    { ...project('seeded'), testIgnore: MOVES_MONEY },
    { ...project('moves-money'), testMatch: MOVES_MONEY },
  ],
  webServer: (Object.keys(SERVERS) as ProjectName[]).map((name) => ({
    command: `rm -rf ${dataDir(name)} && node scripts/start.mjs`,
    url: `${baseURL(name)}/api/v1/platform/get_system_info?domain=127.0.0.1`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe' as const,
    env: {
      PORT: String(SERVERS[name]),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir(name),
      SKIP_BUILD: '1',
      DEMO: '1',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // 2 s renders at 720p, as fast as x264 goes (the product's default is veryfast).
      VIDEO_RENDER_PRESET: 'ultrafast',
      // Posts under review are asked about every second (the product's default is 30 s).
      MATRIX_REVIEW_POLL_MS: '1000',
      // The fake WeChat server API system-init.spec.ts starts for the mini program's check.
      WECHAT_API_BASE_URL: `http://127.0.0.1:${FAKE_WECHAT_PORT}`,
    },
  })),
});
