// What the bench measures in headless Chromium (CDP for CPU throttling, cache and byte counts).

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const ACCOUNT = { username: 'admin', password: 'Demo@2026' };

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Marks, from inside the page, the first animation frame in which a submit button is laid out
 * and visible (ms since navigation start): the same probe for the floor and the product.
 */
const VISIBLE_PROBE = () => {
  const probe = { visibleAt: null };
  Object.defineProperty(window, '__benchProbe', { value: probe });
  const check = () => {
    const button = document.querySelector('button[type=submit]');
    if (button && button.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      const rect = button.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0) {
        probe.visibleAt = performance.now();
        performance.mark('bench-visible');
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

/** A fresh context and page with the HTTP cache off and the CPU throttled by `cpuRate`. */
async function freshPage(browser, { cpuRate = 1, initScript, locale } = {}) {
  const context = await browser.newContext(locale ? { locale } : {});
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (cpuRate !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  return { context, page, cdp };
}

/**
 * Main-thread CPU time (thread clock, so other processes on the machine do not count) of the
 * page's tasks up to the frame that showed the login button, from a Chromium trace.
 */
function mainThreadCpuMs(trace) {
  const events = JSON.parse(trace.toString('utf8')).traceEvents;
  const mark = events.find((e) => e.name === 'bench-visible');
  if (!mark) throw new Error('no bench-visible mark in the trace');
  let total = 0;
  for (const e of events) {
    if (e.pid !== mark.pid || e.tid !== mark.tid || e.ph !== 'X' || e.ts > mark.ts) continue;
    if (e.name === 'ThreadControllerImpl::RunTask') total += e.tdur ?? 0;
  }
  return total / 1000;
}

/** The page-side check of both wall-clock waits: Playwright's own "visible" test. */
const BUTTON_VISIBLE = () => {
  const button = document.querySelector('button[type=submit]');
  if (!button) return false;
  const style = getComputedStyle(button);
  const rect = button.getBoundingClientRect();
  return style.visibility === 'visible' && rect.width > 0 && rect.height > 0;
};

/**
 * Login button visible, four ways: `inPage` = ms from navigation start to its first visible frame
 * (the probe above); `wallClock` = ms from asking the browser to navigate to Playwright seeing it
 * visible, Playwright checking in every animation frame (as a person at the machine would time
 * it); `wallClockBackoff` = the same seen through `locator.waitFor`, whose checks back off to
 * 0, 20, 50, 100, 100, 500, 500… ms apart (the bench's wall clock until stop 20: its figure jumps
 * by up to 500 ms with the poll the button happens to miss, docs/performance.md); `cpu` =
 * main-thread CPU ms spent until that frame (what a loaded machine cannot blur). Both waits run
 * side by side on the same navigation.
 */
export async function timeLoginVisible(browser, url, cpuRate) {
  const { context, page } = await freshPage(browser, { cpuRate, initScript: VISIBLE_PROBE });
  try {
    await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
    const start = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    const since = () => performance.now() - start;
    const [wallClock, wallClockBackoff] = await Promise.all([
      page.waitForFunction(BUTTON_VISIBLE, null, { polling: 'raf', timeout: 60_000 }).then(since),
      page
        .locator('button[type=submit]')
        .waitFor({ state: 'visible', timeout: 60_000 })
        .then(since),
    ]);
    await page.waitForFunction(() => window.__benchProbe?.visibleAt != null, null, {
      timeout: 60_000,
      polling: 50,
    });
    const inPage = await page.evaluate(() => window.__benchProbe.visibleAt);
    const cpu = mainThreadCpuMs(await browser.stopTracing());
    return { inPage, wallClock, wallClockBackoff, cpu };
  } finally {
    await context.close();
  }
}

/** Counts compressed bytes received (CDP encodedDataLength: headers + body as sent) by kind. */
function byteCounter(cdp) {
  const kinds = new Map();
  const urls = new Map();
  const totals = { total: 0, byKind: {} };
  cdp.on('Network.responseReceived', (e) => {
    const url = new URL(e.response.url);
    urls.set(e.requestId, url.pathname);
    const kind = url.pathname.startsWith('/api/')
      ? 'api'
      : /\.js$/.test(url.pathname)
        ? 'js'
        : /\.css$/.test(url.pathname)
          ? 'css'
          : e.type === 'Document'
            ? 'html'
            : 'other';
    kinds.set(e.requestId, kind);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const kind = kinds.get(e.requestId) ?? 'other';
    totals.total += e.encodedDataLength;
    totals.byKind[kind] = (totals.byKind[kind] ?? 0) + e.encodedDataLength;
    // BENCH_BYTES_DETAIL=1 prints each response as it ends (what a budget is spent on).
    if (process.env.BENCH_BYTES_DETAIL) {
      console.log(
        `      ${(e.encodedDataLength / 1024).toFixed(1).padStart(7)} KB  ${urls.get(e.requestId)}`,
      );
    }
  });
  return () => ({ total: totals.total, byKind: { ...totals.byKind } });
}

/**
 * A routed page is painted: a section named by its title shown, nothing in it loading. (Any
 * such section: a hidden kept-alive page may carry the same name.)
 */
export function pagePainted(title) {
  return [...document.querySelectorAll(`section[aria-label="${CSS.escape(title)}"]`)].some(
    (section) => section.checkVisibility() && !section.querySelector('[data-loading]'),
  );
}

async function signIn(page) {
  await page.locator('input[autocomplete=username]').fill(ACCOUNT.username);
  await page.locator('input[autocomplete=current-password]').fill(ACCOUNT.password);
  await page.locator('button[type=submit]').click();
}

/** Bytes for /login, then for login + the admin home after signing in as admin. */
export async function measureBytes(browser, base) {
  const { context, page, cdp } = await freshPage(browser, {
    initScript: () => localStorage.setItem('locale', 'en-US'),
  });
  try {
    const bytes = byteCounter(cdp);
    await page.goto(`${base}/login`);
    await page.locator('button[type=submit]').waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const login = bytes();
    await signIn(page);
    await page.waitForURL('**/home/index', { timeout: 30_000 });
    await page.waitForFunction(pagePainted, 'Home', { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const home = bytes();
    return { login, home };
  } finally {
    await context.close();
  }
}

/**
 * Clicks `target` (an element handle) and resolves with ms from the click to the first animation
 * frame in which `painted(title)` holds, timed inside the page.
 */
async function timeClickUntilPainted(page, target, title) {
  return page.evaluate(
    ([element, pageTitle]) =>
      new Promise((resolve, reject) => {
        // pagePainted, inlined (the page's CSP forbids rebuilding it from source).
        const painted = (title) =>
          [...document.querySelectorAll(`section[aria-label="${CSS.escape(title)}"]`)].some(
            (section) => section.checkVisibility() && !section.querySelector('[data-loading]'),
          );
        const start = performance.now();
        const deadline = start + 15_000;
        const check = () => {
          if (painted(pageTitle)) return resolve(performance.now() - start);
          if (performance.now() > deadline) {
            const sections = [...document.querySelectorAll('section[aria-label]')].map(
              (s) =>
                `${s.getAttribute('aria-label')}${s.checkVisibility() ? '' : ' (hidden)'}` +
                `${s.querySelector('[data-loading]') ? ' (loading)' : ''}`,
            );
            return reject(
              new Error(
                `${pageTitle}: not painted 15 s after the click (at ${location.pathname}; ` +
                  `pages: ${sections.join(', ') || 'none'})`,
              ),
            );
          }
          requestAnimationFrame(check);
        };
        element.click();
        requestAnimationFrame(check);
      }),
    [target, title],
  );
}

/** API calls (method + path + query) the page makes while `work` runs, and until the network is idle. */
async function apiCallsDuring(page, work) {
  const calls = [];
  const onRequest = (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      calls.push(`${request.method()} ${url.pathname}${url.search}`);
  };
  page.on('request', onRequest);
  try {
    const result = await work();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    return { result, calls };
  } finally {
    page.off('request', onRequest);
  }
}

const TAB_A = { title: 'Home', path: '/home/index' };
const TAB_B = { title: 'Merchants', path: '/promotion/merchant' };

function tabOf(page, title) {
  return page.getByRole('tablist').getByRole('tab', { name: title, exact: true });
}

/**
 * Closes a tab the ways a tab bar offers: a close button in it, else Delete on the focused tab
 * (the WAI-ARIA tabs pattern), else "Close" in its context menu. False when none worked.
 */
async function closeTab(page, title) {
  const tab = tabOf(page, title);
  const gone = () =>
    tab
      .waitFor({ state: 'detached', timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
  const button = tab.getByRole('button', { name: /close|关闭/i });
  if ((await button.count()) > 0) {
    await button.first().click();
    if (await gone()) return true;
  }
  await tab.focus();
  await page.keyboard.press('Delete');
  if (await gone()) return true;
  await tab.click({ button: 'right' });
  const item = page.getByRole('menuitem', { name: /^(close|关闭)$/i });
  if ((await item.count()) === 0) {
    await page.keyboard.press('Escape');
    return false;
  }
  await item.first().click();
  return gone();
}

function menuLink(page, title) {
  return page.getByRole('navigation').getByRole('link', { name: title, exact: true }).first();
}

/**
 * Cached tab switch: open A (admin home) then B (merchants), switch back to A's tab; compare with
 * opening A fresh (its tab closed, opened again from the menu; or, where a tab cannot be closed,
 * a full page load in a new context) and list API calls the switch repeated.
 */
export async function measureTabSwitch(browser, base, runs) {
  const settings = () => {
    localStorage.setItem('layoutSettings', JSON.stringify({ tabBar: true }));
    localStorage.setItem('locale', 'en-US');
  };
  const { context, page } = await freshPage(browser, { initScript: settings });
  try {
    await page.goto(`${base}/login`);
    const openA = await apiCallsDuring(page, async () => {
      await signIn(page);
      await page.waitForURL(`**${TAB_A.path}`, { timeout: 30_000 });
      await page.waitForFunction(pagePainted, TAB_A.title, { timeout: 30_000 });
    });
    const tablist = page.getByRole('tablist');
    const hasTabBar = await tablist
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (!hasTabBar || (await tabOf(page, TAB_A.title).count()) === 0) {
      return { available: false };
    }
    const aCalls = new Set(openA.calls);

    const switches = [];
    const repeated = [];
    const fresh = [];
    let freshHow = 'its tab closed, reopened from the menu';
    for (let i = 0; i < runs; i += 1) {
      // To B (from the menu the first time, then by its tab), then back to A's tab (timed).
      const toB = (await tabOf(page, TAB_B.title).count())
        ? tabOf(page, TAB_B.title)
        : menuLink(page, TAB_B.title);
      await toB.click();
      await page.waitForFunction(pagePainted, TAB_B.title, { timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      const tabA = await tabOf(page, TAB_A.title).elementHandle();
      const { result, calls } = await apiCallsDuring(page, () =>
        timeClickUntilPainted(page, tabA, TAB_A.title),
      );
      switches.push(result);
      repeated.push(...calls.filter((c) => aCalls.has(c)));
    }

    // Fresh: on B, close A's tab, open A from the menu (its code is loaded: rendering + API).
    for (let i = 0; i < runs && freshHow; i += 1) {
      await tabOf(page, TAB_B.title).click();
      await page.waitForFunction(pagePainted, TAB_B.title, { timeout: 30_000 });
      if (!(await closeTab(page, TAB_A.title))) {
        freshHow = null;
        break;
      }
      await page.waitForLoadState('networkidle');
      const link = await menuLink(page, TAB_A.title).elementHandle();
      fresh.push(await timeClickUntilPainted(page, link, TAB_A.title));
      await page.waitForLoadState('networkidle');
    }
    if (!freshHow) {
      freshHow = 'full page load in a new context (tabs could not be closed)';
      const state = await context.storageState();
      for (let i = 0; i < runs; i += 1) {
        const other = await browser.newContext({ storageState: state });
        await other.addInitScript(settings);
        const p = await other.newPage();
        await p.goto(`${base}${TAB_A.path}`, { waitUntil: 'commit' });
        await p.waitForFunction(pagePainted, TAB_A.title, { timeout: 30_000, polling: 'raf' });
        fresh.push(await p.evaluate(() => performance.now()));
        await other.close();
      }
    }
    return {
      available: true,
      switchMs: median(switches),
      freshMs: median(fresh),
      freshHow,
      repeated,
      switchRuns: switches,
      freshRuns: fresh,
    };
  } finally {
    await context.close();
  }
}
