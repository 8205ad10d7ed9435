import { IntegrationError, type IntegrationErrorKind } from '../errors';

/**
 * A social platform that publishes for creators (docs/architecture.md §Integrations, docs/domain.md
 * §19): OAuth for an account, its tokens kept alive, media uploaded and posts created in its name,
 * its recent posts listed (to reconcile a publish whose outcome is unknown) and its posts' numbers.
 *
 * Implemented by the Douyin adapter (`douyin/`), which speaks the Douyin Open Platform protocol at
 * a configurable base URL: the real platform, or the embedded sandbox platform our own server
 * serves under `/sandbox-platform` (module `sandbox-platform`) with the demo data or
 * `SOCIAL_SANDBOX=1`.
 *
 * A platform never touches our database and never keeps a token: the caller passes the account's
 * tokens in and seals what comes back. Every failure rejects with a {@link SocialPlatformError}
 * whose `social` kind decides what the caller does next (never its message).
 */
export interface SocialPlatform {
  /** The platform's id, as stored on accounts (`douyin`). */
  readonly platform: 'douyin';
  /** True when this is the embedded sandbox: its accounts are test accounts (labelled so). */
  readonly sandbox: boolean;
  /** Where to send the person to authorise an account; the platform redirects to `redirectUri`. */
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  /** The code the platform sent back → the account's tokens (a code works once, 10 minutes). */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<SocialTokens>;
  /** A new access token (and, on Douyin, the same refresh token) from the refresh token. */
  refreshAccess(refreshToken: string): Promise<SocialTokens>;
  /**
   * A new refresh token before the old one expires (Douyin: at most 5 times per authorisation,
   * then `auth_expired` with code 10020: the owner must authorise again).
   */
  renewRefresh(refreshToken: string): Promise<RenewedRefresh>;
  profile(account: AccountCredentials): Promise<SocialProfile>;
  /** Uploads a video file; the answer's id is what `createPost` publishes. */
  uploadMedia(account: AccountCredentials, media: MediaUpload): Promise<{ mediaId: string }>;
  /**
   * Creates the post. A reply that never came (timeout, connection lost after sending) rejects
   * with kind `unknown_outcome`: the post may exist; the caller reconciles with `recentPosts`
   * before anything is sent again.
   */
  createPost(account: AccountCredentials, post: PostInput): Promise<{ postId: string }>;
  /** The account's most recent posts, newest first (at most `count`). */
  recentPosts(account: AccountCredentials, count: number): Promise<PlatformPost[]>;
  /** The current numbers of the given posts (unknown ids are left out). */
  metrics(account: AccountCredentials, postIds: readonly string[]): Promise<PlatformPost[]>;
}

export interface SocialTokens {
  openId: string;
  accessToken: string;
  /** Epoch ms. */
  accessExpiresAt: number;
  refreshToken: string;
  /** Epoch ms. */
  refreshExpiresAt: number;
  scope: string;
}

export interface RenewedRefresh {
  refreshToken: string;
  /** Epoch ms. */
  refreshExpiresAt: number;
}

export interface AccountCredentials {
  openId: string;
  accessToken: string;
}

export interface SocialProfile {
  openId: string;
  nickname: string;
  avatar: string;
  fans: number;
}

export interface MediaUpload {
  /** A local file to send. */
  path: string;
  fileName: string;
  signal?: AbortSignal;
}

export interface PostInput {
  mediaId: string;
  /** The caption: title and `#topic`s as the platform writes them. */
  title: string;
  topics: readonly string[];
  signal?: AbortSignal;
}

export type PostReview = 'reviewing' | 'published' | 'rejected';

export interface PlatformPost {
  postId: string;
  /** The uploaded media the post was made from, when the platform says (the sandbox does). */
  mediaId?: string;
  title: string;
  /** Epoch ms. */
  createdAt: number;
  review: PostReview;
  shareUrl: string | null;
  metrics: PostMetrics;
}

export interface PostMetrics {
  plays: number;
  likes: number;
  comments: number;
  shares: number;
}

/**
 * What a failure means for the caller:
 * - `access_expired`: the access token is expired or invalid for now: refresh it, then try again.
 * - `auth_expired`: the refresh token expired or its renewals are used up: the owner authorises again.
 * - `revoked`: the owner withdrew the authorisation (or the token was never valid): authorise again.
 * - `rate_limited`: the platform's quota for now is used up: try again later.
 * - `content_rejected`: the platform refuses the text or the video's content (or the account is
 *   barred from posting): fails the post; retrying the same will not help.
 * - `media_invalid`: the file is unusable for the platform (too large, too long, an unknown id).
 * - `invalid_request`: any other refusal of the request as sent (a bug or a misconfiguration).
 * - `transient`: network, timeout before sending, 5xx, busy: try again later.
 * - `unknown_outcome`: the request was sent and no answer came: it may have taken effect.
 */
export const SOCIAL_ERROR_KINDS = [
  'access_expired',
  'auth_expired',
  'revoked',
  'rate_limited',
  'content_rejected',
  'media_invalid',
  'invalid_request',
  'transient',
  'unknown_outcome',
] as const;
export type SocialErrorKind = (typeof SOCIAL_ERROR_KINDS)[number];

/** How each social kind maps onto the integrations' common kinds (server/integrations/errors.ts). */
const COMMON_KIND: Record<SocialErrorKind, IntegrationErrorKind> = {
  access_expired: 'transient',
  auth_expired: 'reauthorize',
  revoked: 'reauthorize',
  rate_limited: 'transient',
  content_rejected: 'permanent',
  media_invalid: 'permanent',
  invalid_request: 'permanent',
  transient: 'transient',
  unknown_outcome: 'transient',
};

/** A platform's failure, with what it said: its code, description and log id (for support). */
export class SocialPlatformError extends IntegrationError {
  constructor(
    readonly social: SocialErrorKind,
    /** The platform's error code (Douyin's `error_code`), or the HTTP status, or 0 (network). */
    readonly platformCode: number,
    /** The platform's own description, as it sent it. */
    readonly description: string,
    /** The platform's log id of the call (Douyin's `logid`), when it sent one. */
    readonly logId: string | null = null,
  ) {
    super(
      `social platform: ${social} (${platformCode}${description ? `: ${description}` : ''})`,
      COMMON_KIND[social],
      `social.error.${social}`,
    );
    this.name = 'SocialPlatformError';
  }

  /** Worth trying again later as it is (after a refresh for `access_expired`). */
  get retryable(): boolean {
    return COMMON_KIND[this.social] === 'transient';
  }
}
