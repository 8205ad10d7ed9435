/**
 * A signed-in page loaded afresh comes in one wave (docs/architecture.md "Signed-in pages in one
 * wave"): with a session stored, index.html's route preloads (build/preload-routes.ts) ask for the
 * page's code, its area's chunks and catalogue part beside the entry, before the session check
 * starts; the page's first data call does not wait for the shell's later chunks (the session
 * dialogs). The page's first data calls go with the document, before its code and whatever the
 * session check answers, and the page reads their replies instead of asking again
 * (src/api/http-early.ts, src/app/routes/first-calls.ts). Order of requests, not timings. The
 * guards still decide: an expired session ends at the login page, a page the role may not see is
 * not shown, and the calls sent for it show nothing.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { canOpen, ROUTES } from '../../src/app/routes/route-table';
import { apiLogin, enUS, expect, storeToken, test } from './fixtures';

interface Seen {
  path: string;
  /** Wall-clock ms the request started and its reply ended. */
  start: number;
  end: number;
}

/** Every finished request of the page, with its start and end. */
function record(page: Page): Seen[] {
  const seen: Seen[] = [];
  page.on('requestfinished', (request) => {
    const timing = request.timing();
    seen.push({
      path: new URL(request.url()).pathname,
      start: timing.startTime,
      end: timing.startTime + timing.responseEnd,
    });
  });
  return seen;
}

function find(seen: Seen[], pattern: RegExp): Seen {
  const found = seen.find((s) => pattern.test(s.path));
  expect(
    found,
    `a request for ${pattern}; seen: ${seen.map((s) => s.path).join(' ')}`,
  ).toBeTruthy();
  return found!;
}

/** A page's content: its section (named by its title) shown, nothing in it loading. */
async function contentShown(page: Page, title: string) {
  const section = page.locator(`section[aria-label="${title}"]`);
  await expect(section).toBeVisible({ timeout: 20_000 });
  await expect(section.locator('[data-loading]')).toHaveCount(0, { timeout: 20_000 });
}

const propertyShown = (page: Page) => contentShown(page, enUS['route.property']);

/** A call index.html's script sent early (src/api/http-early.ts `InlineEarly`): read once `used`. */
interface EarlyCall {
  m: string;
  u: string;
  used?: boolean;
}

function earlyCalls(page: Page): Promise<EarlyCall[]> {
  return page.evaluate(() =>
    ((window as unknown as { __early?: EarlyCall[] }).__early ?? []).map(({ m, u, used }) => ({
      m,
      u,
      used,
    })),
  );
}

/** Every request and reply of the page, by URL (path and query), at the test's clock. */
function timeline(page: Page) {
  const events: { url: string; method: string; kind: 'request' | 'reply'; at: number }[] = [];
  const url = (full: string) => {
    const u = new URL(full);
    return u.pathname + u.search;
  };
  page.on('request', (r) =>
    events.push({ url: url(r.url()), method: r.method(), kind: 'request', at: Date.now() }),
  );
  page.on('response', (r) =>
    events.push({ url: url(r.url()), method: r.request().method(), kind: 'reply', at: Date.now() }),
  );
  return events;
}

/** The three pages of the bench (scripts/bench/signed-in-load.mjs), which the partner may open. */
const BENCH_PAGES = [
  { path: '/account/property', title: enUS['route.property'] },
  { path: '/creation/resource', title: enUS['route.resource'] },
  { path: '/digital-human/digital-video', title: enUS['route.digitalVideo'] },
];

for (const { path, title } of BENCH_PAGES) {
  test(`${path}: its first data calls go before the session check has answered, once, and the page reads them`, async ({
    page,
    request,
  }) => {
    const token = await apiLogin(request, 'partner');
    await storeToken(page, token, 'en-US');
    const events = timeline(page);
    // The session check answers late: the page's calls must not wait for it.
    await page.route('**/platform/get_user_info', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto(path);
    await contentShown(page, title);
    const early = await earlyCalls(page);
    expect(early.length, 'first data calls sent by index.html').toBeGreaterThan(0);
    // Each read by the page (the same request: its query, token and locale)…
    expect(early.filter((call) => !call.used)).toEqual([]);
    const sessionReply = events.find((e) => e.kind === 'reply' && /get_user_info$/.test(e.url));
    expect(sessionReply, 'the session check answered').toBeTruthy();
    for (const call of early) {
      const sent = events.filter(
        (e) => e.kind === 'request' && e.method === call.m && e.url === call.u,
      );
      // …asked for once (the page did not send it again)…
      expect(sent, `${call.m} ${call.u}`).toHaveLength(1);
      // …before the session check's reply came.
      expect(sent[0].at, `${call.u} before the session check's reply`).toBeLessThan(
        sessionReply!.at,
      );
    }
  });
}

/**
 * The paths index.html's script sends first calls for (its manifest's `q`, build/preload-script.ts),
 * read from the built index.html.
 */
function pathsWithFirstCalls(): string[] {
  const html = readFileSync(new URL('../../dist/index.html', import.meta.url), 'utf8');
  const manifest = /catch\(e\)\{\}\}\)\((\{.*?\}),\{"token"/s.exec(html);
  expect(manifest, "index.html's route preload script").toBeTruthy();
  return Object.keys((JSON.parse(manifest![1]) as { q: Record<string, unknown> }).q);
}

// Every page with first calls (src/app/routes/first-calls.ts), opened by the partner when it may,
// else by the admin: each call the page's actors read, none sent twice.
for (const role of ['partner', 'admin'] as const) {
  test(`${role}: every page with first calls reads each of them and asks for none again`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const paths = pathsWithFirstCalls().filter((path) => {
      const route = ROUTES.find((r) => r.path === path)!;
      const partner = canOpen(route, { role: 'partner' });
      return role === 'partner' ? partner : !partner && canOpen(route, { role: 'admin' });
    });
    expect(paths.length).toBeGreaterThan(0);
    const token = await apiLogin(request, role);
    await storeToken(page, token, 'en-US');
    const events = timeline(page);
    const unread: string[] = [];
    for (const path of paths) {
      events.length = 0;
      await page.goto(path);
      const early = await earlyCalls(page);
      expect(early.length, path).toBeGreaterThan(0);
      // Read as the page starts (or never: reported below with the others).
      await expect
        .poll(async () => (await earlyCalls(page)).every((call) => call.used), { timeout: 15_000 })
        .toBe(true)
        .catch(() => {});
      for (const call of await earlyCalls(page)) {
        if (!call.used) unread.push(`${path}: ${call.m} ${call.u}`);
        const sent = events.filter(
          (e) => e.kind === 'request' && e.method === call.m && e.url === call.u,
        );
        expect(sent, `${path}: ${call.m} ${call.u} asked for once`).toHaveLength(1);
      }
    }
    expect(unread).toEqual([]);
  });
}

test('a full load of /account/property asks for its code with the session check, its data before the shell’s later chunks', async ({
  page,
  request,
}) => {
  const token = await apiLogin(request, 'partner');
  await storeToken(page, token, 'en-US');
  const seen = record(page);
  await page.goto('/account/property');
  await propertyShown(page);
  // index.html's route preloads (build/preload-routes.ts) named the page's chunk.
  await expect(
    page.locator('link[rel=modulepreload][data-route][href*="/property-page-"]'),
  ).toHaveCount(1);
  // The session dialogs load once the first page has painted (router.tsx): the shell's later chunk.
  await expect
    .poll(() => seen.some((s) => /\/session-dialogs-[\w-]+\.js$/.test(s.path)))
    .toBe(true);

  const session = find(seen, /\/platform\/get_user_info$/);
  const pageCode = find(seen, /\/property-page-[\w-]{8}\.js$/);
  const catalogue = find(seen, /\/signed-in-money-en-US-[\w-]+\.js$/);
  const shellCode = find(seen, /\/shell-[\w-]{8}\.js$/);
  const pageTable = find(seen, /\/page-views-[\w-]+\.js$/);
  // The page's code, its catalogue part, the shell and the page table: asked before the session
  // check is (with the document, not in waves behind it).
  for (const code of [pageCode, catalogue, shellCode, pageTable]) {
    expect(code.start, `${code.path} before the session check`).toBeLessThan(session.start);
  }
  // The first data call: the page's own (not the session check, branding, menu or the shell's
  // notifications), started before the shell's later chunk has come.
  const shellCalls = /get_user_info|get_system_info|\/user\/menu|notification|agreement/;
  const data = seen
    .filter((s) => s.path.startsWith('/api/') && !shellCalls.test(s.path))
    .sort((a, b) => a.start - b.start)[0];
  expect(data, 'a data call of the page').toBeTruthy();
  const dialogs = find(seen, /\/session-dialogs-[\w-]+\.js$/);
  expect(data.start, `${data.path} before the session dialogs' chunk is in`).toBeLessThan(
    dialogs.end,
  );
  // No script is asked for between the session check's reply and the first data call: the page
  // needs no further wave of code.
  const between = seen.filter(
    (s) => s.path.endsWith('.js') && s.start > session.end && s.start < data.start,
  );
  expect(between.map((s) => s.path)).toEqual([]);
});

test('signed out, index.html preloads nothing of a signed-in page; the login page comes', async ({
  page,
}) => {
  await page.goto('/account/property');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  // No route preload links (the router itself still asks for the page's code as it always did,
  // and Vite's own preloads for it are links too, without `data-route`).
  await expect(page.locator('link[rel=modulepreload][data-route]')).toHaveCount(0);
});

test('a page the role may not see is preloaded but not shown (the guard decides)', async ({
  page,
  request,
}) => {
  // The agent may open /user/info only (docs/domain.md §13).
  const token = await apiLogin(request, 'agent');
  await storeToken(page, token, 'en-US');
  await page.goto('/account/property');
  await expect(page).toHaveURL(/\/user\/info$/, { timeout: 15_000 });
  await expect(page.locator(`section[aria-label="${enUS['route.property']}"]`)).toHaveCount(0);
  // The property page's calls went with the document, for a page the agent never sees: no one
  // reads their replies, and nothing is said about them.
  await contentShown(page, enUS['route.userInfo']);
  const early = await earlyCalls(page);
  expect(early.length).toBeGreaterThan(0);
  expect(early.filter((call) => call.used)).toEqual([]);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('an expired stored session still ends at the login page', async ({ page }) => {
  await storeToken(page, 'no-such-token', 'en-US');
  await page.goto('/account/property');
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.locator(`section[aria-label="${enUS['route.property']}"]`)).toHaveCount(0);
  // The page's calls sent with the expired token were refused (401) and never read: the login
  // page says why once, as without them.
  await expect(page.getByRole('alert').filter({ hasText: enUS['http.loginExpired'] })).toHaveCount(
    1,
  );
});
