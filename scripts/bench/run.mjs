// npm run bench: how light and fast the console is, as ratios to a floor timed in the same run
//, the money API under load with large lists and the card
// page at 1000 rows per page (scripts/bench/card-page.mjs), uploads through
// tus (scripts/bench/upload-load.ts), the resource library and the API under
// renders (scripts/bench/resource-load.ts), video tasks through the queue
// vs a plain ffmpeg loop (scripts/bench/video-load.ts), a 30-second
// digital-human video (scripts/bench/dh-video-load.ts), matrix distribution's plans and publishing
// (scripts/bench/matrix-load.ts), full loads of signed-in pages beside /login
// (scripts/bench/signed-in-load.mjs), previews before paying (scripts/bench/preview-load.ts), what
// narration adds to a render (scripts/bench/narration-load.ts), "download all"'s ZIP
// (scripts/bench/zip-load.ts). Prints figures
// beside their targets; never fails on slow numbers, exits 1 only when it cannot measure.
// Options: --runs=N (default 5), --only=a,b,c (some sections), --source=DIR (measure another
// checkout, e.g. a git worktree of an older commit), --keep (keep the temp dir).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { buildFloor, buildProduct, root, serveFloor, startProduct } from './servers.mjs';
import { measureCardPage } from './card-page.mjs';
import { measureSignedInLoads } from './signed-in-load.mjs';
import {
  CHROMIUM_ARGS,
  measureBytes,
  measureTabSwitch,
  median,
  timeLoginVisible,
} from './measure.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}`))?.split('=')[1] ?? '';
const RUNS = Number(arg('runs') || 5);
const KEEP = process.argv.includes('--keep');
const ONLY = new Set((arg('only') || 'a,b,c,d,e,f,g,h,i,j,k,n,p,z').split(','));
const BROWSER_SECTIONS = ['a', 'b', 'c', 'k'].some((s) => ONLY.has(s));
const SOURCE = resolve(arg('source') || root);

const TIMING_LABELS = {
  inPage: 'in page',
  wallClock: 'wall clock',
  wallClockBackoff: 'wall (backoff)',
  cpu: 'main-thread CPU',
};
const TARGET = { ratio: 2.2, loginKB: 200, homeKB: 350, switchRatio: 2 };
const kb = (bytes) => bytes / 1024;
const fmtKB = (bytes) => `${kb(bytes).toFixed(1)} KB`;
const verdict = (ok) => (ok ? 'ok' : 'MISSES TARGET');
const pad = (s, n) => String(s).padEnd(n);

mkdirSync(join(root, '.tmp'), { recursive: true });
const work = mkdtempSync(join(root, '.tmp', 'bench-'));
const cleanups = [];
let failed = false;

function section(title) {
  console.log(`\n${title}`);
}

try {
  if (BROWSER_SECTIONS) await browserSections();
  if (ONLY.has('d')) {
    section(
      'd. Money API, large lists and get_system_info: speed targets as ratios to baselines of ' +
        'the same run (the server in a child process, real HTTP, its own database)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'api-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('e')) {
    section('e. Card page at 1000 rows per page (the virtualised table)');
    try {
      await measureCardPage({ source: SOURCE, work, runs: RUNS, cleanups });
    } catch (error) {
      failed = true;
      console.log(`   could not measure: ${error.message.split('\n')[0]}`);
    }
  }
  if (ONLY.has('f')) {
    section(
      'f. Uploads through tus on loopback (throughput vs writing to disk directly; ' +
        'the server’s memory during 1 GB)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'upload-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('g')) {
    section(
      'g. Resource library at 100 000 resources, and the API while two renders run (' +
        'targets as ratios to a trivial endpoint of the same run; server in a child process)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'resource-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('h')) {
    section(
      'h. Video tasks: 20 outputs through the API and the job queue vs the same ffmpeg ' +
        'commands in a plain loop; add → first output; the API during renders (server in a child process)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'video-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('i')) {
    section(
      'i. Digital-human video: about 30 s with the embedded provider through the API ' +
        'and the job runner: making time vs the video’s duration; the API meanwhile (server in a child process)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'dh-video-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('j')) {
    section(
      'j. Matrix distribution: a 120 000-post plan through the API, its lists, and 1 000 posts ' +
        'published at once to the sandbox platform vs its calls in a loop (server in a child process)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'matrix-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('p')) {
    section(
      'p. Preview before paying: the call to a ready preview of a 3-shot 720p task (target ≤ 3 s), ' +
        'and behind paid outputs (server in a child process)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'preview-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('n')) {
    section(
      'n. Narration: a 3-shot 720p output rendered with and without a narration (the speech ' +
        'made by the output, or reused), through the API and the queue (target ≤ +30 %)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'narration-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
  if (ONLY.has('z')) {
    section(
      'z. Download all: a ZIP of 20 outputs streamed over loopback HTTP vs reading the same ' +
        'files from disk (target ≥ 80 %)',
    );
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(SOURCE, 'scripts', 'bench', 'zip-load.ts')],
      { cwd: SOURCE, stdio: 'inherit' },
    );
    if (result.status !== 0) {
      failed = true;
      console.log('   could not measure (see above)');
    }
  }
} catch (error) {
  failed = true;
  console.error(`bench: ${error.stack ?? error}`);
} finally {
  for (const stop of cleanups.reverse()) await stop().catch(() => {});
  if (!KEEP) rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

async function browserSections() {
  console.log(`Building the console (${SOURCE}) and the floor page…`);
  const staticDir = join(work, 'product');
  buildProduct(SOURCE, staticDir);
  const floorDist = await buildFloor(join(work, 'floor'));
  const product = await startProduct({ source: SOURCE, staticDir, dataDir: join(work, 'data') });
  cleanups.push(product.stop);
  const floor = await serveFloor(floorDist);
  cleanups.push(floor.stop);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  cleanups.push(() => browser.close());
  console.log(
    `Chromium ${browser.version()} headless; median of ${RUNS}; floor and product alternating; ` +
      'a fresh context per run; HTTP cache off.',
  );

  if (ONLY.has('a')) {
    // a. Login visible time, as a ratio to the floor.
    section('a. Login visible time (median ms; ratio = /login ÷ floor)');
    console.log(
      '   in page: from navigation start to the first frame showing the login button; wall clock:\n' +
        '   from asking the browser to navigate to Playwright seeing the button visible (checked in\n' +
        '   every frame); wall (backoff): the same through locator.waitFor, whose checks come 0, 20,\n' +
        '   50, 100, 100, 500… ms apart (steps of up to 500 ms; for comparison with earlier stops);\n' +
        '   main-thread CPU: thread time of the page until that frame (not blurred by a busy machine).',
    );
    console.log(
      `   ${pad('CPU', 5)}${pad('timing', 16)}${pad('floor', 10)}${pad('/login', 10)}` +
        `${pad('ratio', 9)}${pad('target', 10)}`,
    );
    try {
      for (const rate of [1, 4]) {
        // One untimed load of each first (server and browser warm-up).
        await timeLoginVisible(browser, `${floor.base}/`, rate);
        await timeLoginVisible(browser, `${product.base}/login`, rate);
        const floorRuns = [];
        const productRuns = [];
        for (let i = 0; i < RUNS; i += 1) {
          floorRuns.push(await timeLoginVisible(browser, `${floor.base}/`, rate));
          productRuns.push(await timeLoginVisible(browser, `${product.base}/login`, rate));
        }
        for (const timing of ['inPage', 'wallClock', 'wallClockBackoff', 'cpu']) {
          const f = median(floorRuns.map((r) => r[timing]));
          const p = median(productRuns.map((r) => r[timing]));
          const ratio = p / f;
          console.log(
            `   ${pad(`${rate}×`, 5)}${pad(TIMING_LABELS[timing], 16)}` +
              `${pad(`${f.toFixed(0)} ms`, 10)}${pad(`${p.toFixed(0)} ms`, 10)}` +
              `${pad(`${ratio.toFixed(2)}×`, 9)}` +
              (timing === 'wallClockBackoff'
                ? 'for comparison'
                : `${pad(`≤ ${TARGET.ratio}×`, 10)}${verdict(ratio <= TARGET.ratio)}`),
          );
          console.log(
            `        runs: floor ${floorRuns.map((r) => r[timing].toFixed(0)).join(' ')}; ` +
              `/login ${productRuns.map((r) => r[timing].toFixed(0)).join(' ')}`,
          );
        }
      }
    } catch (error) {
      failed = true;
      console.log(`   could not measure: ${error.message}`);
    }
  }

  if (ONLY.has('b')) {
    // b. Bytes downloaded.
    section(
      'b. Bytes downloaded (compressed, as received: CDP encodedDataLength; KB = 1024 bytes)',
    );
    try {
      const { login, home } = await measureBytes(browser, product.base);
      const detail = (b) =>
        Object.entries(b.byKind)
          .sort((x, y) => y[1] - x[1])
          .map(([k, v]) => `${k} ${kb(v).toFixed(1)}`)
          .join(', ');
      console.log(
        `   ${pad('/login', 28)}${pad(fmtKB(login.total), 11)}${pad(`target ≤ ${TARGET.loginKB} KB`, 19)}` +
          `${verdict(kb(login.total) <= TARGET.loginKB)}   (${detail(login)})`,
      );
      console.log(
        `   ${pad('login + admin home', 28)}${pad(fmtKB(home.total), 11)}${pad(`target ≤ ${TARGET.homeKB} KB`, 19)}` +
          `${verdict(kb(home.total) <= TARGET.homeKB)}   (${detail(home)})`,
      );
    } catch (error) {
      failed = true;
      console.log(`   could not measure: ${error.message}`);
    }
  }

  if (ONLY.has('c')) {
    // c. Cached tab switch.
    section('c. Cached tab switch (admin: Home, then Merchants, then back to the Home tab)');
    try {
      const tabs = await measureTabSwitch(browser, product.base, RUNS);
      if (!tabs.available) {
        console.log('   tab bar not available (no role="tablist" with a "Home" tab after login)');
      } else {
        const ratio = tabs.freshMs / tabs.switchMs;
        console.log(`   ${pad('switch to the cached tab', 28)}${tabs.switchMs.toFixed(0)} ms`);
        console.log(
          `   ${pad('open the page fresh', 28)}${tabs.freshMs.toFixed(0)} ms (${tabs.freshHow})`,
        );
        console.log(
          `   ${pad('ratio (fresh / switch)', 28)}${pad(`${ratio.toFixed(1)}× faster`, 14)}` +
            `${pad(`target ≥ ${TARGET.switchRatio}×`, 16)}${verdict(ratio >= TARGET.switchRatio)}`,
        );
        console.log(
          `   ${pad('repeated API calls', 28)}${pad(tabs.repeated.length, 14)}${pad('target 0', 16)}` +
            `${verdict(tabs.repeated.length === 0)}${tabs.repeated.length ? `   (${tabs.repeated.join(', ')})` : ''}`,
        );
        console.log(
          `          runs: switch ${tabs.switchRuns.map((v) => v.toFixed(0)).join(' ')}; ` +
            `fresh ${tabs.freshRuns.map((v) => v.toFixed(0)).join(' ')}`,
        );
      }
    } catch (error) {
      failed = true;
      console.log(`   could not measure: ${error.message.split('\n')[0]}`);
    }
  }

  if (ONLY.has('k')) {
    // k. Signed-in pages loaded afresh, beside /login (scripts/bench/signed-in-load.mjs).
    section(
      'k. Full load of signed-in pages (partner, stored session) beside /login: median ms from ' +
        'navigation start to the document, the first data call and content',
    );
    try {
      await measureSignedInLoads(browser, product.base, RUNS);
    } catch (error) {
      failed = true;
      console.log(`   could not measure: ${error.message.split('\n')[0]}`);
    }
  }
}
