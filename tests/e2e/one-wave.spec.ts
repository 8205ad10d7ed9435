/**
 * A signed-in page loaded afresh comes in one wave (docs/architecture.md "Signed-in pages in one
 * wave"): with a session stored, index.html's route preloads (build/preload-routes.ts) ask for the
 * page's code, its area's chunks and catalogue part beside the entry, before the session check
 * starts; the page's first data call does not wait for the shell's later chunks (the session
 * dialogs). Order of requests, not timings. The guards still decide: an expired session ends at the
 * login page, a page the role may not see is not shown.
 */
import type { Page } from '@playwright/test';
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

/** The property page's content: its section shown, nothing in it loading. */
async function propertyShown(page: Page) {
  const section = page.locator(`section[aria-label="${enUS['route.property']}"]`);
  await expect(section).toBeVisible({ timeout: 20_000 });
  await expect(section.locator('[data-loading]')).toHaveCount(0, { timeout: 20_000 });
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
});

test('an expired stored session still ends at the login page', async ({ page }) => {
  await storeToken(page, 'no-such-token', 'en-US');
  await page.goto('/account/property');
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.locator(`section[aria-label="${enUS['route.property']}"]`)).toHaveCount(0);
});
