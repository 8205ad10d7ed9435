import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { pageQuery } from './money';
import { displayName, text } from './text';

/**
 * Matrix distribution, authorised accounts (docs/domain.md §19). A partner or merchant binds the
 * social accounts it publishes to; each account is its own (another's answers like a missing one).
 * - `POST /matrix/auth_url {platform, group_id?}` → `{url}`: where to send the person to authorise
 *   an account; the platform sends it back to `GET /api/v1/matrix/oauth_callback?code&state`,
 *   which binds the account and redirects to the accounts page (`?bound=<id>` or `?error=<id>`).
 * - `GET /matrix/account_list {platform?, status?, group_id?, keyword?, page, limit}` → `{list, total}`.
 * - `POST /matrix/account_refresh {id}` → the account (its tokens refreshed now).
 * - `POST /matrix/account_delete {ids}` → `{deleted}`; `POST /matrix/account_move {ids, group_id}`.
 * - `GET /matrix/account_group_list`, `POST /matrix/account_group_add|edit|delete`: a flat list
 *   of groups per owner (names 1–20, unique per owner); deleting one ungroups its accounts.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** The platforms an account may be on. Douyin publishes through its API; the others are assisted. */
export const SOCIAL_PLATFORMS = ['douyin', 'kuaishou', 'xiaohongshu', 'channels'] as const;
export type SocialPlatformId = (typeof SOCIAL_PLATFORMS)[number];

/**
 * normal: its tokens work; expiring: its refresh token can no longer be renewed and expires soon
 * (the owner should authorise it again); expired: its tokens expired (authorise again);
 * revoked: its owner withdrew the authorisation on the platform.
 */
export const ACCOUNT_STATUSES = ['normal', 'expiring', 'expired', 'revoked'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

const blankIsAbsent = (v: unknown) => (v === '' ? undefined : v);
const id = z.coerce
  .number(msg('validation.accountSelection'))
  .int(msg('validation.accountSelection'))
  .min(1, msg('validation.accountSelection'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.accountSelection'));
const groupId = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));
const platform = z.enum(SOCIAL_PLATFORMS, msg('validation.socialPlatform'));

export const authUrlBody = z.strictObject({ platform, group_id: groupId.optional() });
export type AuthUrlBody = z.input<typeof authUrlBody>;
export const authUrlReplySchema = z.object({ url: z.string() });
export type AuthUrlReply = z.infer<typeof authUrlReplySchema>;

/** What the platform sends back (an error instead of a code when the person declined). */
export const oauthCallbackQuery = z.object({
  code: z.string().max(512).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(500).optional(),
});

export const accountListQuery = z.strictObject({
  platform: z.preprocess(blankIsAbsent, platform.optional()),
  status: z.preprocess(
    blankIsAbsent,
    z.enum(ACCOUNT_STATUSES, msg('validation.invalid')).optional(),
  ),
  /** A group's id, or 0 for "ungrouped"; absent: every group. */
  group_id: z.preprocess(
    blankIsAbsent,
    z.coerce.number(msg('validation.invalid')).int().min(0).optional(),
  ),
  keyword: z.preprocess(blankIsAbsent, text().max(50, msg('validation.tooLong')).optional()),
  ...pageQuery,
});
export type AccountListQuery = z.input<typeof accountListQuery>;
export type AccountListParams = z.output<typeof accountListQuery>;

export const accountSchema = z.object({
  id: z.number(),
  platform: z.enum(SOCIAL_PLATFORMS),
  open_id: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  fans: z.number(),
  /** null: ungrouped. */
  group_id: z.number().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  /** True for an account of the embedded sandbox platform (a test account). */
  sandbox: z.boolean(),
  /** True for an account added by hand whose posts are published by hand (assisted platforms). */
  assisted: z.boolean(),
  /** When the access token expires (epoch ms). */
  expires_at: z.number(),
  /** When the refresh token expires: after it the owner must authorise again (epoch ms). */
  refresh_expires_at: z.number(),
  /** Refresh-token renewals left before the owner must authorise again. */
  renewals_left: z.number(),
  /** The last successful refresh (epoch ms), null: never since it was bound. */
  last_refresh_at: z.number().nullable(),
  /** Why the last refresh failed (a message in the caller's locale), null when it did not. */
  last_error: z.string().nullable(),
  created_at: z.number(),
});
export type MatrixAccount = z.infer<typeof accountSchema>;
export const accountPageSchema = z.object({ list: z.array(accountSchema), total: z.number() });
export type AccountPage = z.infer<typeof accountPageSchema>;

export const accountRefreshBody = z.strictObject({ id });
export const accountDeleteBody = z.strictObject({
  ids: z
    .array(id, msg('validation.accountSelection'))
    .min(1, msg('validation.accountSelection'))
    .max(1000, msg('validation.accountSelection')),
});
export type AccountDeleteBody = z.input<typeof accountDeleteBody>;
export const accountDeleteReplySchema = z.object({ deleted: z.number() });

/** `POST /matrix/account_move {ids, group_id}`: into a group of the caller's, or 0: ungrouped. */
export const accountMoveBody = z.strictObject({
  ids: accountDeleteBody.shape.ids,
  group_id: z.coerce.number(msg('validation.invalid')).int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type AccountMoveBody = z.input<typeof accountMoveBody>;
export const accountMoveReplySchema = z.object({ moved: z.number() });

/**
 * Batch authorisation (docs/domain.md §19): a link the caller sends to accounts' owners (shown as
 * a QR code too); whoever opens `/batchAuthorization?token=…` (no login) may authorise an account
 * on the platform, and it is bound to the link's owner. A use counts only when an account is bound.
 * - `POST /matrix/batch_link_add {platform, group_id?, expires_hours (1–168), max_uses?}` →
 *   `{id, url, expires_at}`; `GET /matrix/batch_link_list {page, limit}`;
 *   `POST /matrix/batch_link_revoke {id}`.
 * - Public: `GET /matrix/batch_link_info {token}` → what the page shows;
 *   `POST /matrix/batch_auth_url {token}` → `{url}`. Both are throttled per address.
 */
export const batchLinkAddBody = z.strictObject({
  platform,
  group_id: groupId.optional(),
  expires_hours: z.coerce
    .number(msg('validation.batchLinkHours'))
    .int(msg('validation.batchLinkHours'))
    .min(1, msg('validation.batchLinkHours'))
    .max(168, msg('validation.batchLinkHours')),
  max_uses: z.coerce
    .number(msg('validation.batchLinkUses'))
    .int(msg('validation.batchLinkUses'))
    .min(1, msg('validation.batchLinkUses'))
    .max(1000, msg('validation.batchLinkUses'))
    .optional(),
});
export type BatchLinkAddBody = z.input<typeof batchLinkAddBody>;
export const batchLinkAddReplySchema = z.object({
  id: z.number(),
  url: z.string(),
  expires_at: z.number(),
});

export const BATCH_LINK_STATES = ['valid', 'expired', 'revoked', 'used_up'] as const;
export type BatchLinkState = (typeof BATCH_LINK_STATES)[number];

export const batchLinkSchema = z.object({
  id: z.number(),
  platform: z.enum(SOCIAL_PLATFORMS),
  group_id: z.number().nullable(),
  url: z.string(),
  expires_at: z.number(),
  max_uses: z.number().nullable(),
  uses: z.number(),
  state: z.enum(BATCH_LINK_STATES),
  created_at: z.number(),
});
export type BatchLink = z.infer<typeof batchLinkSchema>;
export const batchLinkPageSchema = z.object({ list: z.array(batchLinkSchema), total: z.number() });
export const batchLinkListQuery = z.strictObject({ ...pageQuery });
export const batchLinkRevokeBody = z.strictObject({ id: groupId });

const token = text('validation.batchLinkToken')
  .min(16, msg('validation.batchLinkToken'))
  .max(128, msg('validation.batchLinkToken'));
export const batchLinkTokenQuery = z.strictObject({ token });
export const batchLinkTokenBody = z.strictObject({ token });

/** What the public page shows: whose link, for which platform, and whether it can be used. */
export const batchLinkInfoSchema = z.object({
  /** The display name of the link's owner (who the accounts will be bound to). */
  owner_name: z.string(),
  platform: z.enum(SOCIAL_PLATFORMS),
  state: z.enum(BATCH_LINK_STATES),
  expires_at: z.number(),
  /** Uses left, null: no limit. */
  uses_left: z.number().nullable(),
});
export type BatchLinkInfo = z.infer<typeof batchLinkInfoSchema>;

/**
 * `POST /matrix/account_add_assisted {platform, nickname, group_id?}`: an account of a platform
 * without a publishing API (Kuaishou, Xiaohongshu, WeChat Channels), added by hand: its posts
 * become to-dos (the file to download, the text to copy) that the person marks published.
 */
export const ASSISTED_PLATFORMS = ['kuaishou', 'xiaohongshu', 'channels'] as const;
export const assistedAddBody = z.strictObject({
  platform: z.enum(ASSISTED_PLATFORMS, msg('validation.socialPlatform')),
  nickname: displayName({ max: 30, message: 'validation.accountNickname' }),
  group_id: groupId.optional(),
});
export type AssistedAddBody = z.input<typeof assistedAddBody>;
