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
import { adoptEarly, EARLY_TTL_MS, type InlineEarly } from '../../src/api/http-early';
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

describe("index.html's early calls (adoptEarly)", () => {
  const inline = (
    u: string,
    r: [number, string],
    over: Partial<InlineEarly> = {},
  ): InlineEarly => ({
    m: 'GET',
    u,
    b: '',
    t: 't1',
    l: 'en-US',
    r: Promise.resolve(r),
    ...over,
  });

  test('an identical request reads its reply, once, and marks it used', async () => {
    const early = [
      inline(`${base}/list?page=1`, [200, JSON.stringify({ code: 1, msg: '', data: 'early' })]),
      inline(`${base}/list?page=2`, [200, '{}'], { l: 'zh-CN' }),
    ];
    globalThis.__early = early;
    adoptEarly();
    adoptEarly(); // kept once however often it is adopted
    expect(await get('/list', { page: 1 })).toBe('early');
    expect(early.map((e) => e.used)).toEqual([true, false]);
    expect(seen).toHaveLength(0);
    await get('/list', { page: 1 });
    await get('/list', { page: 2 }); // another locale: sent
    expect(seen).toHaveLength(2);
  });

  test('no reply (status 0) and a reply without JSON fail as the HTTP layer says', async () => {
    globalThis.__early = [
      inline(`${base}/list?page=1`, [0, '']),
      inline(`${base}/list?page=2`, [502, '<h1>Bad Gateway</h1>']),
    ];
    adoptEarly();
    expect(await failureOf(get('/list', { page: 1 }))).toMatchObject({
      kind: 'transport',
      msg: 'http.networkError',
    });
    expect(await failureOf(get('/list', { page: 2 }))).toMatchObject({
      kind: 'transport',
      msg: 'http.requestError',
      status: 502,
    });
    expect(calls.notify).toHaveBeenCalledTimes(2);
    expect(seen).toHaveLength(0);
  });
});
