import { Writable } from 'node:stream';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { brandPaletteStyle } from '../../src/api/contract/brand-palette';
import { CONTENT_SECURITY_POLICY } from '../../server/platform/http/security-headers';
import { createTestApp, engines, snapshot, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

function expectSecurityHeaders(headers: Record<string, unknown>, where: string) {
  expect(headers['content-security-policy'], where).toBe(
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  );
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], where).toBe('DENY');
}

describe.each(engines)('HTTP behaviour on %s', (engine) => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('CSP allows no inline scripts', () => {
    const script = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self'");
  });

  it('sends the security headers on successes, refusals, 401s, 404s and parse errors', async () => {
    t = await createTestApp(engine);
    const replies = {
      success: await t.get('/platform/get_system_info', { domain: 'localhost' }),
      refusal: await t.post('/platform/login', { account: 'admin', password: 'x' }),
      unauthenticated: await t.post('/platform/get_user_info'),
      notFound: await t.call('GET', '/api/v1/nothing/here'),
      malformed: await t.call('POST', '/api/v1/platform/login', { payload: '{' }),
      page: await t.call('GET', '/login'),
    };
    for (const [name, reply] of Object.entries(replies)) expectSecurityHeaders(reply.headers, name);
  });

  it('answers malformed JSON with 400, a body over 64 KB with 413, other types with 415 — changing nothing', async () => {
    t = await createTestApp(engine);
    const before = await snapshot(t.db);
    const malformed = await t.call('POST', '/api/v1/platform/login', {
      payload: '{"account": "admin", "password": ',
      headers: EN,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ code: 0, msg: 'The request is not valid JSON', data: null });

    const huge = await t.call('POST', '/api/v1/platform/login', {
      payload: JSON.stringify({ account: 'admin', password: 'x'.repeat(70 * 1024) }),
      headers: EN,
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ code: 0, msg: 'The request is too large', data: null });

    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const reply = await t.call('POST', '/api/v1/platform/login', {
        payload: 'account=admin&password=Demo@2026',
        contentType,
        headers: EN,
      });
      expect(reply.status, contentType).toBe(415);
      expect(reply.body, contentType).toEqual({
        code: 0,
        msg: 'Send the request body as JSON',
        data: null,
      });
    }

    const proto = await t.call('POST', '/api/v1/platform/login', {
      payload: '{"account":"admin","password":"x","__proto__":{"admin":true}}',
      headers: EN,
    });
    expect(proto.status).toBe(400);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('answers unknown API paths and methods with 404 {code: 0, msg}', async () => {
    t = await createTestApp(engine);
    for (const [method, url] of [
      ['GET', '/api/v1/platform/nothing'],
      ['POST', '/api/v1/platform/nothing'],
      ['GET', '/api/v1/platform/login'],
      ['POST', '/api/v1/platform/get_system_info'],
      ['GET', '/api/v2/platform/login'],
      ['GET', '/api'],
    ] as const) {
      const reply = await t.call(method, url, { headers: EN });
      expect(reply.status, `${method} ${url}`).toBe(404);
      expect(reply.body, `${method} ${url}`).toEqual({
        code: 0,
        msg: 'No such API call',
        data: null,
      });
    }
  });

  it('answers a real fault with a logged 500 that names no details', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(engine, {
      logger: { level: 'error', stream },
      extraApiRoutes: (api) => {
        api.get('/platform/broken', { config: { policy: { roles: 'public' } } }, async () => {
          throw new Error('database exploded at /secret/path');
        });
      },
    });
    const reply = await t.call('GET', '/api/v1/platform/broken', { headers: EN });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ code: 0, msg: 'Internal server error', data: null });
    expect(reply.raw).not.toContain('exploded');
    expect(reply.raw).not.toContain('at ');
    const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; err?: { message: string } });
    const entry = logged.find((l) => l.err?.message.includes('exploded'));
    expect(entry?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    const zh = await t.call('GET', '/api/v1/platform/broken');
    expect(zh.body.msg).toBe('服务器内部错误');
  });

  it('compresses large API replies with gzip or brotli', async () => {
    t = await createTestApp(engine);
    const token = await t.login('admin');
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const reply = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api/user/menu',
        headers: { token, 'accept-encoding': encoding },
      });
      expect(reply.headers['content-encoding']).toBe(encoding);
      const body = JSON.parse(decode(reply.rawPayload).toString()) as { code: number };
      expect(body.code).toBe(1);
    }
  });
});

describe.each(engines)('serving the console on %s', (engine) => {
  let t: TestApp;
  let dist: string;
  const INDEX =
    '<!doctype html><html><head><title>console</title></head><body><div id="root"></div></body></html>';
  const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  afterEach(async () => {
    await t?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  async function withConsole(extra?: (dir: string) => Promise<void>) {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-dist-'));
    await fs.mkdir(path.join(dist, 'assets'), { recursive: true });
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(path.join(dist, 'assets', 'index-Bx12ab34.js'), SCRIPT);
    await fs.writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await extra?.(dist);
    t = await createTestApp(engine, { config: { staticDir: dist } });
  }

  it('serves index.html for / and, as the SPA fallback, for console routes (no-cache)', async () => {
    await withConsole();
    for (const url of [
      '/',
      '/login',
      '/home/index',
      '/promotion/merchant?page=2',
      '/redirect/home',
    ]) {
      const reply = await t.call('GET', url);
      expect(reply.status, url).toBe(200);
      expect(reply.raw, url).toBe(INDEX);
      expect(reply.headers['content-type'], url).toMatch(/^text\/html/);
      expect(reply.headers['cache-control'], url).toBe('no-cache');
      expectSecurityHeaders(reply.headers, url);
    }
  });

  it('serves the pre-rendered login.html for /login only, its inline script allowed by hash', async () => {
    const inline = "document.getElementById('prerender').dataset.ok='1'";
    const login = INDEX.replace(
      '<div id="root">',
      `<div id="prerender"></div><script>${inline}</script><div id="root">`,
    );
    await withConsole(async (dir) => {
      await fs.writeFile(path.join(dir, 'login.html'), login);
      await fs.writeFile(path.join(dir, 'login.html.br'), brotliCompressSync(login));
    });
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    for (const url of ['/login', '/login?redirect=%2Fhome%2Findex']) {
      const reply = await t.call('GET', url);
      expect(reply.raw, url).toBe(login);
      expect(reply.headers['cache-control'], url).toBe('no-cache');
      expect(reply.headers['content-security-policy'], url).toContain(`script-src 'self' ${hash};`);
    }
    const brotli = await t.call('GET', '/login', { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    for (const url of ['/', '/home/index', '/login/other']) {
      expect((await t.call('GET', url)).raw, url).toBe(INDEX);
    }
    // No other inline script is allowed: only the build's own, by its hash.
    const csp = String((await t.call('GET', '/')).headers['content-security-policy']);
    expect(csp.split('; ').find((d) => d.startsWith('script-src'))).toBe(
      `script-src 'self' ${hash}`,
    );
  });

  it("a branded host's pages carry its theme colour on <html> from the first byte; others are the built files", async () => {
    // As large as a real page (≥ 1 KB: compressed when sent).
    const login = INDEX.replace('<title>', `<title>login ${'x'.repeat(2000)}`);
    const index = INDEX.replace('<title>', `<title>${'y'.repeat(2000)}`);
    await withConsole(async (dir) => {
      await fs.writeFile(path.join(dir, 'index.html'), index);
      await fs.writeFile(path.join(dir, 'login.html'), login);
      await fs.writeFile(path.join(dir, 'login.html.br'), brotliCompressSync(login));
    });
    const admin = await t.login('admin');
    const added = await t.call<{ id: number }>('POST', '/api/v1/domain/add', {
      token: admin,
      body: { hostname: 'video.example.com', name: 'Acme Video', theme_color: '#AA3300' },
    });
    expect(added.body.code, added.raw).toBe(1);
    const style = brandPaletteStyle('#AA3300');
    expect(style).toContain('--chakra-colors-brand-500:#aa3300');
    for (const [url, page] of [
      ['/login', login],
      ['/home/index', index],
    ] as const) {
      const branded = await t.app.inject({
        method: 'GET',
        url,
        headers: { host: 'Video.Example.com:8181', 'accept-encoding': 'br' },
      });
      expect(branded.statusCode, url).toBe(200);
      expect(branded.headers['content-type'], url).toMatch(/^text\/html/);
      expect(branded.headers['cache-control'], url).toBe('no-cache');
      expect(branded.headers['content-encoding'], url).toBe('br');
      expectSecurityHeaders(branded.headers, url);
      const html = brotliDecompressSync(branded.rawPayload).toString('utf8');
      expect(html, url).toBe(page.replace('<html>', `<html style="${style}">`));
      // Another host, the platform's brand: the built file as it is.
      const plain = await t.call('GET', url, { headers: { host: 'other.example.org' } });
      expect(plain.raw, url).toBe(page);
    }
    // A colour taken away: the page is the built one again (the system info's cache follows).
    const edited = await t.call('POST', '/api/v1/domain/edit', {
      token: admin,
      body: { id: added.body.data.id, theme_color: '' },
    });
    expect(edited.body.code, edited.raw).toBe(1);
    const after = await t.call('GET', '/login', { headers: { host: 'video.example.com' } });
    expect(after.raw).toBe(login);
  });

  it("allows index.html's route-preload script by its hash, never a script loaded by src", async () => {
    // build/preload-routes.ts: an inline script with an id; the entry is a module script by src.
    const inline = "document.head.dataset.preloaded='1'";
    const index = INDEX.replace(
      '</head>',
      `<script type="module" crossorigin src="/assets/index-Bx12ab34.js"></script>` +
        `<script id="route-preload">${inline}</script></head>`,
    );
    await withConsole(async (dir) => {
      await fs.writeFile(path.join(dir, 'index.html'), index);
    });
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    for (const url of ['/account/property', '/login']) {
      const reply = await t.call('GET', url);
      expect(reply.raw, url).toBe(index);
      const csp = String(reply.headers['content-security-policy']);
      expect(
        csp.split('; ').find((d) => d.startsWith('script-src')),
        url,
      ).toBe(`script-src 'self' ${hash}`);
    }
  });

  it('caches hashed assets for a year (immutable), compresses them, and 404s missing files', async () => {
    await withConsole();
    const asset = await t.call('GET', '/assets/index-Bx12ab34.js');
    expect(asset.status).toBe(200);
    expect(asset.raw).toBe(SCRIPT);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A script is never a document: nosniff, and none of the document policies.
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect(asset.headers['x-frame-options']).toBeUndefined();
    expect(asset.headers['content-type']).toMatch(/javascript/);

    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Bx12ab34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Bx12ab34.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');

    const icon = await t.call('GET', '/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');

    for (const url of ['/assets/missing.js', '/assets/old', '/missing.png', '/../package.json']) {
      const reply = await t.call('GET', url);
      expect(reply.status, url).toBe(404);
      expect(reply.raw, url).not.toContain('<div id="root">');
    }
    expect((await t.call('POST', '/login')).status).toBe(404);
  });

  it('keeps /api paths out of the SPA fallback', async () => {
    await withConsole();
    const reply = await t.call('GET', '/api/v1/unknown', { headers: EN });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ code: 0, msg: 'No such API call', data: null });
  });
});
