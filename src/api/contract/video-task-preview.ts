import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import type { VideoRatio } from './video-tasks';

/**
 * Preview before paying (docs/domain.md §9 "Presets, batches and previews"): a short,
 * low-resolution render of a task body's first combination, free, throttled per person, made on
 * the job runner ahead of paid outputs, read through a signed URL and removed after an hour.
 *
 * Calls (the caller's own previews only; another's answers like a missing one):
 * - `POST /video_task/preview {kind, …same body as add}` → {@link VideoPreview} (queued): every
 *   check of `add` but the balance; nothing is held or charged. More than
 *   {@link PREVIEW_LIMITS}.perMinute in a minute: HTTP 429 `{code: 0, msg}` with `Retry-After`.
 * - `GET /video_task/preview_detail {id}` → {@link VideoPreview}: its state, and once done the
 *   file's signed URL.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const PREVIEW_LIMITS = {
  /** Previews one person may ask for in a minute (the rows of the last 60 s). */
  perMinute: 6,
  windowMs: 60_000,
  /** The longest preview, seconds (more only with many shots: each lasts minPiece at least). */
  seconds: 4,
  /** A piece of the timeline (a shot, the intro, the outro) lasts at least this long, seconds. */
  minPiece: 0.4,
  /** A preview's file (and its row) is removed this long after it was asked for. */
  ttlMs: 3_600_000,
} as const;

/**
 * The preview's frame: the task's ratio with a short side of 360 (a quarter of 720p's pixels),
 * both sides even.
 */
export const PREVIEW_FRAME: Record<VideoRatio, { width: number; height: number }> = {
  '9:16': { width: 360, height: 640 },
  '16:9': { width: 640, height: 360 },
  '1:1': { width: 360, height: 360 },
  '4:3': { width: 480, height: 360 },
};

export const PREVIEW_STATUSES = ['queued', 'rendering', 'done', 'failed'] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

export const videoPreviewIdQuery = z.strictObject({ id });

// ---- replies

export const videoPreviewSchema = z.object({
  id: z.number(),
  status: z.enum(PREVIEW_STATUSES),
  /** The frame it is rendered at ({@link PREVIEW_FRAME} of the body's ratio). */
  width: z.number(),
  height: z.number(),
  /** Seconds, once done (the file's). */
  duration: z.number().nullable(),
  /** A signed URL of the MP4 once done (it plays with Range requests); null before. */
  url: z.string().nullable(),
  /** Why it failed, in the caller's language; null unless failed. */
  reason: z.string().nullable(),
  /**
   * The body has a narration: the preview has no voice (no speech is made for a preview) and the
   * script's subtitles are timed by the estimate of its speech.
   */
  narration_silent: z.boolean(),
  /** When the file is removed (epoch ms). */
  expires_at: z.number(),
});
export type VideoPreview = z.infer<typeof videoPreviewSchema>;
