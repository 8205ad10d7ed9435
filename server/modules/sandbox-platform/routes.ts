import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  SANDBOX_CLIENT_KEY,
  SANDBOX_PLATFORM_PREFIX,
  socialSandboxSecret,
} from '../../integrations/social';
import { plainNotFound } from '../../platform/http/error-handler';
import { readMp4Facts } from '../../platform/render/mp4-facts';
import { holdsDemoData } from '../system';
import { avatarSvg, connectPage, refusalPage, sharePage } from './pages';
import {
  accountOfCode,
  addFault,
  advanceClock,
  countPosts,
  dropRefreshToken,
  ensureSandboxAccounts,
  findAccessToken,
  findAccount,
  findRefreshToken,
  findVideo,
  insertAccessToken,
  insertCode,
  insertPost,
  insertRefreshToken,
  insertVideo,
  listAccounts,
  listPosts,
  sandboxNow,
  setRevoked,
  takeCode,
  takeFault,
  type PostRow,
} from './repo';
import {
  ACCESS_TTL_S,
  CODE_TTL_MS,
  CODES,
  descriptionOf,
  fansHistory,
  MAX_PAGE,
  MAX_RENEWALS,
  MAX_VIDEO_BYTES,
  newAccessToken,
  newCode,
  newGrantId,
  newItemId,
  newLogId,
  newRefreshToken,
  newVideoId,
  REFRESH_TTL_S,
  REVIEW_MS,
  statisticsOf,
} from './rules';

/**
 * The sandbox platform (README "Social platforms and the sandbox platform"): a fake Douyin Open
 * Platform served by our own server under `/sandbox-platform`, speaking the protocol the Douyin
 * adapter (server/integrations/social/douyin) speaks, so that the adapter is what talks to it.
 * Its state lives in the app's database (tables `sandbox_platform_*`); its clock is the app's
 * plus an offset a test moves (`/__control/clock`). On with `SOCIAL_SANDBOX=1`, off with `0`,
 * unset: on only while the database holds the demo data; off, every URL answers 404. Outside
 * /api: no session, no policy, no audit (test data only).
 */

/** A business error, answered with HTTP 200 in the endpoint's error shape. */
class Refusal extends Error {
  constructor(readonly code: number) {
    super(descriptionOf(code));
  }
}

/** Where an endpoint answers its errors: `data` (OAuth calls) or `extra` (OpenAPI calls). */
type Shape = 'data' | 'extra';

const extraOf = (code: number, now: number) => ({
  error_code: code,
  description: code === 0 ? '' : descriptionOf(code),
  sub_error_code: 0,
  sub_description: '',
  logid: newLogId(),
  now: Math.floor(now / 1000),
});

const text = z.string().trim().min(1).max(2000);
const openIdQuery = z.object({ open_id: text });
const listQuery = openIdQuery.extend({
  cursor: z.coerce.number().int().min(0).default(0),
  count: z.coerce.number().int().min(1).max(MAX_PAGE).default(10),
});
const createBody = z.object({ video_id: text, text: z.string().max(1000).default('') });
const dataBody = z.object({ item_ids: z.array(z.string().max(200)).max(100) });
const connectQuery = z.object({
  client_key: z.string(),
  response_type: z.literal('code'),
  scope: z.string().max(500).default(''),
  redirect_uri: z.string().max(2000),
  state: z.string().max(500).default(''),
});
const authorizeForm = connectQuery.omit({ response_type: true }).extend({ open_id: text });
const clockBody = z.strictObject({
  advance_seconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400),
});
const revokeBody = z.strictObject({ open_id: text });
const failBody = z.strictObject({
  open_id: text,
  code: z.number().int().positive(),
  times: z.number().int().min(1).max(1000).default(1),
});
const loseBody = z.strictObject({
  open_id: text,
  times: z.number().int().min(1).max(1000).default(1),
});

export async function sandboxPlatformRoutes(scope: FastifyInstance): Promise<void> {
  const { ctx } = scope;
  // Any other URL here is a plain 404 (never the console's page), as is every URL when off.
  scope.setNotFoundHandler((request, reply) => plainNotFound(request, reply));
  if (ctx.config.socialSandbox === false) return;
  const { db, config } = ctx;
  const base = `${config.publicUrl}${SANDBOX_PLATFORM_PREFIX}`;
  const shareUrl = (itemId: string) => `${base}/share/video/${encodeURIComponent(itemId)}`;
  const now = () => sandboxNow(db, ctx.now());
  const uploadDir = path.join(config.dataDir, 'sandbox-platform');

  let seeded: Promise<void> | undefined;
  const seed = () => {
    seeded ??= ensureSandboxAccounts(db, ctx.now()).catch((error: unknown) => {
      seeded = undefined;
      throw error;
    });
    return seeded;
  };

  scope.addHook('onRequest', async (request, reply) => {
    const on = ctx.config.socialSandbox ?? (await holdsDemoData(db));
    if (!on) return plainNotFound(request, reply);
    await seed();
  });
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  await scope.register(multipart, {
    limits: { fileSize: MAX_VIDEO_BYTES + 1, files: 1, fields: 4, parts: 6 },
    // A file over the limit is cut short (`truncated`) and refused with Douyin's code.
    throwFileSizeLimit: false,
  });

  // ---- the shapes of the answers

  /** Runs a platform call: a Refusal becomes its error in the endpoint's shape (HTTP 200). */
  const endpoint =
    (shape: Shape, work: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await work(request, reply);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const at = await now();
        reply.header('cache-control', 'no-store');
        if (shape === 'data') {
          return {
            data: { error_code: error.code, description: error.message },
            message: 'error',
          };
        }
        return { data: {}, extra: extraOf(error.code, at) };
      }
    };
  const oauthOk = (data: Record<string, unknown>) => ({
    data: { ...data, error_code: 0, description: '' },
    message: 'success',
  });
  const apiOk = async (data: Record<string, unknown>) => ({
    data: { ...data, error_code: 0, description: '' },
    extra: extraOf(0, await now()),
  });

  /** Parses an input; a malformed one is Douyin's "bad parameter". */
  function input<T>(schema: z.ZodType<T>, value: unknown): T {
    const parsed = schema.safeParse(value ?? {});
    if (!parsed.success) throw new Refusal(CODES.badParameter);
    return parsed.data;
  }

  /** Applies the account's next "fail" fault, if any. */
  async function faultOf(openId: string | undefined) {
    if (!openId) return;
    const fault = await takeFault(db, openId, 'fail');
    if (fault?.code) throw new Refusal(fault.code);
  }

  function checkClient(form: { client_key?: string; client_secret?: string }, secret: boolean) {
    if (form.client_key !== SANDBOX_CLIENT_KEY) throw new Refusal(CODES.badClient);
    if (secret && form.client_secret !== socialSandboxSecret(config)) {
      throw new Refusal(CODES.badClient);
    }
  }

  /** The account of a call that names it and its access token. */
  async function authorized(openId: string, token: unknown, expiredCode: number) {
    await faultOf(openId);
    const account = await findAccount(db, openId);
    if (!account || account.revoked) throw new Refusal(CODES.invalidToken);
    const row = typeof token === 'string' ? await findAccessToken(db, token) : undefined;
    if (!row || row.open_id !== openId) throw new Refusal(CODES.invalidToken);
    const at = await now();
    if (row.expires_at <= at) throw new Refusal(expiredCode);
    return { account, at };
  }
  const accessHeader = (request: FastifyRequest) => request.headers['access-token'];

  async function issueTokens(openId: string, scopeText: string, grantId: string, at: number) {
    const access = newAccessToken();
    await insertAccessToken(db, {
      token: access,
      open_id: openId,
      grant_id: grantId,
      scope: scopeText,
      expires_at: at + ACCESS_TTL_S * 1000,
    });
    return access;
  }

  function itemOf(post: PostRow, at: number) {
    const published = post.status === 'published';
    return {
      item_id: post.item_id,
      title: post.title,
      create_time: Math.floor(post.created_at / 1000),
      share_url: post.share_url ?? '',
      is_reviewed: published,
      is_top: false,
      // Douyin: 4 under review, 5 public.
      video_status: published ? 5 : 4,
      cover: '',
      video_id: post.video_id,
      statistics: statisticsOf(post.item_id, published ? post.created_at + REVIEW_MS : null, at),
    };
  }

  // ---- OAuth

  const connect = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = connectQuery.safeParse(request.query);
    if (!query.success || query.data.client_key !== SANDBOX_CLIENT_KEY) {
      return refuse(reply, 'client_key、response_type 或 redirect_uri 不正确。');
    }
    if (!allowedRedirect(query.data.redirect_uri, request)) {
      return refuse(reply, 'redirect_uri 必须是本平台自己的地址。');
    }
    const accounts = await listAccounts(db);
    const { client_key, redirect_uri, state, scope: scopeText } = query.data;
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        connectPage({
          action: `${SANDBOX_PLATFORM_PREFIX}/platform/oauth/authorize`,
          accounts: accounts.map((a) => ({
            ...a,
            avatar: `${SANDBOX_PLATFORM_PREFIX}${a.avatar}`,
          })),
          fields: { client_key, redirect_uri, state, scope: scopeText },
        }),
      );
  };
  scope.get('/platform/oauth/connect/', connect);
  scope.get('/platform/oauth/connect', connect);

  scope.post('/platform/oauth/authorize', async (request, reply) => {
    const form = authorizeForm.safeParse(request.body ?? {});
    if (!form.success || form.data.client_key !== SANDBOX_CLIENT_KEY) {
      return refuse(reply, '授权请求不完整。');
    }
    if (!allowedRedirect(form.data.redirect_uri, request)) {
      return refuse(reply, 'redirect_uri 必须是本平台自己的地址。');
    }
    const account = await findAccount(db, form.data.open_id);
    if (!account) return refuse(reply, '没有这个测试账号。');
    // Authorising again after a withdrawal: the account answers again (its old tokens are gone).
    if (account.revoked) await setRevoked(db, account.open_id, false);
    const code = newCode();
    await insertCode(db, {
      code,
      open_id: account.open_id,
      scope: form.data.scope,
      redirect_uri: form.data.redirect_uri,
      expires_at: (await now()) + CODE_TTL_MS,
    });
    const target = new URL(form.data.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', form.data.state);
    return reply.status(302).header('location', target.toString()).send();
  });

  scope.post(
    '/oauth/access_token/',
    endpoint('data', async (request) => {
      const form = (request.body ?? {}) as Record<string, string>;
      checkClient(form, true);
      if (form.grant_type !== 'authorization_code' || !form.code) {
        throw new Refusal(CODES.badParameter);
      }
      await faultOf(await accountOfCode(db, form.code));
      const at = await now();
      const code = await takeCode(db, form.code, at);
      if (!code) throw new Refusal(CODES.badCode);
      const account = await findAccount(db, code.open_id);
      if (!account || account.revoked) throw new Refusal(CODES.invalidToken);
      const grantId = newGrantId();
      const accessToken = await issueTokens(code.open_id, code.scope, grantId, at);
      const refreshToken = newRefreshToken();
      await insertRefreshToken(db, {
        token: refreshToken,
        open_id: code.open_id,
        grant_id: grantId,
        scope: code.scope,
        renewals: 0,
        expires_at: at + REFRESH_TTL_S * 1000,
      });
      return oauthOk({
        access_token: accessToken,
        expires_in: ACCESS_TTL_S,
        open_id: code.open_id,
        refresh_expires_in: REFRESH_TTL_S,
        refresh_token: refreshToken,
        scope: code.scope,
      });
    }),
  );

  // The app's own token (Douyin: `client_credential`), e.g. the init config's connection test.
  // Not stored: nothing of the sandbox accepts it yet.
  scope.post(
    '/oauth/client_token/',
    endpoint('data', async (request) => {
      const form = (request.body ?? {}) as Record<string, string>;
      checkClient(form, true);
      if (form.grant_type !== 'client_credential') throw new Refusal(CODES.badParameter);
      return oauthOk({
        access_token: newAccessToken().replace(/^act\./, 'clt.'),
        expires_in: ACCESS_TTL_S,
      });
    }),
  );

  /** The live refresh token of a call (its account's faults applied first). */
  async function liveRefresh(token: string | undefined) {
    const row = token ? await findRefreshToken(db, token) : undefined;
    if (!row) throw new Refusal(CODES.refreshExpired);
    await faultOf(row.open_id);
    const account = await findAccount(db, row.open_id);
    const at = await now();
    if (!account || account.revoked || row.expires_at <= at) {
      throw new Refusal(CODES.refreshExpired);
    }
    return { row, at };
  }

  scope.post(
    '/oauth/refresh_token/',
    endpoint('data', async (request) => {
      const form = (request.body ?? {}) as Record<string, string>;
      checkClient(form, false);
      if (form.grant_type !== 'refresh_token') throw new Refusal(CODES.badParameter);
      const { row, at } = await liveRefresh(form.refresh_token);
      const accessToken = await issueTokens(row.open_id, row.scope, row.grant_id, at);
      return oauthOk({
        access_token: accessToken,
        expires_in: ACCESS_TTL_S,
        open_id: row.open_id,
        refresh_expires_in: Math.floor((row.expires_at - at) / 1000),
        refresh_token: row.token,
        scope: row.scope,
      });
    }),
  );

  scope.post(
    '/oauth/renew_refresh_token/',
    endpoint('data', async (request) => {
      const form = (request.body ?? {}) as Record<string, string>;
      checkClient(form, false);
      const { row, at } = await liveRefresh(form.refresh_token);
      if (row.renewals >= MAX_RENEWALS) throw new Refusal(CODES.renewalsUsed);
      // The old token is replaced: a second renewal with it finds nothing.
      if (!(await dropRefreshToken(db, row.token))) throw new Refusal(CODES.refreshExpired);
      const refreshToken = newRefreshToken();
      await insertRefreshToken(db, {
        token: refreshToken,
        open_id: row.open_id,
        grant_id: row.grant_id,
        scope: row.scope,
        renewals: row.renewals + 1,
        expires_at: at + REFRESH_TTL_S * 1000,
      });
      return oauthOk({ refresh_token: refreshToken, expires_in: REFRESH_TTL_S });
    }),
  );

  scope.post(
    '/oauth/userinfo/',
    endpoint('data', async (request) => {
      const form = (request.body ?? {}) as Record<string, string>;
      const { open_id } = input(openIdQuery, form);
      const { account } = await authorized(open_id, form.access_token, CODES.accessExpiredOauth);
      return oauthOk({
        open_id: account.open_id,
        union_id: `union_${account.open_id}`,
        nickname: account.nickname,
        avatar: `${base}${account.avatar}`,
      });
    }),
  );

  scope.get(
    '/data/external/user/fans/',
    endpoint('data', async (request) => {
      const { open_id } = input(openIdQuery, request.query);
      const { account, at } = await authorized(open_id, accessHeader(request), CODES.accessExpired);
      return apiOk({ result_list: fansHistory(account.open_id, account.fans, at) });
    }),
  );

  // ---- the OpenAPI video calls

  scope.post(
    '/api/douyin/v1/video/upload_video/',
    endpoint('extra', async (request) => {
      // The body first, whatever the answer: a client still sending would see a dropped
      // connection instead of the answer.
      const saved = await saveUpload(request);
      try {
        const { open_id } = input(openIdQuery, request.query);
        const { at } = await authorized(open_id, accessHeader(request), CODES.accessExpired);
        if (!saved) throw new Refusal(CODES.badParameter);
        if (saved.size > MAX_VIDEO_BYTES) throw new Refusal(CODES.videoTooLarge);
        const facts = await readMp4Facts(saved.file).catch(() => {
          throw new Refusal(CODES.videoUnreadable);
        });
        const videoId = newVideoId();
        await insertVideo(db, {
          video_id: videoId,
          open_id,
          size: saved.size,
          width: facts.width,
          height: facts.height,
          duration_ms: Math.round(facts.duration * 1000),
          created_at: at,
        });
        return apiOk({ video: { video_id: videoId, width: facts.width, height: facts.height } });
      } finally {
        if (saved) await fs.rm(saved.file, { force: true });
      }
    }),
  );

  /** The multipart field `video`, streamed to a temporary file (undefined: no such field). */
  async function saveUpload(request: FastifyRequest) {
    if (!request.isMultipart()) return undefined;
    let saved: { file: string; size: number } | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'video' || saved) {
        part.file.resume();
        continue;
      }
      await fs.mkdir(uploadDir, { recursive: true });
      const file = path.join(uploadDir, `${newVideoId()}.upload`);
      let size = 0;
      part.file.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      await pipeline(part.file, createWriteStream(file));
      saved = { file, size: part.file.truncated ? MAX_VIDEO_BYTES + 1 : size };
    }
    return saved;
  }

  scope.post(
    '/api/douyin/v1/video/create_video/',
    endpoint('extra', async (request, reply) => {
      const { open_id } = input(openIdQuery, request.query);
      const { at } = await authorized(open_id, accessHeader(request), CODES.accessExpired);
      const body = input(createBody, request.body);
      const video = await findVideo(db, body.video_id);
      if (!video || video.open_id !== open_id) throw new Refusal(CODES.videoMissing);
      const itemId = newItemId();
      await insertPost(db, {
        item_id: itemId,
        open_id,
        video_id: video.video_id,
        title: body.text,
        created_at: at,
      });
      if (await takeFault(db, open_id, 'lose_reply')) {
        // The post exists; the answer never arrives.
        reply.hijack();
        request.raw.socket.destroy();
        return undefined;
      }
      if (await takeFault(db, open_id, 'hold_reply')) {
        // The post exists; the caller waits for an answer until it gives up (or is killed).
        reply.hijack();
        const socket = request.raw.socket;
        if (!socket.destroyed) await new Promise((resolve) => socket.once('close', resolve));
        return undefined;
      }
      return apiOk({ item_id: itemId });
    }),
  );

  scope.get(
    '/api/douyin/v1/video/video_list/',
    endpoint('extra', async (request) => {
      const query = input(listQuery, request.query);
      const { at } = await authorized(query.open_id, accessHeader(request), CODES.accessExpired);
      const page = { offset: query.cursor, limit: query.count };
      const rows = await listPosts(db, query.open_id, page, at, shareUrl);
      const total = await countPosts(db, query.open_id);
      const cursor = query.cursor + rows.length;
      return apiOk({
        list: rows.map((r) => itemOf(r, at)),
        cursor,
        has_more: cursor < total,
      });
    }),
  );

  scope.post(
    '/api/douyin/v1/video/video_data/',
    endpoint('extra', async (request) => {
      const { open_id } = input(openIdQuery, request.query);
      const { at } = await authorized(open_id, accessHeader(request), CODES.accessExpired);
      const { item_ids } = input(dataBody, request.body);
      const rows = await listPosts(db, open_id, { itemIds: item_ids }, at, shareUrl);
      return apiOk({ list: rows.map((r) => itemOf(r, at)) });
    }),
  );

  // ---- pages of the sandbox's own

  scope.get('/share/video/:item_id', async (request, reply) => {
    const { item_id } = request.params as { item_id: string };
    const post = await db
      .selectFrom('sandbox_platform_posts')
      .innerJoin(
        'sandbox_platform_accounts',
        'sandbox_platform_accounts.open_id',
        'sandbox_platform_posts.open_id',
      )
      .select([
        'sandbox_platform_posts.title',
        'sandbox_platform_accounts.nickname',
        'sandbox_platform_posts.created_at',
      ])
      .where('sandbox_platform_posts.item_id', '=', item_id)
      .executeTakeFirst();
    if (!post || post.created_at + REVIEW_MS > (await now())) {
      return plainNotFound(request, reply);
    }
    const createdAt = `${new Date(post.created_at + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')} (UTC+8)`;
    return reply
      .type('text/html; charset=utf-8')
      .send(sharePage({ title: post.title, nickname: post.nickname, createdAt }));
  });

  scope.get('/avatar/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    const account = file.endsWith('.svg') ? await findAccount(db, file.slice(0, -4)) : undefined;
    if (!account) return plainNotFound(request, reply);
    return reply
      .header('cache-control', 'public, max-age=86400')
      .type('image/svg+xml')
      .send(avatarSvg(account.nickname, account.open_id));
  });

  // ---- the control API (tests and demos drive the sandbox with it)

  const bad = (reply: FastifyReply, error: string, status = 400) =>
    reply.status(status).send({ error });
  function parse<T>(schema: z.ZodType<T>, value: unknown, reply: FastifyReply): T | undefined {
    const parsed = schema.safeParse(value ?? {});
    if (parsed.success) return parsed.data;
    void bad(reply, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    return undefined;
  }

  scope.post('/__control/clock', async (request, reply) => {
    const body = parse(clockBody, request.body, reply);
    if (!body) return reply;
    const offset = await advanceClock(db, body.advance_seconds);
    return { offset_seconds: offset, now: await now() };
  });

  scope.post('/__control/revoke', async (request, reply) => {
    const body = parse(revokeBody, request.body, reply);
    if (!body) return reply;
    if (!(await setRevoked(db, body.open_id, true))) return bad(reply, 'no such account', 404);
    // The withdrawn authorisations' tokens are gone for good (authorising again makes new ones).
    await db
      .deleteFrom('sandbox_platform_access_tokens')
      .where('open_id', '=', body.open_id)
      .execute();
    await db
      .deleteFrom('sandbox_platform_refresh_tokens')
      .where('open_id', '=', body.open_id)
      .execute();
    return { open_id: body.open_id, revoked: true };
  });

  scope.post('/__control/fail', async (request, reply) => {
    const body = parse(failBody, request.body, reply);
    if (!body) return reply;
    if (!(await findAccount(db, body.open_id))) return bad(reply, 'no such account', 404);
    await addFault(db, {
      open_id: body.open_id,
      kind: 'fail',
      code: body.code,
      remaining: body.times,
    });
    return body;
  });

  scope.post('/__control/lose_reply', async (request, reply) => {
    const body = parse(loseBody, request.body, reply);
    if (!body) return reply;
    if (!(await findAccount(db, body.open_id))) return bad(reply, 'no such account', 404);
    await addFault(db, {
      open_id: body.open_id,
      kind: 'lose_reply',
      code: null,
      remaining: body.times,
    });
    return body;
  });

  scope.post('/__control/hold_reply', async (request, reply) => {
    const body = parse(loseBody, request.body, reply);
    if (!body) return reply;
    if (!(await findAccount(db, body.open_id))) return bad(reply, 'no such account', 404);
    await addFault(db, {
      open_id: body.open_id,
      kind: 'hold_reply',
      code: null,
      remaining: body.times,
    });
    return body;
  });

  scope.get('/__control/posts', async (request, reply) => {
    const query = parse(openIdQuery, request.query, reply);
    if (!query) return reply;
    const at = await now();
    const rows = await listPosts(db, query.open_id, 'all', at, shareUrl);
    return {
      list: rows.map((r) => ({ ...itemOf(r, at), open_id: r.open_id, status: r.status })),
    };
  });

  scope.get('/__control/accounts', async () => {
    const accounts = await listAccounts(db);
    return {
      list: accounts.map((a) => ({
        open_id: a.open_id,
        nickname: a.nickname,
        avatar: `${base}${a.avatar}`,
        fans: a.fans,
        revoked: a.revoked === 1,
      })),
    };
  });

  function allowedRedirect(uri: string, request: FastifyRequest): boolean {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return url.origin === new URL(config.publicUrl).origin || url.host === request.headers.host;
  }
}

function refuse(reply: FastifyReply, message: string) {
  return reply
    .status(400)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(refusalPage(message));
}
