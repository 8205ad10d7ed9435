// Section k of `npm run bench`: a full load of signed-in pages (a stored session, the page's URL
// opened afresh) side by side with /login in the same run. Timed inside the page from navigation
// start: the document's arrival (its first byte), the first data call (the first API request that
// is the page's own, not the session check or the shell's), and content (the page's section
// shown with nothing in it loading; for /login the login button). docs/performance.md, section k.
import { median } from './measure.mjs';

/** The partner may open all three pages (docs/domain.md §13). */
const ACCOUNT = { username: 'partner', password: 'Demo@2026' };

/** The signed-in pages measured, with the title of their section (en-US). */
const SIGNED_IN_PAGES = [
  { path: '/account/property', title: 'Property' },
  { path: '/creation/resource', title: 'Resources' },
  { path: '/digital-human/digital-video', title: 'Digital-human videos' },
];

/**
 * API calls that are not a page's data: the session check, the branding, the server menu, the
 * shell's notifications and agreement prompt. Anything else under /api/ is the page's.
 */
const SHELL_CALLS =
  /\/platform\/(get_user_info|get_system_info)|\/api\/user\/menu|notification|agreement/;

/**
 * In the page, from its start: the first frame in which the content shows (`title`: a section
 * named so, visible, nothing in it loading; none: the login button visible).
 */
const CONTENT_PROBE = (title) => {
  const probe = { contentAt: null };
  Object.defineProperty(window, '__benchContent', { value: probe });
  const shown = () => {
    if (!title) {
      const button = document.querySelector('button[type=submit]');
      if (!button || !button.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
        return false;
      const rect = button.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0;
    }
    return [...document.querySelectorAll(`section[aria-label="${CSS.escape(title)}"]`)].some(
      (section) => section.checkVisibility() && !section.querySelector('[data-loading]'),
    );
  };
  const check = () => {
    if (shown()) probe.contentAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

async function partnerToken(browser, base) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const reply = await page.request.post(`${base}/api/v1/platform/login`, {
      data: { account: ACCOUNT.username, password: ACCOUNT.password },
    });
    const body = await reply.json();
    const token = body?.data?.userinfo?.token;
    if (!token) throw new Error(`login as ${ACCOUNT.username} failed: ${JSON.stringify(body)}`);
    return token;
  } finally {
    await context.close();
  }
}

/**
 * One full load of `path` in a fresh context (HTTP cache off), with `token` stored (none: signed
 * out). Resolves with ms from navigation start: document (its first byte), firstData (the first
 * page data call's start; null on /login), content, and every request's start for the detail.
 */
async function loadOnce(browser, base, { path, title, token }) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(
      ([storedToken]) => {
        localStorage.setItem('locale', 'en-US');
        if (storedToken) localStorage.setItem('token', storedToken);
      },
      [token ?? null],
    );
    await context.addInitScript(CONTENT_PROBE, title ?? null);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(`${base}${path}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__benchContent?.contentAt != null, null, {
      timeout: 60_000,
      polling: 50,
    });
    if (new URL(page.url()).pathname !== path) throw new Error(`${path} led to ${page.url()}`);
    return await page.evaluate((shellCalls) => {
      const navigation = performance.getEntriesByType('navigation')[0];
      const requests = performance
        .getEntriesByType('resource')
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd }));
      const data = requests.find(
        (r) => r.path.startsWith('/api/') && !new RegExp(shellCalls).test(r.path),
      );
      return {
        document: navigation.responseStart,
        firstData: data ? data.start : null,
        firstDataPath: data?.path ?? null,
        content: window.__benchContent.contentAt,
        requests,
      };
    }, SHELL_CALLS.source);
  } finally {
    await context.close();
  }
}

const pad = (s, n) => String(s).padEnd(n);
const ms = (v) => (v == null ? '–' : `${v.toFixed(0)} ms`);

/**
 * Prints the section: per page the medians of `runs` loads (pages and /login alternating), the
 * first data call after the document's arrival (target ≤ 300 ms on a quiet machine) and content
 * against /login's (target ≤ 1.5×).
 */
export async function measureSignedInLoads(browser, base, runs) {
  const token = await partnerToken(browser, base);
  const targets = [{ path: '/login', title: null, token: null }].concat(
    SIGNED_IN_PAGES.map((p) => ({ ...p, token })),
  );
  // One untimed load of each first (server and browser warm-up).
  for (const target of targets) await loadOnce(browser, base, target);
  const results = new Map(targets.map((t) => [t.path, []]));
  for (let i = 0; i < runs; i += 1) {
    for (const target of targets)
      results.get(target.path).push(await loadOnce(browser, base, target));
  }
  const loginContent = median(results.get('/login').map((r) => r.content));
  console.log(
    `   ${pad('page', 32)}${pad('document', 11)}${pad('first data', 12)}${pad('data − doc', 12)}` +
      `${pad('content', 10)}${pad('÷ /login', 10)}targets`,
  );
  for (const target of targets) {
    const rows = results.get(target.path);
    const doc = median(rows.map((r) => r.document));
    const content = median(rows.map((r) => r.content));
    const isLogin = target.path === '/login';
    const firstData = isLogin ? null : median(rows.map((r) => r.firstData ?? Infinity));
    const afterDoc = isLogin
      ? null
      : median(rows.map((r) => (r.firstData ?? Infinity) - r.document));
    const ratio = content / loginContent;
    const verdicts = isLogin
      ? ''
      : `data − doc ≤ 300 ms ${afterDoc <= 300 ? 'ok' : 'MISSES TARGET'}; ` +
        `content ≤ 1.5× ${ratio <= 1.5 ? 'ok' : 'MISSES TARGET'}`;
    console.log(
      `   ${pad(target.path, 32)}${pad(ms(doc), 11)}${pad(ms(firstData), 12)}${pad(ms(afterDoc), 12)}` +
        `${pad(ms(content), 10)}${pad(`${ratio.toFixed(2)}×`, 10)}${verdicts}`,
    );
    console.log(
      `        runs: content ${rows.map((r) => r.content.toFixed(0)).join(' ')}` +
        (isLogin
          ? ''
          : `; first data ${rows.map((r) => (r.firstData == null ? '–' : r.firstData.toFixed(0))).join(' ')} (${rows[0].firstDataPath})`),
    );
    // BENCH_LOAD_DETAIL=1: every request of the last run, start → end (what waits on what).
    if (process.env.BENCH_LOAD_DETAIL) {
      for (const r of rows[rows.length - 1].requests) {
        console.log(
          `          ${r.start.toFixed(0).padStart(5)} → ${r.end.toFixed(0).padStart(5)}  ${r.path}`,
        );
      }
    }
  }
}
