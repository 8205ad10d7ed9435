// Section e of `npm run bench`: the card page at 1000 rows per page ("the card page
// stays responsive at 1,000 rows per page (virtualised)"). Builds the console twice — as shipped
// (pages over 100 rows virtualised) and with VITE_TABLE_VIRTUALIZE_OVER=100000 (every row
// rendered, the baseline) — starts each with `npm start`'s script on a fresh data dir with the
// demo data, makes 2000 cards as admin through the API, and in headless Chromium, per run in a
// fresh context: opens /promotion/card-password (20 rows), chooses the page size and times, in
// the page, the click to the first frame showing the new page; counts the body rows in the DOM;
// scrolls the table (or the page, when the table does not scroll) through every row, one step a
// frame, recording long tasks and frame times; clicks row checkboxes and times each click to the
// first frame showing the row checked and the toolbar's count.
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { buildProduct, startProduct } from './servers.mjs';
import { ACCOUNT, CHROMIUM_ARGS, median } from './measure.mjs';

/** Scrolled per frame: about 12 000 px a second at 60 frames, a fast fling. */
const SCROLL_STEP = 200;
const CLICKS = 5;

async function api(base, path, { token, body } = {}) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      platform: 'pc',
      lang: 'en-US',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { token } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const reply = await res.json();
  if (reply.code !== 1) throw new Error(`${path}: ${reply.msg}`);
  return reply.data;
}

/** Admin's token, after making 2000 cards (two `add` batches of 1000). */
async function seedCards(base) {
  const login = await api(base, '/platform/login', {
    body: { account: ACCOUNT.username, password: ACCOUNT.password },
  });
  const token = login.userinfo.token;
  for (let i = 0; i < 2; i += 1) {
    await api(base, '/recharge_card/add', {
      token,
      body: { asset: 'digital_voice', face_value: 1, quantity: 1000 },
    });
  }
  return token;
}

/** In the page: choose `limit` rows per page; ms to the first frame showing that page. */
function choosePageSize(limit) {
  return new Promise((resolve, reject) => {
    const select = [...document.querySelectorAll('nav select')].find((s) =>
      [...s.options].some((o) => o.value === String(limit)),
    );
    if (!select) return reject(new Error(`no page size ${limit}`));
    const table = document.querySelector('table[aria-busy]');
    const shown = () => {
      if (table.getAttribute('aria-busy') !== 'false') return false;
      const rowCount = table.getAttribute('aria-rowcount');
      if (rowCount) return rowCount === String(limit + 1);
      return table.querySelectorAll('tbody tr:not([aria-hidden])').length === limit;
    };
    const start = performance.now();
    const deadline = start + 60_000;
    const check = () => {
      if (shown()) {
        const api = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/card_list') && e.name.includes(`limit=${limit}`))
          .at(-1);
        return resolve({
          ms: performance.now() - start,
          apiMs: api ? api.duration : null,
          domRows: table.querySelectorAll('tbody tr').length,
          dataRows: table.querySelectorAll('tbody tr:not([aria-hidden])').length,
        });
      }
      if (performance.now() > deadline) return reject(new Error(`${limit} rows: not shown`));
      requestAnimationFrame(check);
    };
    select.value = String(limit);
    select.dispatchEvent(new Event('change', { bubbles: true }));
    requestAnimationFrame(check);
  });
}

/**
 * In the page: scroll through every row, `step` px a frame (the table's scroll area when it
 * scrolls, else the page); long tasks and frame times meanwhile.
 */
function scrollThrough(step) {
  return new Promise((resolve) => {
    // The table's scroll area when it scrolls (virtualised), else the nearest ancestor that does.
    const region = document.querySelector('[role=region][aria-label]');
    let scroller = region;
    while (
      scroller &&
      !(
        /auto|scroll/.test(getComputedStyle(scroller).overflowY) &&
        scroller.scrollHeight > scroller.clientHeight + 1
      )
    ) {
      scroller = scroller.parentElement;
    }
    scroller ??= document.scrollingElement;
    scroller.scrollTop = 0;
    const longTasks = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
    observer.observe({ type: 'longtask' });
    const frames = [];
    let last = performance.now();
    let atEnd = 0;
    const start = last;
    const frame = (now) => {
      frames.push(now - last);
      last = now;
      const end = scroller.scrollHeight - scroller.clientHeight;
      if (scroller.scrollTop >= end - 1) atEnd += 1;
      else atEnd = 0;
      // Two frames at the end (the window re-measured may add height): done.
      if (atEnd >= 2) {
        observer.disconnect();
        return resolve({
          scroller: scroller === region ? 'table' : 'page',
          ms: now - start,
          frames: frames.slice(1),
          longTasks: longTasks.map((t) => t.duration),
          lastRow: [...document.querySelectorAll('tbody tr[aria-rowindex], tbody tr')]
            .filter((tr) => !tr.hasAttribute('aria-hidden'))
            .at(-1)?.textContent,
        });
      }
      scroller.scrollTop = Math.min(end, scroller.scrollTop + step);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** In the page: click the checkbox of a row in view; ms to the frame showing it and the count. */
function clickRowCheckbox(nth) {
  return new Promise((resolve, reject) => {
    // Rows wholly in sight: below the (sticky) header, inside the scroll area and the window.
    const region = document.querySelector('[role=region][aria-label]').getBoundingClientRect();
    const head = document.querySelector('thead').getBoundingClientRect();
    const top = Math.max(0, region.top, head.bottom);
    const bottom = Math.min(innerHeight, region.bottom);
    const inView = [...document.querySelectorAll('tbody tr:not([aria-hidden])')].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= top && r.bottom <= bottom && tr.querySelector('input[type=checkbox]');
    });
    const row = inView[nth % inView.length];
    if (!row) return reject(new Error('no row with a checkbox in view'));
    const box = row.querySelector('input[type=checkbox]');
    const want = !box.checked;
    const countOf = () => {
      const button = [...document.querySelectorAll('button')].find((b) =>
        /^Transfer selected \(\d+\)$/.test(b.textContent.trim()),
      );
      return button ? Number(/\((\d+)\)/.exec(button.textContent)[1]) : NaN;
    };
    const before = countOf();
    const start = performance.now();
    const check = () => {
      const current = row.querySelector('input[type=checkbox]');
      if (current?.checked === want && countOf() === before + (want ? 1 : -1)) {
        return resolve(performance.now() - start);
      }
      if (performance.now() - start > 10_000) return reject(new Error('selection not shown'));
      requestAnimationFrame(check);
    };
    box.click();
    requestAnimationFrame(check);
  });
}

async function measureOnce(browser, base, token, limit) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript((t) => {
    localStorage.setItem('token', t);
    localStorage.setItem('locale', 'en-US');
  }, token);
  const page = await context.newPage();
  try {
    await page.goto(`${base}/promotion/card-password`);
    await page
      .locator('table[aria-busy="false"] tbody tr')
      .nth(19)
      .waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const shown = await page.evaluate(choosePageSize, limit);
    await page.waitForLoadState('networkidle');
    const scroll = await page.evaluate(scrollThrough, SCROLL_STEP);
    const clicks = [];
    for (let i = 0; i < CLICKS; i += 1) {
      clicks.push(await page.evaluate(clickRowCheckbox, i));
    }
    return { shown, scroll, clicks };
  } finally {
    await context.close();
  }
}

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const pad = (s, n) => String(s).padEnd(n);

function report(label, limit, runs) {
  const ms = (v) => (v == null ? '–' : `${v.toFixed(0)} ms`);
  const shown = median(runs.map((r) => r.shown.ms));
  const apiMs = runs.map((r) => r.shown.apiMs).filter((v) => v != null);
  const frames = runs.flatMap((r) => r.scroll.frames);
  const longTasks = runs.map((r) => r.scroll.longTasks);
  const clicks = runs.flatMap((r) => r.clicks);
  console.log(
    `   ${pad(label, 38)}${pad(limit, 6)}${pad(ms(shown), 10)}${pad(ms(apiMs.length ? median(apiMs) : null), 9)}` +
      `${pad(`${runs[0].shown.domRows} (${runs[0].shown.dataRows})`, 12)}` +
      `${pad(`${median(longTasks.map((l) => l.length))} / ${median(longTasks.map((l) => l.reduce((a, b) => a + b, 0))).toFixed(0)} ms`, 16)}` +
      `${pad(`${pct(frames, 50).toFixed(0)} / ${pct(frames, 95).toFixed(0)} / ${Math.max(...frames).toFixed(0)}`, 18)}` +
      `${ms(median(clicks))}`,
  );
  console.log(
    `        runs: painted ${runs.map((r) => r.shown.ms.toFixed(0)).join(' ')}; ` +
      `scroll (${runs[0].scroll.scroller}) ${runs.map((r) => `${r.scroll.frames.length} frames ${r.scroll.ms.toFixed(0)} ms`).join(', ')}; ` +
      `longest task ${Math.max(0, ...longTasks.flat()).toFixed(0)} ms; ` +
      `clicks ${clicks.map((c) => c.toFixed(0)).join(' ')}`,
  );
}

/** Section e: prints the figures; throws only when it cannot measure. */
export async function measureCardPage({ source, work, runs, cleanups }) {
  const builds = [
    { name: 'virtualised', env: {} },
    { name: 'whole', env: { VITE_TABLE_VIRTUALIZE_OVER: '100000' } },
  ];
  const servers = {};
  for (const build of builds) {
    const staticDir = join(work, `card-page-${build.name}`);
    const saved = { ...process.env };
    Object.assign(process.env, build.env);
    try {
      buildProduct(source, staticDir);
    } finally {
      for (const key of Object.keys(build.env)) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
    const product = await startProduct({
      source,
      staticDir,
      dataDir: join(work, `card-page-data-${build.name}`),
    });
    cleanups.push(product.stop);
    servers[build.name] = { base: product.base, token: await seedCards(product.base) };
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  cleanups.push(() => browser.close());
  const cases = [
    { label: '1000/page, virtualised (as shipped)', server: 'virtualised', limit: 1000 },
    { label: '1000/page, every row rendered', server: 'whole', limit: 1000 },
    { label: '100/page (every row, as before)', server: 'virtualised', limit: 100 },
  ];
  console.log(
    `   Chromium ${browser.version()} headless, 1280×720, admin, 2000+ cards; median of ${runs} ` +
      `(a fresh context each); scroll ${SCROLL_STEP} px a frame; ${CLICKS} checkbox clicks a run.`,
  );
  console.log(
    `   ${pad('case', 38)}${pad('rows', 6)}${pad('painted', 10)}${pad('(API)', 9)}` +
      `${pad('DOM rows', 12)}${pad('long tasks', 16)}${pad('frame p50/95/max', 18)}select→shown`,
  );
  for (const c of cases) {
    const { base, token } = servers[c.server];
    await measureOnce(browser, base, token, c.limit); // warm-up, untimed
    const results = [];
    for (let i = 0; i < runs; i += 1)
      results.push(await measureOnce(browser, base, token, c.limit));
    report(c.label, c.limit, results);
  }
  console.log(
    '   painted: choosing the page size → first frame showing the page (API: the card_list\n' +
      '   request, server + transfer); DOM rows: body rows (data rows) after painting; long tasks\n' +
      '   (≥ 50 ms) while scrolling through every row: count / total; frame times in ms;\n' +
      '   select→shown: a row checkbox clicked → first frame showing it checked and counted.',
  );
}
