import { openAsBlob } from 'node:fs';
import { z } from 'zod';
import {
  SocialPlatformError,
  type AccountCredentials,
  type PlatformPost,
  type SocialPlatform,
  type SocialTokens,
} from '../types';
import { createDouyinTransport, type DouyinTransportOptions } from './client';

export { classifyDouyinReply, douyinKindOf, DOUYIN_ERROR_KINDS } from './errors';

/** The scopes asked for: the profile, publishing, and the posts' list and numbers. */
export const DOUYIN_SCOPES = 'user_info,video.create,video.data,video.list';

export interface DouyinOptions extends DouyinTransportOptions {
  clientKey: string;
  /** The client_secret, read at each use (a value set in the sealed settings wins at once). */
  clientSecret: string | (() => Promise<string | undefined>);
  /** True for the embedded sandbox platform (its accounts are test accounts). */
  sandbox: boolean;
  /** The clock the expiry times are computed with (default Date.now). */
  now?: () => number;
}

const num = z.coerce.number();

const tokenData = z.object({
  access_token: z.string().min(1),
  expires_in: num,
  open_id: z.string().min(1),
  refresh_expires_in: num,
  refresh_token: z.string().min(1),
  scope: z.string().default(''),
});
const tokenReply = z.object({ data: tokenData });
const renewReply = z.object({
  data: z.object({ refresh_token: z.string().min(1), expires_in: num }),
});
const userReply = z.object({
  data: z.object({ open_id: z.string(), nickname: z.string(), avatar: z.string().default('') }),
});
const fansReply = z.object({
  data: z.object({
    result_list: z
      .array(z.object({ date: z.string().optional(), total_fans: num, new_fans: num.optional() }))
      .default([]),
  }),
});
const uploadReply = z.object({
  data: z.object({ video: z.object({ video_id: z.string().min(1) }) }),
});
const createReply = z.object({ data: z.object({ item_id: z.string().min(1) }) });

const itemSchema = z.object({
  item_id: z.string(),
  title: z.string().default(''),
  create_time: num,
  share_url: z.string().nullish(),
  is_reviewed: z.boolean().default(true),
  video_status: num.optional(),
  video_id: z.string().nullish(),
  statistics: z
    .object({
      play_count: num.default(0),
      digg_count: num.default(0),
      comment_count: num.default(0),
      share_count: num.default(0),
    })
    .default({ play_count: 0, digg_count: 0, comment_count: 0, share_count: 0 }),
});
type Item = z.infer<typeof itemSchema>;
const listReply = z.object({
  data: z.object({
    list: z.array(itemSchema).nullable(),
    cursor: num.default(0),
    has_more: z.boolean().default(false),
  }),
});
const dataReply = z.object({ data: z.object({ list: z.array(itemSchema).nullable() }) });

/** Douyin's video_status: 2 = not fit to be public (refused). */
const REFUSED_STATUS = 2;
/** video_list answers at most this many per page. */
const PAGE = 20;

function postOf(item: Item): PlatformPost {
  const review = !item.is_reviewed
    ? 'reviewing'
    : item.video_status === REFUSED_STATUS
      ? 'rejected'
      : 'published';
  return {
    postId: item.item_id,
    ...(item.video_id ? { mediaId: item.video_id } : {}),
    title: item.title,
    createdAt: item.create_time * 1000,
    review,
    shareUrl: item.share_url ? item.share_url : null,
    metrics: {
      plays: item.statistics.play_count,
      likes: item.statistics.digg_count,
      comments: item.statistics.comment_count,
      shares: item.statistics.share_count,
    },
  };
}

/** The caption Douyin shows: the title, then ` #topic` for each topic. */
export function captionOf(title: string, topics: readonly string[]): string {
  const tags = topics.map((t) => t.trim().replace(/^#+/, '')).filter((t) => t !== '');
  return `${title}${tags.map((t) => ` #${t}`).join('')}`;
}

/**
 * The Douyin Open Platform adapter (docs/architecture.md §Integrations): OAuth at
 * `/platform/oauth/connect/` and `/oauth/*`, the posts at `/api/douyin/v1/video/*`, the fans at
 * `/data/external/user/fans/`. Every failure is a {@link SocialPlatformError} classified by
 * `./errors.ts`.
 */
export function createDouyinPlatform(options: DouyinOptions): SocialPlatform {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = createDouyinTransport(options);
  const now = options.now ?? Date.now;
  const { clientKey } = options;

  async function clientSecret(): Promise<string> {
    const secret =
      typeof options.clientSecret === 'string'
        ? options.clientSecret
        : await options.clientSecret();
    if (!secret) throw new SocialPlatformError('invalid_request', 0, 'no client_secret is set');
    return secret;
  }

  const tokensOf = (data: z.infer<typeof tokenData>): SocialTokens => {
    const at = now();
    return {
      openId: data.open_id,
      accessToken: data.access_token,
      accessExpiresAt: at + data.expires_in * 1000,
      refreshToken: data.refresh_token,
      refreshExpiresAt: at + data.refresh_expires_in * 1000,
      scope: data.scope,
    };
  };

  const account = (path: string, credentials: AccountCredentials, query = '') =>
    `${path}?open_id=${encodeURIComponent(credentials.openId)}${query}`;

  return {
    platform: 'douyin',
    sandbox: options.sandbox,

    authorizeUrl({ state, redirectUri }) {
      const query = new URLSearchParams({
        client_key: clientKey,
        response_type: 'code',
        scope: DOUYIN_SCOPES,
        redirect_uri: redirectUri,
        state,
      });
      return `${base}/platform/oauth/connect/?${query}`;
    },

    async exchangeCode({ code }) {
      const reply = await send({
        method: 'POST',
        path: '/oauth/access_token/',
        schema: tokenReply,
        form: {
          client_key: clientKey,
          client_secret: await clientSecret(),
          code,
          grant_type: 'authorization_code',
        },
      });
      return tokensOf(reply.data);
    },

    async refreshAccess(refreshToken) {
      const reply = await send({
        method: 'POST',
        path: '/oauth/refresh_token/',
        schema: tokenReply,
        form: {
          client_key: clientKey,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        },
      });
      return tokensOf(reply.data);
    },

    async renewRefresh(refreshToken) {
      const reply = await send({
        method: 'POST',
        path: '/oauth/renew_refresh_token/',
        schema: renewReply,
        form: { client_key: clientKey, refresh_token: refreshToken },
      });
      return {
        refreshToken: reply.data.refresh_token,
        refreshExpiresAt: now() + reply.data.expires_in * 1000,
      };
    },

    async profile(credentials) {
      const user = await send({
        method: 'POST',
        path: '/oauth/userinfo/',
        schema: userReply,
        form: { access_token: credentials.accessToken, open_id: credentials.openId },
      });
      const fans = await send({
        method: 'GET',
        path: account('/data/external/user/fans/', credentials, '&date_type=7'),
        schema: fansReply,
        accessToken: credentials.accessToken,
      });
      return {
        openId: user.data.open_id,
        nickname: user.data.nickname,
        avatar: user.data.avatar,
        fans: fans.data.result_list.at(-1)?.total_fans ?? 0,
      };
    },

    async uploadMedia(credentials, media) {
      const form = new FormData();
      // A file-backed Blob: fetch streams it from disk, never whole in memory.
      const file = await openAsBlob(media.path, { type: 'video/mp4' }).catch((error: unknown) => {
        throw new SocialPlatformError(
          'media_invalid',
          0,
          `cannot read ${media.fileName}: ${error}`,
        );
      });
      form.append('video', file, media.fileName);
      const reply = await send({
        method: 'POST',
        path: account('/api/douyin/v1/video/upload_video/', credentials),
        schema: uploadReply,
        multipart: form,
        accessToken: credentials.accessToken,
        signal: media.signal,
        upload: true,
      });
      return { mediaId: reply.data.video.video_id };
    },

    async createPost(credentials, post) {
      const reply = await send({
        method: 'POST',
        path: account('/api/douyin/v1/video/create_video/', credentials),
        schema: createReply,
        json: { video_id: post.mediaId, text: captionOf(post.title, post.topics) },
        accessToken: credentials.accessToken,
        signal: post.signal,
        sideEffect: true,
      });
      return { postId: reply.data.item_id };
    },

    async recentPosts(credentials, count) {
      const posts: PlatformPost[] = [];
      let cursor = 0;
      while (posts.length < count) {
        const size = Math.min(PAGE, count - posts.length);
        const reply = await send({
          method: 'GET',
          path: account(
            '/api/douyin/v1/video/video_list/',
            credentials,
            `&cursor=${cursor}&count=${size}`,
          ),
          schema: listReply,
          accessToken: credentials.accessToken,
        });
        const page = reply.data.list ?? [];
        posts.push(...page.map(postOf));
        if (!reply.data.has_more || page.length === 0) break;
        cursor = reply.data.cursor;
      }
      return posts.slice(0, count);
    },

    async metrics(credentials, postIds) {
      if (postIds.length === 0) return [];
      const reply = await send({
        method: 'POST',
        path: account('/api/douyin/v1/video/video_data/', credentials),
        schema: dataReply,
        json: { item_ids: postIds },
        accessToken: credentials.accessToken,
      });
      return (reply.data.list ?? []).map(postOf);
    },
  };
}

const clientTokenReply = z.object({
  data: z.object({ access_token: z.string().min(1), expires_in: num }),
});

/**
 * Douyin's client token (`POST /oauth/client_token/`, grant `client_credential`): the app's own
 * token, asked for with its client_key and client_secret alone. The init config's "test
 * connection" of the Douyin group uses it: an answer proves the pair is right.
 */
export async function douyinClientToken(
  options: DouyinTransportOptions & { clientKey: string; clientSecret: string },
): Promise<{ accessToken: string; expiresIn: number }> {
  const send = createDouyinTransport(options);
  const reply = await send({
    method: 'POST',
    path: '/oauth/client_token/',
    schema: clientTokenReply,
    form: {
      client_key: options.clientKey,
      client_secret: options.clientSecret,
      grant_type: 'client_credential',
    },
  });
  return { accessToken: reply.data.access_token, expiresIn: reply.data.expires_in };
}
