import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config';
import {
  createDouyinPlatform,
  SocialPlatformError,
  type AccountCredentials,
  type SocialErrorKind,
  type SocialPlatform,
  type SocialTokens,
} from '../../server/integrations/social';
import { createTestApp, engines, freePort, type TestApp } from './helpers';
import { fixture } from './media-fixtures';

/**
 * The Douyin adapter against the sandbox platform our own server serves (a listening app):
 * the adapter speaks the Douyin protocol over HTTP, the sandbox answers it from the database.
 */

const DAY_S = 86_400;

/** The rejection of `promise`, which must be a SocialPlatformError. */
async function failure(promise: Promise<unknown>): Promise<SocialPlatformError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SocialPlatformError);
  return error as SocialPlatformError;
}

async function expectKind(promise: Promise<unknown>, kind: SocialErrorKind, code?: number) {
  const error = await failure(promise);
  expect({ kind: error.social, code: error.platformCode }).toEqual({
    kind,
    code: code ?? error.platformCode,
  });
  return error;
}

describe('SOCIAL_SANDBOX and the Douyin settings', () => {
  it('reads the switch and the Douyin settings', () => {
    expect(loadConfig({}).socialSandbox).toBeUndefined();
    expect(loadConfig({ SOCIAL_SANDBOX: '1' }).socialSandbox).toBe(true);
    expect(loadConfig({ SOCIAL_SANDBOX: '0' }).socialSandbox).toBe(false);
    expect(() => loadConfig({ SOCIAL_SANDBOX: 'maybe' })).toThrow(/SOCIAL_SANDBOX/);
    expect(loadConfig({}).douyin).toEqual({
      clientKey: undefined,
      clientSecret: undefined,
      baseUrl: 'https://open.douyin.com',
    });
    expect(() => loadConfig({ DOUYIN_BASE_URL: 'ftp://x' })).toThrow(/DOUYIN_BASE_URL/);
  });
});

describe.each(engines)('the Douyin adapter against the sandbox platform on %s', (engine) => {
  let t: TestApp;
  let publicUrl: string;
  let platform: SocialPlatform;
  const redirectUri = () => `${publicUrl}/matrix/oauth/callback`;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp(engine, { config: { socialSandbox: true, publicUrl } });
    await t.app.listen({ port, host: '127.0.0.1' });
    platform = t.app.ctx.integrations.social.sandbox!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${publicUrl}/sandbox-platform/__control/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  /** Opens the authorisation page and presses the account's "授权" button: the code. */
  async function authoriseCode(openId: string): Promise<string> {
    const url = platform.authorizeUrl({ state: 'st-42', redirectUri: redirectUri() });
    expect(url.startsWith(`${publicUrl}/sandbox-platform/platform/oauth/connect/?`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('测试平台');
    // The account's own form: its action and hidden fields, as a browser would post them.
    const forms = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
    const form = forms.find((f) => f[2].includes(`value="${openId}"`));
    expect(form, `no form for ${openId}`).toBeDefined();
    expect(form![2]).toContain('授权</button>');
    const fields = new URLSearchParams();
    for (const input of form![2].matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
    )) {
      fields.append(input[1], input[2].replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
    }
    const posted = await fetch(`${publicUrl}${form![1]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    const location = new URL(posted.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri());
    expect(location.searchParams.get('state')).toBe('st-42');
    return location.searchParams.get('code')!;
  }

  async function authorise(openId: string): Promise<SocialTokens> {
    return platform.exchangeCode({ code: await authoriseCode(openId), redirectUri: redirectUri() });
  }

  const credentials = (tokens: SocialTokens): AccountCredentials => ({
    openId: tokens.openId,
    accessToken: tokens.accessToken,
  });

  it('lists its test accounts; refuses a redirect_uri elsewhere', async () => {
    const { list } = (await control('accounts')) as { list: { open_id: string }[] };
    expect(list.length).toBeGreaterThanOrEqual(6);
    const url = platform.authorizeUrl({ state: 's', redirectUri: 'https://evil.example/cb' });
    const page = await fetch(url);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri');
  });

  it('authorises, exchanges a code once, publishes, reviews and counts', async () => {
    const code = await authoriseCode('sbx_open_01');
    const tokens = await platform.exchangeCode({ code, redirectUri: redirectUri() });
    expect(tokens.openId).toBe('sbx_open_01');
    expect(tokens.accessExpiresAt).toBe(t.clock() + 15 * DAY_S * 1000);
    expect(tokens.refreshExpiresAt).toBe(t.clock() + 30 * DAY_S * 1000);
    expect(tokens.scope).toBe('user_info,video.create,video.data,video.list');
    // A code works once.
    await expectKind(
      platform.exchangeCode({ code, redirectUri: redirectUri() }),
      'invalid_request',
      10007,
    );

    const account = credentials(tokens);
    const profile = await platform.profile(account);
    expect(profile).toMatchObject({ openId: 'sbx_open_01', nickname: '小鹿爱剪辑', fans: 12_860 });
    expect(profile.avatar).toBe(`${publicUrl}/sandbox-platform/avatar/sbx_open_01.svg`);

    const { mediaId } = await platform.uploadMedia(account, {
      path: await fixture('clip.mp4'),
      fileName: 'clip.mp4',
    });
    expect(mediaId).toMatch(/^v0/);
    const { postId } = await platform.createPost(account, {
      mediaId,
      title: '周末去哪儿',
      topics: ['旅行', '#周末'],
    });
    const [recent] = await platform.recentPosts(account, 5);
    expect(recent).toMatchObject({
      postId,
      mediaId,
      title: '周末去哪儿 #旅行 #周末',
      createdAt: Math.floor(t.clock() / 1000) * 1000,
      review: 'reviewing',
      shareUrl: null,
      metrics: { plays: 0, likes: 0, comments: 0, shares: 0 },
    });

    await control('clock', { advance_seconds: 61 });
    const [published] = await platform.metrics(account, [postId, '@unknown']);
    expect(published.review).toBe('published');
    const shareUrl = `${publicUrl}/sandbox-platform/share/video/${encodeURIComponent(postId)}`;
    expect(published.shareUrl).toBe(shareUrl);
    expect((await fetch(shareUrl)).status).toBe(200);
    expect(published.metrics.plays).toBeGreaterThan(0);

    await control('clock', { advance_seconds: 3 * 3600 });
    const [later] = await platform.metrics(account, [postId]);
    expect(later.metrics.plays).toBeGreaterThan(published.metrics.plays);
    // Deterministic: the same post at the same time has the same numbers.
    expect((await platform.metrics(account, [postId]))[0].metrics).toEqual(later.metrics);
  });

  it('refreshes; renews the refresh token 5 times, then auth_expired (10020)', async () => {
    const tokens = await authorise('sbx_open_02');
    const refreshed = await platform.refreshAccess(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).toBe(tokens.refreshToken);
    expect((await platform.profile(credentials(refreshed))).nickname).toBe('阿杰的美食日记');

    let refresh = tokens.refreshToken;
    for (let i = 0; i < 5; i++) {
      const renewed = await platform.renewRefresh(refresh);
      expect(renewed.refreshToken).not.toBe(refresh);
      // The old one is replaced.
      await expectKind(platform.refreshAccess(refresh), 'auth_expired', 10010);
      refresh = renewed.refreshToken;
    }
    await expectKind(platform.renewRefresh(refresh), 'auth_expired', 10020);
    // Still good for access tokens until it expires (30 days).
    await platform.refreshAccess(refresh);
    await control('clock', { advance_seconds: 31 * DAY_S });
    await expectKind(platform.refreshAccess(refresh), 'auth_expired', 10010);
    await expectKind(platform.profile(credentials(refreshed)), 'access_expired', 10008);
  });

  it('an access token expires after 15 days (access_expired)', async () => {
    const tokens = await authorise('sbx_open_06');
    await control('clock', { advance_seconds: 15 * DAY_S + 1 });
    await expectKind(platform.recentPosts(credentials(tokens), 1), 'access_expired', 2190008);
    const fresh = await platform.refreshAccess(tokens.refreshToken);
    expect(await platform.recentPosts(credentials(fresh), 1)).toEqual([]);
  });

  it('a revoked account answers revoked, and auth_expired on refresh', async () => {
    const tokens = await authorise('sbx_open_03');
    await control('revoke', { open_id: 'sbx_open_03' });
    await expectKind(platform.profile(credentials(tokens)), 'revoked', 2190002);
    await expectKind(platform.recentPosts(credentials(tokens), 3), 'revoked', 2190002);
    await expectKind(platform.refreshAccess(tokens.refreshToken), 'auth_expired', 10010);
    // Authorising again works, with new tokens.
    const again = await authorise('sbx_open_03');
    expect((await platform.profile(credentials(again))).openId).toBe('sbx_open_03');
  });

  it('fails the next calls as told, each classified, then works again', async () => {
    const tokens = await authorise('sbx_open_04');
    const account = credentials(tokens);
    await control('fail', { open_id: 'sbx_open_04', code: 2190008, times: 1 });
    await expectKind(platform.recentPosts(account, 1), 'access_expired', 2190008);
    await control('fail', { open_id: 'sbx_open_04', code: 10020, times: 1 });
    await expectKind(platform.renewRefresh(tokens.refreshToken), 'auth_expired', 10020);
    await control('fail', { open_id: 'sbx_open_04', code: 2190001, times: 2 });
    const limited = await expectKind(platform.profile(account), 'rate_limited', 2190001);
    expect(limited.retryable).toBe(true);
    await expectKind(platform.metrics(account, ['@x']), 'rate_limited', 2190001);
    const { mediaId } = await platform.uploadMedia(account, {
      path: await fixture('clip.mp4'),
      fileName: 'clip.mp4',
    });
    await control('fail', { open_id: 'sbx_open_04', code: 2113001, times: 1 });
    const rejected = await expectKind(
      platform.createPost(account, { mediaId, title: 'x', topics: [] }),
      'content_rejected',
      2113001,
    );
    expect(rejected.logId).toMatch(/^\d{14}[0-9A-F]{16}$/);
    expect(rejected).toMatchObject({
      kind: 'permanent',
      reasonId: 'social.error.content_rejected',
    });
    expect((await platform.profile(account)).openId).toBe('sbx_open_04');
  });

  it('a lost reply: createPost rejects unknown_outcome, the post exists once', async () => {
    const tokens = await authorise('sbx_open_05');
    const account = credentials(tokens);
    const { mediaId } = await platform.uploadMedia(account, {
      path: await fixture('clip.mp4'),
      fileName: 'clip.mp4',
    });
    await control('lose_reply', { open_id: 'sbx_open_05', times: 1 });
    await expectKind(
      platform.createPost(account, { mediaId, title: '丢失的回复', topics: [] }),
      'unknown_outcome',
    );
    const { list } = (await control('posts?open_id=sbx_open_05')) as {
      list: { title: string; video_id: string }[];
    };
    expect(list).toEqual([expect.objectContaining({ title: '丢失的回复', video_id: mediaId })]);
    // Reconciling: the platform's own list shows it, with the media it was made from.
    expect((await platform.recentPosts(account, 10)).map((p) => p.mediaId)).toEqual([mediaId]);
  });

  it('refuses a wrong client_secret (10013) and an unknown video (media_invalid)', async () => {
    const wrong = createDouyinPlatform({
      baseUrl: `${publicUrl}/sandbox-platform`,
      clientKey: 'sandbox',
      clientSecret: 'not-the-secret',
      sandbox: true,
    });
    const code = await authoriseCode('sbx_open_01');
    await expectKind(
      wrong.exchangeCode({ code, redirectUri: redirectUri() }),
      'invalid_request',
      10013,
    );
    const tokens = await platform.exchangeCode({ code, redirectUri: redirectUri() });
    await expectKind(
      platform.createPost(credentials(tokens), { mediaId: 'v0nope', title: 'x', topics: [] }),
      'media_invalid',
      2190007,
    );
  });
});

describe('the sandbox platform switch', () => {
  const appAt = async (config: Record<string, unknown>, demoMark: boolean) => {
    const t = await createTestApp('sqlite', { config });
    if (!demoMark)
      await t.db.deleteFrom('platform_config').where('name', '=', 'demo_data').execute();
    return t;
  };

  it('is on with the demo data when unset, off without it, off with SOCIAL_SANDBOX=0', async () => {
    const url = '/sandbox-platform/__control/accounts';
    for (const [config, mark, status] of [
      [{ socialSandbox: undefined }, true, 200],
      [{ socialSandbox: undefined }, false, 404],
      [{ socialSandbox: true }, false, 200],
      [{ socialSandbox: false }, true, 404],
    ] as const) {
      const t = await appAt(config, mark);
      try {
        expect((await t.call('GET', url)).status, JSON.stringify([config, mark])).toBe(status);
        const page = await t.call('GET', '/sandbox-platform/no/such/page', {
          headers: { accept: 'text/html' },
        });
        expect(page.status).toBe(404);
        expect(!!t.app.ctx.integrations.social.sandbox).toBe(config.socialSandbox !== false);
      } finally {
        await t.close();
      }
    }
  });
});
