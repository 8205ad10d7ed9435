import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { pageQuery } from './money';

/**
 * Notifications (docs/domain.md §18): what happened to the caller's work while it was elsewhere.
 * Every signed-in user has its own store and sees only its own rows.
 * - `GET /notification/list {unread?, page, limit}` → `{list, total}`, newest first;
 * - `GET /notification/unread_count` → `{count}` (the console polls it);
 * - `POST /notification/read {ids} | {all: true}`: marks the caller's own rows read (ids of
 *   another's rows change nothing); answers how many changed.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** The events that write a notification: `<subject>.<outcome>`. */
export const NOTIFICATION_KINDS = [
  'video_task.done',
  'video_task.partly_done',
  'video_task.failed',
  'dh_image_clone.ready',
  'dh_image_clone.failed',
  'dh_voice_clone.ready',
  'dh_voice_clone.failed',
  'dh_video.done',
  'dh_video.failed',
  'matrix_account.expiring',
  'matrix_account.expired',
  'matrix_account.revoked',
  'matrix_post.failed',
  'matrix_post.skipped',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a notification is about (the console links to it). */
export const NOTIFICATION_SUBJECTS = [
  'video_task',
  'dh_image_clone',
  'dh_voice_clone',
  'dh_video',
  'matrix_account',
  'matrix_plan',
] as const;
export type NotificationSubject = (typeof NOTIFICATION_SUBJECTS)[number];

const selection = msg('validation.notificationSelection');
const id = z.coerce
  .number(selection)
  .int(selection)
  .min(1, selection)
  .max(Number.MAX_SAFE_INTEGER, selection);

export const notificationListQuery = z.strictObject({
  ...pageQuery,
  /** `1`/`true`: only the unread ones; `0`/`false` or absent: all. */
  unread: z.preprocess(
    (v) =>
      v === ''
        ? undefined
        : v === '1' || v === 'true'
          ? true
          : v === '0' || v === 'false'
            ? false
            : v,
    z.boolean(msg('validation.invalid')).optional(),
  ),
});
/** What the console sends (the schema's input is loose: query strings). */
export interface NotificationListQuery {
  unread?: boolean;
  page?: number;
  limit?: number;
}
export type NotificationListParams = z.output<typeof notificationListQuery>;

/** `{ids}` (1–100 of the caller's) or `{all: true}`; never both, never neither. */
export const notificationReadBody = z
  .strictObject({
    ids: z.array(id, selection).min(1, selection).max(100, selection).optional(),
    all: z.literal(true, selection).optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), selection);
export type NotificationReadBody = z.input<typeof notificationReadBody>;

export const notificationRowSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The server message id and its parameters (e.g. the task's name). */
  message_id: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The message in the caller's locale. */
  text: z.string(),
  subject_type: z.enum(NOTIFICATION_SUBJECTS),
  subject_id: z.number(),
  created_at: z.number(),
  /** Null while unread. */
  read_at: z.number().nullable(),
});
export type NotificationRow = z.infer<typeof notificationRowSchema>;

export const notificationPageSchema = z.object({
  list: z.array(notificationRowSchema),
  total: z.number(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationCountSchema = z.object({ count: z.number() });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

export const notificationReadReplySchema = z.object({
  /** Rows that were unread and are now read. */
  count: z.number(),
});
export type NotificationReadReply = z.infer<typeof notificationReadReplySchema>;
