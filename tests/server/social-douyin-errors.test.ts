import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyDouyinReply,
  douyinKindOf,
  DOUYIN_ERROR_KINDS,
} from '../../server/integrations/social/douyin';
import {
  createDouyinPlatform,
  SocialPlatformError,
  type SocialPlatform,
} from '../../server/integrations/social';
import { freePort } from './helpers';
import { fixture } from './media-fixtures';

/**
 * The Douyin adapter's requests and its error classifier, against a tiny fake server whose answer
 * each test sets: business errors with HTTP 200 in `data` and in `extra`, HTTP statuses, bodies
 * that are not JSON, a connection refused, a connection dropped, a timeout.
 */

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type Answer = (request: Seen, res: http.ServerResponse) => void;

const json =
  (status: number, body: unknown): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

describe('the Douyin adapter against a fake server', () => {
  let server: http.Server;
  let base: string;
  let answer: Answer;
  let seen: Seen[];
  let platform: SocialPlatform;
  const account = { openId: 'oid-1', accessToken: 'act.1' };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        seen.push(request);
        answer(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen = [];
    platform = createDouyinPlatform({
      baseUrl: base,
      clientKey: 'ck',
      clientSecret: 'cs',
      sandbox: false,
      now: () => 1_000_000,
      requestTimeoutMs: 1000,
    });
  });

  async function failure(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SocialPlatformError);
    const e = error as SocialPlatformError;
    return { kind: e.social, code: e.platformCode, description: e.description, logId: e.logId };
  }

  it('sends the protocol’s requests and reads its answers', async () => {
    answer = json(200, {
      data: {
        access_token: 'act.x',
        expires_in: 1_296_000,
        open_id: 'oid-1',
        refresh_expires_in: 2_592_000,
        refresh_token: 'rft.x',
        scope: 'user_info',
        error_code: 0,
        description: '',
      },
      message: 'success',
    });
    expect(await platform.exchangeCode({ code: 'c1', redirectUri: 'x' })).toEqual({
      openId: 'oid-1',
      accessToken: 'act.x',
      accessExpiresAt: 1_000_000 + 1_296_000_000,
      refreshToken: 'rft.x',
      refreshExpiresAt: 1_000_000 + 2_592_000_000,
      scope: 'user_info',
    });
    expect(seen[0].url).toBe('/oauth/access_token/');
    expect(seen[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(seen[0].body.toString()))).toEqual({
      client_key: 'ck',
      client_secret: 'cs',
      code: 'c1',
      grant_type: 'authorization_code',
    });

    answer = json(200, {
      data: { video: { video_id: 'v9', width: 1280, height: 720 } },
      extra: {},
    });
    const file = await fixture('clip.mp4');
    expect(await platform.uploadMedia(account, { path: file, fileName: 'clip.mp4' })).toEqual({
      mediaId: 'v9',
    });
    const upload = seen[1];
    expect(upload.url).toBe('/api/douyin/v1/video/upload_video/?open_id=oid-1');
    expect(upload.headers['access-token']).toBe('act.1');
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body.toString('latin1')).toContain('name="video"; filename="clip.mp4"');

    answer = json(200, { data: { item_id: '@i1' }, extra: { error_code: 0, logid: 'L' } });
    await platform.createPost(account, { mediaId: 'v9', title: '标题', topics: ['a', '#b'] });
    expect(JSON.parse(seen[2].body.toString())).toEqual({ video_id: 'v9', text: '标题 #a #b' });

    const url = new URL(platform.authorizeUrl({ state: 's&1', redirectUri: 'https://x/cb?a=1' }));
    expect(url.pathname).toBe('/platform/oauth/connect/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: 'ck',
      response_type: 'code',
      scope: 'user_info,video.create,video.data,video.list',
      redirect_uri: 'https://x/cb?a=1',
      state: 's&1',
    });
  });

  it('classifies a business error in data (OAuth) and in extra, keeping code, text and logid', async () => {
    answer = json(200, {
      data: { error_code: 10010, description: 'refresh_token 过期' },
      message: 'error',
    });
    expect(await failure(platform.refreshAccess('rft.1'))).toEqual({
      kind: 'auth_expired',
      code: 10010,
      description: 'refresh_token 过期',
      logId: null,
    });
    answer = json(200, {
      data: {},
      extra: { error_code: 2190002, description: '无效', logid: '20240101ABC', now: 1 },
    });
    expect(await failure(platform.recentPosts(account, 5))).toEqual({
      kind: 'revoked',
      code: 2190002,
      description: '无效',
      logId: '20240101ABC',
    });
    answer = json(200, {
      data: {},
      extra: { error_code: 2190005, description: 'bad', logid: 'L2' },
    });
    expect(
      (await failure(platform.createPost(account, { mediaId: 'v', title: '', topics: [] }))).kind,
    ).toBe('media_invalid');
  });

  it('classifies HTTP statuses and bodies that are not the protocol’s', async () => {
    answer = json(429, { message: 'slow down' });
    expect(await failure(platform.profile(account))).toMatchObject({
      kind: 'rate_limited',
      code: 429,
    });
    answer = json(500, {});
    expect(await failure(platform.profile(account))).toMatchObject({
      kind: 'transient',
      code: 500,
    });
    answer = json(408, {});
    expect((await failure(platform.profile(account))).kind).toBe('transient');
    answer = json(404, {});
    expect(await failure(platform.profile(account))).toMatchObject({
      kind: 'invalid_request',
      code: 404,
    });
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops');
    expect((await failure(platform.recentPosts(account, 1))).kind).toBe('transient');
    expect(
      (await failure(platform.createPost(account, { mediaId: 'v', title: '', topics: [] }))).kind,
    ).toBe('unknown_outcome');
    // JSON, but not the answer's shape.
    answer = json(200, { data: { nothing: true }, extra: { error_code: 0 } });
    expect((await failure(platform.metrics(account, ['@1']))).kind).toBe('transient');
  });

  it('a connection refused is transient (even for a post); a dropped one or a timeout after sending is unknown_outcome for a post', async () => {
    const port = await freePort(); // nothing listens there
    const nowhere = createDouyinPlatform({
      baseUrl: `http://127.0.0.1:${port}`,
      clientKey: 'ck',
      clientSecret: 'cs',
      sandbox: false,
    });
    expect((await failure(nowhere.profile(account))).kind).toBe('transient');
    expect(
      (await failure(nowhere.createPost(account, { mediaId: 'v', title: '', topics: [] }))).kind,
    ).toBe('transient');

    answer = (_req, res) => res.socket?.destroy();
    expect((await failure(platform.recentPosts(account, 1))).kind).toBe('transient');
    expect(
      (await failure(platform.createPost(account, { mediaId: 'v', title: '', topics: [] }))).kind,
    ).toBe('unknown_outcome');

    answer = () => undefined; // never answers
    expect(
      await failure(platform.createPost(account, { mediaId: 'v', title: '', topics: [] })),
    ).toMatchObject({
      kind: 'unknown_outcome',
      description: 'timed out',
    });
  });

  it('a missing client_secret is refused before any call', async () => {
    const unset = createDouyinPlatform({
      baseUrl: base,
      clientKey: 'ck',
      clientSecret: async () => undefined,
      sandbox: false,
    });
    expect((await failure(unset.exchangeCode({ code: 'c', redirectUri: 'x' }))).kind).toBe(
      'invalid_request',
    );
    expect(seen).toEqual([]);
  });
});

describe('the Douyin error table', () => {
  it('maps each code as documented; any other code is invalid_request', () => {
    expect(DOUYIN_ERROR_KINDS).toEqual({
      10008: 'access_expired',
      2190008: 'access_expired',
      10010: 'auth_expired',
      10020: 'auth_expired',
      2190002: 'revoked',
      2190003: 'revoked',
      2190015: 'revoked',
      2190001: 'rate_limited',
      2111001: 'content_rejected',
      2113001: 'content_rejected',
      2100009: 'content_rejected',
      2190005: 'media_invalid',
      2190006: 'media_invalid',
      2190007: 'media_invalid',
      10001: 'transient',
      2100004: 'transient',
    });
    expect(douyinKindOf(10013)).toBe('invalid_request');
    expect(douyinKindOf(12345)).toBe('invalid_request');
    expect(classifyDouyinReply(200, '{"data":{"error_code":0},"extra":{"error_code":0}}')).toBe(
      undefined,
    );
    expect(classifyDouyinReply(200, '{"data":{"error_code":"10020"}}')?.social).toBe(
      'auth_expired',
    );
  });
});
