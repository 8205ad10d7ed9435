import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/** The built console (`npm run test:e2e` builds it first); no browser needed. */
const dist = join(import.meta.dirname, '../../dist');
const assets = join(dist, 'assets');

test('the production bundle does not contain the XState inspector (dev only, ?inspect)', () => {
  const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
  expect(js.length).toBeGreaterThan(10);
  const withInspector = js.filter((file) =>
    /createBrowserInspector|@statelyai|stately\.ai/.test(readFileSync(join(assets, file), 'utf8')),
  );
  expect(withInspector).toEqual([]);
});

test('the login page loads its own code only: the scripts index.html loads stay in budget', () => {
  // What /login downloads up front: the entry and its preloads (the login view and what it
  // imports). The money pages' shared UI code once landed here (+40 KB): build/chunks.ts.
  const html = readFileSync(join(dist, 'login.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  expect(files.some((f) => /login-page/.test(f))).toBe(true);
  // And the default locale's catalogue, loaded by the entry (only the shown language's).
  const catalogues = readdirSync(assets).filter((f) => /^(zh-CN|en-US)-[\w-]+\.js$/.test(f));
  expect(catalogues).toHaveLength(2);
  expect(files.filter((f) => /\/(zh-CN|en-US)-/.test(f))).toEqual([]);
  files.push(`assets/${catalogues.find((f) => f.startsWith('zh-CN'))}`);
  const brotliBytes = files.reduce(
    // Files under 1 KB are sent as they are (build/after-build.ts compresses the others).
    (sum, file) =>
      sum +
      readFileSync(join(dist, existsSync(join(dist, `${file}.br`)) ? `${file}.br` : file)).length,
    0,
  );
  expect(brotliBytes / 1024).toBeLessThan(200);
  const moneyViews = /(property|recharge|card-password|transfer|exchange|customer)-/;
  expect(files.filter((f) => moneyViews.test(f.replace(/^assets\/ui-.*/, '')))).toEqual([]);
});
