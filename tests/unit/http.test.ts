/**
 * http.ts against a real HTTP server on a random local port (superagent's Node build runs here;
 * jsdom supplies localStorage and sessionStorage).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ApiError,
  configureHttp,
  download,
  downloadUrl,
  get,
  post,
  resetHttp,
  tokenStore,
  toQueryString,
  type HttpConfig,
} from '../../src/api/http';
import { getSimpleConfig, getSystemInfo } from '../../src/api/system';
import { getUserInfo } from '../../src/api/auth';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
let closedBase: string;
const seen: Seen[] = [];
let userInfoCode = 50008;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace(/^\/api\/v1/, '');
  const code = /^\/code\/(\d+)$/.exec(path);
  const status = /^\/status\/(\d+)$/.exec(path);
  if (
    path === '/echo' ||
    path === '/platform/get_system_info' ||
    path === '/platform/get_simple_config'
  )
    return json(res, 200, { code: 1, msg: 'ok', data: { query: url.search, body } });
  if (path === '/platform/get_user_info')
    return json(res, 200, { code: userInfoCode, msg: 'Ended' });
  if (code)
    return json(res, 200, { code: Number(code[1]), msg: url.searchParams.get('msg') ?? '' });
  if (status && url.searchParams.has('msg'))
    return json(res, Number(status[1]), { code: 0, msg: url.searchParams.get('msg') });
  if (status) {
    res.writeHead(Number(status[1]), { 'content-type': 'text/html' });
    return res.end('<h1>Bad Gateway</h1>');
  }
  if (path === '/file') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    return res.end(Buffer.from([0, 1, 2, 250, 255]));
  }
  if (path === '/file-denied') return json(res, 403, { code: 0, msg: 'Not yours' });
  if (path === '/html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end('<!doctype html><p>index</p>');
  }
  if (path === '/slow') {
    const timer = setTimeout(() => json(res, 200, { code: 1, msg: '', data: 'late' }), 2000);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  json(res, 404, { code: 0, msg: 'Unknown API path' });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  // A port that was just free: connections to it are refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedBase = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/api/v1`;
  await new Promise((resolve) => probe.close(resolve));
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

beforeEach(() => {
  seen.length = 0;
  localStorage.clear();
  sessionStorage.clear();
  Object.values(calls).forEach((fn) => fn.mockReset());
  configureHttp({ baseUrl: base, ...calls, locale: () => 'en-US' });
});

afterEach(() => resetHttp());

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

describe('headers', () => {
  test('every request says platform pc and the locale; no token header without a token', async () => {
    await get('/echo');
    expect(seen[0].headers.platform).toBe('pc');
    expect(seen[0].headers.lang).toBe('en-US');
    expect(seen[0].headers.token).toBeUndefined();
  });

  test('the local-storage token is sent', async () => {
    tokenStore.setLocal('local-abc');
    await post('/echo', { a: 1 });
    expect(seen[0].headers.token).toBe('local-abc');
  });

  test('the session-storage token wins over the local one', async () => {
    tokenStore.setLocal('local-abc');
    tokenStore.setSession('session-xyz');
    await get('/echo');
    expect(seen[0].headers.token).toBe('session-xyz');
  });

  test('no lang header when the locale getter gives nothing', async () => {
    configureHttp({ locale: () => undefined });
    await get('/echo');
    expect(seen[0].headers.lang).toBeUndefined();
  });
});

describe('requests and replies', () => {
  test('query objects become a query string (undefined and null left out, arrays repeated)', async () => {
    const data = await get<{ query: string }>('/echo', {
      page: 2,
      q: 'a b&c',
      on: true,
      skip: undefined,
      none: null,
      id: [1, 2],
    });
    expect(data.query).toBe('?page=2&q=a+b%26c&on=true&id=1&id=2');
    expect(seen[0].method).toBe('GET');
    expect(toQueryString({})).toBe('');
  });

  test('POST sends JSON and resolves with the envelope data; no body sends {}', async () => {
    const data = await post<{ body: string }>('/echo', { account: 'admin', password: 'x' });
    expect(JSON.parse(data.body)).toEqual({ account: 'admin', password: 'x' });
    expect(seen[0].headers['content-type']).toMatch(/^application\/json/);
    const empty = await post<{ body: string }>('/echo');
    expect(empty.body).toBe('{}');
  });

  test('endpoint functions build their query strings', async () => {
    const info = await getSystemInfo('console.example.com');
    expect(info).toEqual({ query: '?domain=console.example.com', body: '' });
    const config = await getSimpleConfig(['show_config', 'resource']);
    expect(config).toEqual({ query: '?group=show_config%2Cresource', body: '' });
  });

  test('a blob download is returned as it is, without the envelope', async () => {
    const file = (await download('/file', { id: 7 })) as unknown;
    const bytes =
      typeof Blob !== 'undefined' && file instanceof Blob
        ? new Uint8Array(await file.arrayBuffer())
        : new Uint8Array(file as Uint8Array);
    expect([...bytes]).toEqual([0, 1, 2, 250, 255]);
    expect(seen[0].url).toBe('/api/v1/file?id=7');
    expect(calls.notify).not.toHaveBeenCalled();
  });

  test('a download link carries the token as a query parameter', () => {
    tokenStore.setLocal('t1');
    expect(downloadUrl('/recharge_card/export_data', { status: 0 })).toBe(
      `${base}/recharge_card/export_data?status=0&token=t1`,
    );
  });

  test('no request times out by default', async () => {
    const controller = new AbortController();
    const pending = get('/slow', undefined, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    const error = await failureOf(pending);
    expect(error.aborted).toBe(true);
  });
});

describe('reply codes other than 1', () => {
  test('code 0 shows msg for 5 s and rejects with a reply error', async () => {
    const error = await failureOf(get('/code/0', { msg: 'Account locked' }));
    expect(error).toMatchObject({ kind: 'reply', code: 0, msg: 'Account locked', status: 200 });
    expect(calls.notify).toHaveBeenCalledTimes(1);
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'Account locked',
      durationMs: 5000,
    });
    expect(calls.serverLogout).not.toHaveBeenCalled();
  });

  test("a reply without msg shows 'Error'", async () => {
    const error = await failureOf(post('/code/0'));
    expect(error.msg).toBe('http.error');
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.error',
      durationMs: 5000,
    });
  });

  test.each([50008, 50012, 50014])('code %i asks for the Confirm logout modal', async (code) => {
    const error = await failureOf(post(`/code/${code}`, undefined));
    expect(error).toMatchObject({ kind: 'reply', code });
    expect(calls.serverLogout).toHaveBeenCalledTimes(1);
    expect(calls.serverLogout).toHaveBeenCalledWith(code);
    expect(calls.unauthorized).not.toHaveBeenCalled();
  });

  test.each([50008, 50012, 50014])('code %i on get_user_info does not', async (code) => {
    userInfoCode = code;
    const error = await failureOf(getUserInfo());
    expect(error).toMatchObject({ kind: 'reply', code, path: '/platform/get_user_info' });
    expect(calls.serverLogout).not.toHaveBeenCalled();
    expect(calls.notify).toHaveBeenCalledWith({ type: 'error', text: 'Ended', durationMs: 5000 });
  });

  test('a 2xx reply that is not an envelope is a request error', async () => {
    const error = await failureOf(get('/html'));
    expect(error).toMatchObject({ kind: 'transport', msg: 'http.requestError', status: 200 });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.requestError',
      durationMs: 5000,
    });
  });
});

describe('HTTP and transport failures', () => {
  test('401 without a session token: unauthorized, no toast', async () => {
    tokenStore.setLocal('gone');
    const error = await failureOf(get('/status/401', { msg: 'Login expired' }));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, msg: 'Login expired' });
    expect(calls.unauthorized).toHaveBeenCalledTimes(1);
    expect(calls.unauthorized).toHaveBeenCalledWith({ hadSessionToken: false });
    expect(calls.notify).not.toHaveBeenCalled();
    expect(calls.serverLogout).not.toHaveBeenCalled();
  });

  test('401 with a session token says so', async () => {
    tokenStore.setSession('overstep');
    await failureOf(post('/status/401', {}));
    expect(calls.unauthorized).toHaveBeenCalledWith({ hadSessionToken: true });
    expect(calls.notify).not.toHaveBeenCalled();
  });

  test('another HTTP error shows the msg of its body', async () => {
    const error = await failureOf(get('/status/403', { msg: 'Not allowed' }));
    expect(error).toMatchObject({ kind: 'transport', status: 403, code: 0, msg: 'Not allowed' });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'Not allowed',
      durationMs: 5000,
    });
  });

  test("an HTTP error without a JSON body shows 'Request Error'", async () => {
    const error = await failureOf(get('/status/502'));
    expect(error).toMatchObject({ kind: 'transport', status: 502, msg: 'http.requestError' });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.requestError',
      durationMs: 5000,
    });
  });

  test('a download refused with a JSON body shows its msg', async () => {
    const error = await failureOf(download('/file-denied'));
    expect(error).toMatchObject({ status: 403, msg: 'Not yours' });
  });

  test('a refused connection is a network error', async () => {
    configureHttp({ baseUrl: closedBase });
    const error = await failureOf(get('/echo'));
    expect(error).toMatchObject({ kind: 'transport', status: null, msg: 'http.networkError' });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.networkError',
      durationMs: 5000,
    });
  });

  test('a request given a timeout that runs out is a timeout', async () => {
    const error = await failureOf(get('/slow', undefined, { timeoutMs: 100 }));
    expect(error).toMatchObject({ kind: 'transport', msg: 'http.timeout' });
    expect(calls.notify).toHaveBeenCalledWith({
      type: 'error',
      text: 'http.timeout',
      durationMs: 5000,
    });
  });

  test('a request cancelled by its AbortSignal rejects as aborted without a toast', async () => {
    const controller = new AbortController();
    const pending = get('/slow', undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failureOf(pending);
    expect(error).toMatchObject({ kind: 'transport', msg: 'http.aborted', aborted: true });
    expect(calls.notify).not.toHaveBeenCalled();
  });

  test('an already aborted signal never reaches the server', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(get('/echo', undefined, { signal: controller.signal }));
    expect(error.aborted).toBe(true);
    expect(seen).toHaveLength(0);
  });
});

describe('tokenStore', () => {
  test('session wins, kinds and clearing one storage or both', () => {
    expect(tokenStore.get()).toBeNull();
    expect(tokenStore.kind()).toBeNull();
    tokenStore.setLocal('L');
    expect(tokenStore.get()).toBe('L');
    expect(tokenStore.kind()).toBe('local');
    expect(localStorage.getItem('token')).toBe('L');
    tokenStore.setSession('S');
    expect(sessionStorage.getItem('token')).toBe('S');
    expect(tokenStore.get()).toBe('S');
    expect(tokenStore.kind()).toBe('session');
    expect(tokenStore.hasSessionToken()).toBe(true);
    tokenStore.clear('session');
    expect(tokenStore.get()).toBe('L');
    expect(tokenStore.hasSessionToken()).toBe(false);
    tokenStore.setSession('S');
    tokenStore.clear();
    expect(tokenStore.get()).toBeNull();
  });
});

describe('quiet requests (background polling)', () => {
  test('a refusal, an HTTP error and a refused connection reject without a toast', async () => {
    const options = { quiet: true };
    expect(await failureOf(get('/code/0', { msg: 'Order not found' }, options))).toMatchObject({
      kind: 'reply',
      msg: 'Order not found',
    });
    expect(await failureOf(get('/status/502', undefined, options))).toMatchObject({
      kind: 'transport',
      msg: 'http.requestError',
    });
    expect(await failureOf(get('/html', undefined, options))).toMatchObject({
      msg: 'http.requestError',
    });
    configureHttp({ baseUrl: closedBase });
    expect(await failureOf(get('/echo', undefined, options))).toMatchObject({
      msg: 'http.networkError',
    });
    expect(calls.notify).not.toHaveBeenCalled();
  });

  test('but a 401 and the server-logout codes are handled as always', async () => {
    tokenStore.setLocal('gone');
    await failureOf(get('/status/401', { msg: 'Login expired' }, { quiet: true }));
    expect(calls.unauthorized).toHaveBeenCalledTimes(1);
    await failureOf(get('/code/50008', { msg: 'Ended' }, { quiet: true }));
    expect(calls.serverLogout).toHaveBeenCalledWith(50008);
  });
});
