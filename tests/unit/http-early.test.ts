/**
 * Requests sent early (src/api/http-early.ts, docs/architecture.md "Signed-in pages in one wave"),
 * through http.ts against a real HTTP server on a random local port: an identical request reads
 * the early one's reply instead of being sent (once), anything else is sent as ever, and a reply
 * is read with the reader's error policy, at the time it is read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ApiError,
  configureHttp,
  get,
  post,
  resetHttp,
  sendEarly,
  tokenStore,
  USER_INFO_PATH,
  type HttpConfig,
} from '../../src/api/http';
import { adoptEarly, EARLY_TTL_MS } from '../../src/api/http-early';
import { inlineScript } from '../../build/preload-script';
import { getUserInfo } from '../../src/api/auth';

interface Seen {
  method: string;
  url: string;
  token: string | undefined;
  lang: string | undefined;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let counter = 0;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace(/^\/api\/v1/, '');
  counter += 1;
  if (path === '/list') return json(res, 200, { code: 1, msg: '', data: { n: counter } });
  if (path === '/expired') return json(res, 401, { code: 0, msg: 'Log in again' });
  if (path === '/gateway') {
    res.writeHead(502, { 'content-type': 'text/html' });
    return res.end('<h1>Bad Gateway</h1>');
  }
  if (path === '/ended' || path === USER_INFO_PATH)
    return json(res, 200, { code: 50008, msg: 'Ended' });
  json(res, 404, { code: 0, msg: 'Unknown API path' });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        token: req.headers.token as string | undefined,
        lang: req.headers.lang as string | undefined,
        body,
      });
      handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const calls = {
  notify: vi.fn<HttpConfig['notify']>(),
  serverLogout: vi.fn<HttpConfig['serverLogout']>(),
  unauthorized: vi.fn<HttpConfig['unauthorized']>(),
};
let locale = 'en-US';

beforeEach(() => {
  seen.length = 0;
  locale = 'en-US';
  localStorage.clear();
  sessionStorage.clear();
  Object.values(calls).forEach((fn) => fn.mockReset());
  configureHttp({ baseUrl: base, ...calls, locale: () => locale });
  tokenStore.setLocal('t1');
});

afterEach(() => {
  resetHttp();
  globalThis.__early = undefined;
  vi.useRealTimers();
});

/** Waits until the server has seen `n` requests. */
async function requests(n: number) {
  await vi.waitFor(() => expect(seen).toHaveLength(n));
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('an identical request reads the early one', () => {
  test('once: the server sees the early request only; a second call is sent', async () => {
    sendEarly({ method: 'GET', path: '/list', data: { page: 1, limit: 10 } });
    await requests(1);
    const first = await get<{ n: number }>('/list', { page: 1, limit: 10 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/list?page=1&limit=10' });
    expect(seen[0]).toMatchObject({ token: 't1', lang: 'en-US' });
    const second = await get<{ n: number }>('/list', { page: 1, limit: 10 });
    expect(seen).toHaveLength(2);
    expect(second.n).toBe(first.n + 1);
  });

  test('a POST with the same body, taken while its reply is still on its way', async () => {
    sendEarly({ method: 'POST', path: '/list', data: { a: 1 } });
    const data = await post<{ n: number }>('/list', { a: 1 });
    expect(data.n).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  test.each([
    ['another query', () => get('/list', { page: 2, limit: 10 })],
    ['another path', () => get('/list/', { page: 1, limit: 10 })],
    ['a POST', () => post('/list', { page: 1, limit: 10 })],
    [
      'another token',
      () => {
        sessionStorage.setItem('token', 't2');
        return get('/list', { page: 1, limit: 10 });
      },
    ],
    [
      'another locale',
      () => {
        locale = 'zh-CN';
        return get('/list', { page: 1, limit: 10 });
      },
    ],
    ['extra headers', () => get('/list', { page: 1, limit: 10 }, { headers: { 'X-A': '1' } })],
    ['a timeout', () => get('/list', { page: 1, limit: 10 }, { timeoutMs: 5000 })],
  ])('no match on %s: sent as ever', async (_name, call) => {
    sendEarly({ method: 'GET', path: '/list', data: { page: 1, limit: 10 } });
    await requests(1);
    await call().catch(() => {}); // another path is unknown: refused, but sent
    expect(seen).toHaveLength(2);
  });

  test('a reply that came more than EARLY_TTL_MS ago is not read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    sendEarly({ method: 'GET', path: '/list', data: { page: 1 } });
    sendEarly({ method: 'GET', path: '/list', data: { page: 2 } });
    await requests(2);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the replies are in
    vi.setSystemTime(Date.now() + EARLY_TTL_MS - 1000);
    await get('/list', { page: 1 });
    expect(seen).toHaveLength(2);
    vi.setSystemTime(Date.now() + 2000);
    await get('/list', { page: 2 });
    expect(seen).toHaveLength(3);
  });

  test('a new token (another login, a logout) forgets what was sent early', async () => {
    sendEarly({ method: 'GET', path: '/list', data: { page: 1 } });
    await requests(1);
    tokenStore.setLocal('t1'); // the same token stored again: still a change of session
    await get('/list', { page: 1 });
    expect(seen).toHaveLength(2);
  });
});

describe("the reader's error policy, when it reads", () => {
  test('an early 401 reaches `unauthorized` when read, not before', async () => {
    sendEarly({ method: 'GET', path: '/expired' });
    await requests(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.unauthorized).not.toHaveBeenCalled();
    const error = await failureOf(get('/expired'));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, msg: 'Log in again' });
    expect(calls.unauthorized).toHaveBeenCalledWith({ hadSessionToken: false });
    expect(seen).toHaveLength(1);
  });

  test('an early 50008 on a data call: the toast and the server logout when read', async () => {
    sendEarly({ method: 'GET', path: '/ended' });
    await requests(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.notify).not.toHaveBeenCalled();
    expect(calls.serverLogout).not.toHaveBeenCalled();
    const error = await failureOf(get('/ended'));
    expect(error).toMatchObject({ kind: 'reply', code: 50008, msg: 'Ended' });
    expect(calls.notify).toHaveBeenCalledWith({ type: 'error', text: 'Ended', durationMs: 5000 });
    expect(calls.serverLogout).toHaveBeenCalledWith(50008);
  });

  test('the session check sent early: its 50008 is not a server logout (as ever)', async () => {
    sendEarly({ method: 'POST', path: USER_INFO_PATH });
    const error = await failureOf(getUserInfo());
    expect(error.code).toBe(50008);
    expect(calls.serverLogout).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);
  });

  test('a quiet reader shows no toast; an aborted reader is told so', async () => {
    sendEarly({ method: 'GET', path: '/ended' });
    await failureOf(get('/ended', undefined, { quiet: true }));
    expect(calls.notify).not.toHaveBeenCalled();
    sendEarly({ method: 'GET', path: '/list' });
    const controller = new AbortController();
    const reading = get('/list', undefined, { signal: controller.signal });
    controller.abort();
    expect(await failureOf(reading)).toMatchObject({ aborted: true, msg: 'http.aborted' });
    expect(calls.notify).not.toHaveBeenCalled();
    await requests(2);
  });

  test('a failure nobody reads shows nothing', async () => {
    sendEarly({ method: 'GET', path: '/expired' });
    sendEarly({ method: 'GET', path: '/ended' });
    await requests(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.unauthorized).not.toHaveBeenCalled();
    expect(calls.notify).not.toHaveBeenCalled();
    expect(calls.serverLogout).not.toHaveBeenCalled();
  });
});

/** happy-dom's control of its window (the page's URL). */
const happyDom = () => (window as unknown as { happyDOM?: { setURL(url: string): void } }).happyDOM;

describe("index.html's script sends a page's first calls; the page reads them (adoptEarly)", () => {
  /** Runs build/preload-script.ts's script as index.html does, on `path` of the test server. */
  function runInlineScript(path: string, calls: [string, string, string?][]) {
    const origin = new URL(base).origin;
    happyDom()?.setURL(`${origin}${path}`);
    const manifest = {
      f: [],
      c: { 'en-US': [], 'zh-CN': [] },
      r: { [path]: { 'en-US': [], 'zh-CN': [] } },
      q: { [path]: calls },
    };
    new Function(inlineScript(manifest))();
  }
  // The URLs as the HTTP layer makes them (the build records root-relative ones, as `baseUrl` is).
  const apiPath = () => base;

  afterEach(() => happyDom()?.setURL('http://localhost:3000/'));

  test('sent with the document; an identical request reads its reply, once, and marks it used', async () => {
    localStorage.setItem('locale', 'en-US');
    runInlineScript('/account/property', [
      ['GET', `${apiPath()}/list?page=1&limit=10`],
      ['POST', `${apiPath()}/list`, '{"a":1}'],
    ]);
    await requests(2);
    expect(seen.map((r) => [r.method, r.url, r.token, r.lang, r.body])).toEqual([
      ['GET', '/api/v1/list?page=1&limit=10', 't1', 'en-US', ''],
      ['POST', '/api/v1/list', 't1', 'en-US', '{"a":1}'],
    ]);
    adoptEarly();
    adoptEarly(); // kept once however often it is adopted
    const early = globalThis.__early!;
    expect(early.map((e) => e.used)).toEqual([false, false]);
    const first = await get<{ n: number }>('/list', { page: 1, limit: 10 });
    await post('/list', { a: 1 });
    expect(early.map((e) => e.used)).toEqual([true, true]);
    expect(seen).toHaveLength(2);
    const again = await get<{ n: number }>('/list', { page: 1, limit: 10 });
    expect(again.n).toBeGreaterThan(first.n);
    expect(seen).toHaveLength(3);
  });

  test('the session-storage token and the stored locale are those the HTTP layer sends', async () => {
    sessionStorage.setItem('token', 'overstep');
    localStorage.setItem('locale', 'zh-CN');
    locale = 'zh-CN';
    runInlineScript('/account/property', [['GET', `${apiPath()}/list?page=1`]]);
    await requests(1);
    expect(seen[0]).toMatchObject({ token: 'overstep', lang: 'zh-CN' });
    adoptEarly();
    await get('/list', { page: 1 });
    expect(seen).toHaveLength(1);
  });

  test('no token stored, or a path without calls: nothing is sent', async () => {
    localStorage.clear();
    runInlineScript('/account/property', [['GET', `${apiPath()}/list?page=1`]]);
    tokenStore.setLocal('t1');
    globalThis.__early = undefined;
    runInlineScript('/other', []);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(0);
    expect(globalThis.__early).toEqual([]);
  });

  test("failures are read as the HTTP layer's own: 401, a page without JSON", async () => {
    localStorage.setItem('locale', 'en-US');
    runInlineScript('/account/property', [
      ['GET', `${apiPath()}/expired`],
      ['GET', `${apiPath()}/gateway`],
    ]);
    await requests(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    adoptEarly();
    expect(calls.unauthorized).not.toHaveBeenCalled();
    expect(await failureOf(get('/expired'))).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      msg: 'Log in again',
    });
    expect(calls.unauthorized).toHaveBeenCalledTimes(1);
    expect(await failureOf(get('/gateway'))).toMatchObject({
      kind: 'transport',
      msg: 'http.requestError',
      status: 502,
    });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.requestError',
      durationMs: 5000,
    });
    expect(seen).toHaveLength(2);
  });

  test('no reply at all: a network error when read', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    configureHttp({ baseUrl: `${closed}/api/v1` });
    happyDom()?.setURL(`${closed}/account/property`);
    const path = '/account/property';
    const manifest = {
      f: [],
      c: { 'en-US': [] },
      r: { [path]: { 'en-US': [] } },
      q: { [path]: [['GET', `${closed}/api/v1/list`]] },
    };
    localStorage.setItem('locale', 'en-US');
    new Function(inlineScript(manifest))();
    adoptEarly();
    expect(await failureOf(get('/list'))).toMatchObject({
      kind: 'transport',
      msg: 'http.networkError',
    });
  });
});
