import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { pageQuery } from './money';
import { displayName, text } from './text';

/**
 * Release plans and their posts (docs/domain.md §20). A plan publishes media of the caller's to
 * accounts of the caller's at daily time slots between two dates, in a time zone:
 * - `POST /matrix/plan_preview` (the plan's body) → `{total, per_account_day, first}`: the
 *   schedule it would make, nothing saved;
 * - `POST /matrix/plan_add` → `{id, posts}`; `GET /matrix/plan_list {status?, page, limit}`;
 *   `GET /matrix/plan_detail {id}`; `POST /matrix/plan_pause|plan_resume|plan_cancel {id}`;
 * - `POST /matrix/plan_edit {id, ...plan_add's body}` → the plan, its posts made again: only
 *   until its first post starts publishing;
 * - `GET /matrix/post_list {plan_id?, account_id?, status?, page, limit}` → `{list, total}`;
 *   `POST /matrix/post_publish_now {id}`, `POST /matrix/post_retry {id}`.
 */

const msg = (id: ValidationMessageId) => ({ message: id });
const blankIsAbsent = (v: unknown) => (v === '' ? undefined : v);

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

/** Douyin's limits (the platform's): a title of at most 30 characters, at most 5 topics. */
export const DOUYIN_TITLE_MAX = 30;
export const DOUYIN_TOPICS_MAX = 5;
/** A plan makes at most this many posts (1,000 accounts × 4 slots × 50 days). */
export const PLAN_POSTS_MAX = 200_000;
export const PLAN_ACCOUNTS_MAX = 1000;
export const PLAN_MEDIA_MAX = 500;
export const PLAN_DAYS_MAX = 90;

export const MEDIA_TYPES = ['resource', 'video_output', 'dh_video'] as const;
export type PlanMediaType = (typeof MEDIA_TYPES)[number];

export const PLAN_STATUSES = ['not_started', 'running', 'done', 'paused', 'cancelled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const POST_STATUSES = [
  'waiting',
  'publishing',
  'under_review',
  'published',
  'failed',
  'unconfirmed',
  'skipped',
  'missed',
  'cancelled',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Characters of a title or topic as the platform counts them (code points). */
export const charCount = (s: string) => [...s].length;

const date = text('validation.planDate').regex(/^\d{4}-\d{2}-\d{2}$/, msg('validation.planDate'));
const slot = text('validation.planSlot').regex(
  /^([01]\d|2[0-3]):[0-5]\d$/,
  msg('validation.planSlot'),
);
const title = text('validation.planTitle')
  .trim()
  .min(1, msg('validation.planTitle'))
  .refine((s) => charCount(s) <= DOUYIN_TITLE_MAX, msg('validation.planTitle'));
const topic = text('validation.planTopic')
  .trim()
  .transform((s) => s.replace(/^#+/, ''))
  .refine(
    (s) => charCount(s) >= 1 && charCount(s) <= 20 && !/[\s#]/.test(s),
    msg('validation.planTopic'),
  );

/** A region code: province `XX0000`, city `XXXX00`, overseas `990000`. */
export const REGION_CODE = /^(?:\d{2}0000|\d{4}00)$/;

export const planBody = z.strictObject({
  name: displayName({ max: 40, message: 'validation.planName' }),
  account_ids: z
    .array(id, msg('validation.planAccounts'))
    .min(1, msg('validation.planAccounts'))
    .max(PLAN_ACCOUNTS_MAX, msg('validation.planAccounts')),
  media: z
    .array(
      z.strictObject({ type: z.enum(MEDIA_TYPES, msg('validation.planMedia')), id }),
      msg('validation.planMedia'),
    )
    .min(1, msg('validation.planMedia'))
    .max(PLAN_MEDIA_MAX, msg('validation.planMedia')),
  titles: z.array(title, msg('validation.planTitle')).min(1, msg('validation.planTitle')).max(100),
  topics: z
    .array(topic, msg('validation.planTopic'))
    .max(DOUYIN_TOPICS_MAX, msg('validation.planTopics'))
    .default([]),
  location: z.preprocess(
    blankIsAbsent,
    text('validation.planLocation').regex(REGION_CODE, msg('validation.planLocation')).optional(),
  ),
  start_date: date,
  end_date: date,
  slots: z
    .array(slot, msg('validation.planSlot'))
    .min(1, msg('validation.planSlot'))
    .max(24, msg('validation.planSlot')),
  daily_max: z.coerce
    .number(msg('validation.planDailyMax'))
    .int(msg('validation.planDailyMax'))
    .min(1, msg('validation.planDailyMax'))
    .max(24, msg('validation.planDailyMax')),
  timezone: text('validation.planTimezone').max(64).default('Asia/Shanghai'),
});
export type PlanBody = z.input<typeof planBody>;
export type PlanInput = z.output<typeof planBody>;

/** `POST /matrix/plan_edit`: the plan's id and the whole body again (docs/domain.md §20). */
export const planEditBody = planBody.extend({ id });
export type PlanEditBody = z.input<typeof planEditBody>;

const mediaRef = z.object({ type: z.enum(MEDIA_TYPES), id: z.number(), name: z.string() });

const schedulePost = z.object({
  account_id: z.number(),
  media: mediaRef,
  title: z.string(),
  /** A UTC instant (epoch ms); shown in the plan's time zone. */
  scheduled_at: z.number(),
});

export const planPreviewSchema = z.object({
  total: z.number(),
  /** Posts per account per day (at most `daily_max`). */
  per_account_day: z.number(),
  /** How many posts each media item gets, in the order sent. */
  per_media: z.array(z.number()),
  /** The first posts in time (at most 200). */
  first: z.array(schedulePost),
  /** The first and last post's instants. */
  starts_at: z.number().nullable(),
  ends_at: z.number().nullable(),
});
export type PlanPreview = z.infer<typeof planPreviewSchema>;

export const planAddReplySchema = z.object({ id: z.number(), posts: z.number() });

export const planSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(PLAN_STATUSES),
  timezone: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  slots: z.array(z.string()),
  daily_max: z.number(),
  titles: z.array(z.string()),
  topics: z.array(z.string()),
  location: z.string().nullable(),
  account_ids: z.array(z.number()),
  media: z.array(mediaRef),
  /** Posts per status. */
  counts: z.record(z.string(), z.number()),
  total: z.number(),
  created_at: z.number(),
});
export type ReleasePlan = z.infer<typeof planSchema>;
export const planPageSchema = z.object({ list: z.array(planSchema), total: z.number() });

/** The finished creations a plan form offers besides library videos (docs/domain.md §20). */
export const CREATION_MEDIA_TYPES = ['video_output', 'dh_video'] as const;
export type CreationMediaType = (typeof CREATION_MEDIA_TYPES)[number];
/** `ids`: at most this many, comma-separated (a plan's media at most). */
const mediaIds = text('validation.invalid').regex(
  /^\d{1,15}(,\d{1,15}){0,499}$/,
  msg('validation.invalid'),
);

/**
 * `GET /matrix/plan_media_list {type, ids?, page, limit}` → `{list, total}`: the caller's finished
 * mixed-cut or clip outputs (`video_output`) or digital-human videos (`dh_video`), newest first,
 * named as a plan shows them. With `ids` (comma-separated): those of them that a plan may use,
 * all on one page (what a "publish" link preselects).
 */
export const planMediaListQuery = z.strictObject({
  type: z.enum(CREATION_MEDIA_TYPES, msg('validation.invalid')),
  ids: z.preprocess(blankIsAbsent, mediaIds.optional()),
  ...pageQuery,
});
export type PlanMediaListQuery = z.input<typeof planMediaListQuery>;
export const planMediaItemSchema = mediaRef.extend({ created_at: z.number() });
export type PlanMediaItem = z.infer<typeof planMediaItemSchema>;
export const planMediaPageSchema = z.object({
  list: z.array(planMediaItemSchema),
  total: z.number(),
});

export const planListQuery = z.strictObject({
  status: z.preprocess(blankIsAbsent, z.enum(PLAN_STATUSES, msg('validation.invalid')).optional()),
  ...pageQuery,
});
export const planIdBody = z.strictObject({ id });
export const planIdQuery = z.strictObject({ id });

export const postSchema = z.object({
  id: z.number(),
  plan_id: z.number(),
  account_id: z.number(),
  media: mediaRef,
  title: z.string(),
  scheduled_at: z.number(),
  status: z.enum(POST_STATUSES),
  /** Why it failed (in the caller's language), with the platform's own code and words. */
  reason: z
    .object({
      kind: z.string(),
      text: z.string(),
      platform_code: z.number().nullable(),
      platform_text: z.string().nullable(),
      retryable: z.boolean(),
    })
    .nullable(),
  share_url: z.string().nullable(),
  published_at: z.number().nullable(),
  /**
   * A post of an assisted account (published by hand): the file to download (a signed URL, for an
   * hour) and the text to copy; null for posts the platform's API publishes.
   */
  assisted: z.object({ download_url: z.string(), text: z.string() }).nullable(),
  metrics: z.object({
    plays: z.number(),
    likes: z.number(),
    comments: z.number(),
    shares: z.number(),
  }),
});
export type PlanPost = z.infer<typeof postSchema>;
export const postPageSchema = z.object({ list: z.array(postSchema), total: z.number() });

export const postListQuery = z.strictObject({
  plan_id: z.preprocess(blankIsAbsent, id.optional()),
  account_id: z.preprocess(blankIsAbsent, id.optional()),
  status: z.preprocess(blankIsAbsent, z.enum(POST_STATUSES, msg('validation.invalid')).optional()),
  ...pageQuery,
});
export type PostListParams = z.output<typeof postListQuery>;
export const postIdBody = z.strictObject({ id });

/**
 * Video data (docs/domain.md §20): the published posts' numbers, pulled from the platform (recent
 * posts often, older ones rarely). `GET /matrix/video_data {account_id?, plan_id?, from, to}` —
 * the caller's posts published in [from, to] (epoch ms) — answers the totals, one row per day
 * (Asia/Shanghai dates: the day's gain of each number), per account, the top posts by plays, and
 * the rows themselves (at most 5,000, newest first: what the CSV export writes).
 */
const instant = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(0, msg('validation.invalid'))
  .max(8_640_000_000_000_000, msg('validation.invalid'));
export const videoDataQuery = z
  .strictObject({
    account_id: z.preprocess(blankIsAbsent, id.optional()),
    plan_id: z.preprocess(blankIsAbsent, id.optional()),
    from: instant,
    to: instant,
  })
  .refine((q) => q.to >= q.from && q.to - q.from <= 366 * 24 * 3600_000, {
    message: 'validation.videoDataRange',
  });
export type VideoDataQuery = z.input<typeof videoDataQuery>;

const numbers = {
  plays: z.number(),
  likes: z.number(),
  comments: z.number(),
  shares: z.number(),
};
export const videoDataSchema = z.object({
  totals: z.object({ posts: z.number(), ...numbers }),
  daily: z.array(z.object({ date: z.string(), ...numbers })),
  accounts: z.array(
    z.object({ account_id: z.number(), nickname: z.string(), posts: z.number(), ...numbers }),
  ),
  top: z.array(postSchema),
  rows: z.array(postSchema),
});
export type VideoData = z.infer<typeof videoDataSchema>;

/** `POST /matrix/post_mark_published {id, share_url}`: an assisted post was published by hand. */
export const postMarkPublishedBody = z.strictObject({
  id,
  share_url: text('validation.shareUrl')
    .trim()
    .max(500, msg('validation.shareUrl'))
    .regex(/^https?:\/\/[^\s/]+\S*$/i, msg('validation.shareUrl')),
});
