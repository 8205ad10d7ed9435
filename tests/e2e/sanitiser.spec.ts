/**
 * The rich-text sanitiser in a real browser (docs/architecture.md "Rich text"): every known XSS
 * payload of tests/e2e/xss-payloads.ts is saved as an article through the API (the server
 * sanitises on save), read back and rendered in Chromium as a whole document (scripts would run,
 * unlike innerHTML); every element then gets the events inline handlers wait for, and every link
 * but those to http(s) or mailto addresses is clicked. No payload may call `__xss`. A control renders the same payloads unsanitised and
 * must record hits: the harness can see an execution.
 */
import type { Page } from '@playwright/test';
import { apiCall, apiLogin, apiUploadImage, expect, test } from './fixtures';
import { makeImage, specMediaDir } from './media';
import { ALLOWED_FORMATTING, withImage, XSS_PAYLOADS } from './xss-payloads';

test.describe.configure({ timeout: 120_000 });

const mediaFile = specMediaDir('sanitiser');

/** The admin's content image, put where the payloads name one (the server keeps only those). */
async function adminImage(request: Parameters<typeof apiLogin>[0], admin: string) {
  return apiUploadImage(request, admin, 'content', makeImage(mediaFile('photo.png')));
}

/** Renders `body` as a document of the server's origin and returns the payloads that ran. */
async function hitsOf(page: Page, baseURL: string, body: string): Promise<number[]> {
  await page.goto('about:blank');
  await page.setContent(
    `<!doctype html><html><head><base href="${baseURL}/"><script>window.__hits=[];window.__xss=(n)=>window.__hits.push(n);</script></head><body>${body}</body></html>`,
    { waitUntil: 'load' },
  );
  await page.evaluate(async () => {
    const events = [
      'mouseover',
      'mouseenter',
      'pointerenter',
      'focus',
      'click',
      'toggle',
      'load',
      'error',
    ];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      for (const type of events) element.dispatchEvent(new Event(type, { bubbles: false }));
      // A link elsewhere is not followed (it would leave the page); any other is clicked.
      if (element instanceof HTMLAnchorElement && !/^(https?|mailto):$/.test(element.protocol)) {
        element.click();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __hits: number[] }).__hits);
}

test('known XSS payloads saved as articles run nothing in Chromium', async ({
  page,
  request,
  baseURL,
}) => {
  // Nothing is fetched from elsewhere (a javascript: URL is not a request).
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  const admin = await apiLogin(request, 'admin');
  const image = await adminImage(request, admin);
  const stored: string[] = [];
  for (const [i, payload] of XSS_PAYLOADS.map((p) => withImage(p, image)).entries()) {
    const reply = await apiCall<{ id: number; content: string }>(request, 'POST', '/article/add', {
      token: admin,
      body: {
        category: 'help',
        title: `xss ${i + 1}`,
        content: `<p>payload ${i + 1}</p>${payload}`,
        sort: 0,
        status: 'draft',
      },
    });
    expect(reply.code, `${payload}: ${reply.msg}`).toBe(1);
    const read = await apiCall<{ content: string }>(
      request,
      'GET',
      `/article/detail?id=${reply.data.id}`,
      {
        token: admin,
      },
    );
    expect(read.data.content).toBe(reply.data.content);
    stored.push(read.data.content);
  }

  // The control: the same payloads as sent run in this harness (but those that would take the
  // document away: a refresh, a base for every URL).
  const unsanitised = XSS_PAYLOADS.filter((payload) => !/<(meta|base)\b/.test(payload));
  const control = await hitsOf(page, baseURL!, unsanitised.join('\n'));
  expect(new Set(control).size).toBeGreaterThanOrEqual(10);

  expect(await hitsOf(page, baseURL!, stored.join('\n'))).toEqual([]);
  // One at a time as well: a payload may depend on being first in its document.
  for (const [i, body] of stored.entries()) {
    expect(await hitsOf(page, baseURL!, body), XSS_PAYLOADS[i]).toEqual([]);
  }
});

test('the formatting the editor writes survives the save', async ({ request }) => {
  const admin = await apiLogin(request, 'admin');
  const image = await adminImage(request, admin);
  const reply = await apiCall<{ content: string }>(request, 'POST', '/article/add', {
    token: admin,
    body: {
      category: 'help',
      title: 'formatting',
      content: withImage(ALLOWED_FORMATTING.input, image),
      sort: 0,
      status: 'draft',
    },
  });
  expect(reply.data.content).toBe(withImage(ALLOWED_FORMATTING.stored, image));
});
