import { z } from 'zod';
import { displayName, text } from './text';
import type { ValidationMessageId } from './messages';

/**
 * Uploads (docs/domain.md §21 `/upload/*`) and the resource library (`/resource/*`,
 * docs/domain.md §8): payloads, queries and replies shared by the server (validation) and the
 * console (types, form rules). Times are epoch milliseconds; sizes are bytes; durations seconds.
 *
 * The flow:
 * 1. `GET /upload/generate_sts_token {type, name, size}` checks the type's size limit and the
 *    owner's storage quota against the declared size and answers an {@link UploadTokenReply}:
 *    a resumable tus upload (local disk) or presigned multipart part URLs (S3).
 * 2. The browser sends the bytes there (never through the API's JSON body parser). S3 multipart
 *    uploads then call `POST /upload/complete`. Small files (≤ {@link FORM_UPLOAD_MAX_BYTES}) may
 *    instead go in one `POST /upload/oss_upload` (multipart form: `type`, `file`).
 * 3. `POST /resource/add {upload_key, name, group_id?}` finishes a complete upload into a
 *    resource: the server checks the real type from the content (magic bytes, ffprobe for
 *    media), the limits and the quota again, probes width/height/duration/codec and makes a
 *    poster. A refused file is deleted. An upload becomes at most one resource.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** Resource types (docs/domain.md §8). */
export const RESOURCE_TYPES = [
  'video',
  'image',
  'audio',
  'bgm',
  'intro',
  'outro',
  'sticker',
  'font',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const resourceTypeSchema = z.enum(RESOURCE_TYPES, msg('validation.resourceType'));

/** What a type's file must really be (checked from its content, never from its name). */
export type MediaKind = 'video' | 'image' | 'audio' | 'font';
export const MEDIA_KIND: Record<ResourceType, MediaKind> = {
  video: 'video',
  intro: 'video',
  outro: 'video',
  image: 'image',
  sticker: 'image',
  audio: 'audio',
  bgm: 'audio',
  font: 'font',
};

const MB = 1024 * 1024;
/** Size limits per media kind (docs/domain.md §8; fonts: our decision, docs/decisions.md). */
export const MAX_UPLOAD_BYTES: Record<MediaKind, number> = {
  video: 500 * MB,
  image: 10 * MB,
  audio: 50 * MB,
  font: 30 * MB,
};
/** The content types (from magic bytes) accepted per media kind. */
export const ACCEPTED_CONTENT_TYPES: Record<MediaKind, readonly string[]> = {
  video: ['video/mp4', 'video/quicktime'],
  image: ['image/jpeg', 'image/png', 'image/webp'],
  audio: ['audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/mp4', 'audio/x-m4a'],
  font: ['font/ttf', 'font/otf'],
};
/** File name extensions a picker offers per media kind (a hint; the content decides). */
export const ACCEPTED_EXTENSIONS: Record<MediaKind, readonly string[]> = {
  video: ['.mp4', '.mov'],
  image: ['.jpg', '.jpeg', '.png', '.webp'],
  audio: ['.mp3', '.wav', '.m4a'],
  font: ['.ttf', '.otf'],
};
/** `POST /upload/oss_upload` takes files up to this size in one request. */
export const FORM_UPLOAD_MAX_BYTES = 10 * MB;
/** The platform's default storage quota per user (docs/domain.md §8; admin setting, per-user override). */
export const DEFAULT_STORAGE_QUOTA_BYTES = 10 * 1024 * MB;
/** Resource and upload names: 1–100 characters. Group names: 1–20 (docs/domain.md §8). */
export const MAX_RESOURCE_NAME = 100;
export const MAX_GROUP_NAME = 20;
/** The tus endpoint's header carrying the upload grant (never the session token). */
export const UPLOAD_GRANT_HEADER = 'Upload-Grant';

const name = (max: number, message: ValidationMessageId) => displayName({ max, message });

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

const uploadKey = text('validation.uploadKey').regex(/^[A-Za-z0-9_-]{16,64}$/, {
  message: 'validation.uploadKey',
});

/** `GET /upload/generate_sts_token`. `size`: the declared size in bytes (checked again at the end). */
export const uploadTokenQuery = z.strictObject({
  type: resourceTypeSchema,
  name: name(MAX_RESOURCE_NAME, 'validation.fileName'),
  size: z.coerce
    .number(msg('validation.fileSize'))
    .int(msg('validation.fileSize'))
    .min(1, msg('validation.fileSize'))
    .max(Number.MAX_SAFE_INTEGER, msg('validation.fileSize')),
});
export type UploadTokenQuery = z.input<typeof uploadTokenQuery>;

/** `POST /upload/complete` (S3 multipart only): the parts' ETags, in order. */
export const uploadCompleteBody = z.strictObject({
  upload_key: uploadKey,
  parts: z
    .array(
      z.strictObject({
        part_number: z.number().int().min(1).max(10_000),
        etag: text().min(1).max(200),
      }),
      msg('validation.invalid'),
    )
    .min(1, msg('validation.invalid'))
    .max(10_000, msg('validation.invalid')),
});
export type UploadCompleteBody = z.input<typeof uploadCompleteBody>;

/** `GET /upload/part_urls` (S3 multipart only): fresh URLs for parts (a resumed upload). */
export const uploadPartUrlsQuery = z.strictObject({
  upload_key: uploadKey,
  /** Comma-separated part numbers, at most 100. */
  parts: text('validation.invalid').regex(/^\d{1,5}(,\d{1,5}){0,99}$/, msg('validation.invalid')),
});

/**
 * `GET /resource/list`: the caller's own resources, newest first, not deleted. `type` one type;
 * `types` any of several (`types=image&types=sticker`, or comma-separated: what a form's place
 * takes, the picker's "all these types"); with both, a resource must be of `type`.
 */
export const resourceListQuery = z.strictObject({
  type: z.preprocess((v) => (v === '' ? undefined : v), resourceTypeSchema.optional()),
  types: z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' ? v.split(',') : v),
    z
      .array(resourceTypeSchema, msg('validation.resourceType'))
      .min(1, msg('validation.resourceType'))
      .max(RESOURCE_TYPES.length, msg('validation.resourceType'))
      .optional(),
  ),
  /** A group's id, or 0 for "ungrouped"; absent: every group. */
  group_id: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number(msg('validation.invalid')).int().min(0).optional(),
  ),
  keyword: z.preprocess((v) => (v === '' ? undefined : v), text().max(100).optional()),
  page: z.coerce.number(msg('validation.invalid')).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number(msg('validation.invalid')).int().min(1).max(100).default(20),
});
export type ResourceListQuery = z.input<typeof resourceListQuery>;
export type ResourceListParams = z.output<typeof resourceListQuery>;

export const resourceAddBody = z.strictObject({
  upload_key: uploadKey,
  name: name(MAX_RESOURCE_NAME, 'validation.resourceName'),
  group_id: id.optional(),
});
export type ResourceAddBody = z.input<typeof resourceAddBody>;

/** `group_id: 0` moves to "ungrouped". At least one of name, group_id. */
export const resourceEditBody = z
  .strictObject({
    id,
    name: name(MAX_RESOURCE_NAME, 'validation.resourceName').optional(),
    group_id: z.coerce.number(msg('validation.invalid')).int().min(0).optional(),
  })
  .refine((b) => b.name !== undefined || b.group_id !== undefined, {
    message: 'validation.nothingToChange',
  });
export type ResourceEditBody = z.input<typeof resourceEditBody>;

/** Deleting hides resources from the library; a file still used by a task stays (docs/domain.md §8). */
export const resourceDeleteBody = z.strictObject({
  ids: z.array(id, msg('validation.invalid')).min(1, msg('validation.invalid')).max(1000),
});
export type ResourceDeleteBody = z.input<typeof resourceDeleteBody>;

export const groupAddBody = z.strictObject({ name: name(MAX_GROUP_NAME, 'validation.groupName') });
export const groupEditBody = z.strictObject({
  id,
  name: name(MAX_GROUP_NAME, 'validation.groupName'),
});
/** Deleting a group moves its resources to "ungrouped". */
export const groupDeleteBody = z.strictObject({ id });
export type GroupAddBody = z.input<typeof groupAddBody>;
export type GroupEditBody = z.input<typeof groupEditBody>;
export type GroupDeleteBody = z.input<typeof groupDeleteBody>;

// ---- replies

export const uploadTokenReplySchema = z.object({
  upload_key: z.string(),
  /** Epoch ms: the grant's end (1 hour). */
  expire_at: z.number(),
  method: z.enum(['tus', 'multipart']),
  /** tus: POST here to create the upload, with `headers` on every request. */
  tus: z.object({ endpoint: z.string(), headers: z.record(z.string(), z.string()) }).nullable(),
  /** multipart: PUT each `part_size` slice to its URL, then `POST /upload/complete`. */
  multipart: z
    .object({
      part_size: z.number(),
      part_count: z.number(),
      parts: z.array(z.object({ part_number: z.number(), url: z.string() })),
    })
    .nullable(),
});
export type UploadTokenReply = z.infer<typeof uploadTokenReplySchema>;

/** `oss_upload` and `complete`: the upload's key, with its bytes stored. */
export const uploadDoneReplySchema = z.object({ upload_key: z.string(), size: z.number() });
export type UploadDoneReply = z.infer<typeof uploadDoneReplySchema>;

export const partUrlsReplySchema = z.object({
  parts: z.array(z.object({ part_number: z.number(), url: z.string() })),
});

export const resourceSchema = z.object({
  id: z.number(),
  type: z.enum(RESOURCE_TYPES),
  name: z.string(),
  /** null: ungrouped. */
  group_id: z.number().nullable(),
  /** A signed URL reading the file (1 hour; Range works). */
  url: z.string(),
  /** A signed URL of the poster (video: a frame; image: a thumbnail); null for audio and fonts. */
  cover: z.string().nullable(),
  content_type: z.string(),
  size: z.number(),
  /** Seconds (video, audio); null otherwise. */
  duration: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  codec: z.string().nullable(),
  created_at: z.number(),
});
export type Resource = z.infer<typeof resourceSchema>;
export const resourcePageSchema = z.object({
  list: z.array(resourceSchema),
  total: z.number(),
});
export type ResourcePage = z.infer<typeof resourcePageSchema>;

export const resourceGroupSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Resources in the group (not deleted). */
  count: z.number(),
  /** True for the owner's works group: finished outputs land there (docs/domain.md §8). */
  works: z.boolean().optional(),
});
export type ResourceGroup = z.infer<typeof resourceGroupSchema>;
export const groupListReplySchema = z.object({
  list: z.array(resourceGroupSchema),
  /** Resources in no group. */
  ungrouped: z.number(),
});
export type GroupListReply = z.infer<typeof groupListReplySchema>;

/** `GET /upload/quota`: the caller's storage use (the upload panel shows it). */
export const quotaReplySchema = z.object({ used: z.number(), quota: z.number() });
export type QuotaReply = z.infer<typeof quotaReplySchema>;

/**
 * Replies of the library's changes: `resource/add` and `resource/edit` answer the resource
 * ({@link resourceSchema}); `resource/delete` how many were deleted; `group_add` and `group_edit`
 * the group ({@link resourceGroupSchema}); `group_delete` null.
 */
export const resourceDeleteReplySchema = z.object({ count: z.number() });
export type ResourceDeleteReply = z.infer<typeof resourceDeleteReplySchema>;
