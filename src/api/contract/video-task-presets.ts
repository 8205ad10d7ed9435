import { z } from 'zod';
import { resourceSchema } from './resources';
import { displayName } from './text';
import { VIDEO_TASK_KINDS, videoTaskBody } from './video-tasks';
import type { ValidationMessageId } from './messages';

/**
 * Reusing a video task's settings (docs/domain.md §9 "Presets, batches and previews"): a person's
 * named presets and the body of an earlier task ("duplicate"). Each is the caller's own: another's
 * preset or task answers like a missing one.
 *
 * Calls:
 * - `POST /video_task_preset/save {name, body}` → {@link VideoTaskPreset}: the body (what `add`
 *   takes, checked by the same schema) under the name; a preset of the same name is replaced.
 * - `GET /video_task_preset/list {kind}` → `{list, total}`: the caller's presets of a kind, by name.
 * - `GET /video_task_preset/detail {id}` → {@link VideoTaskSource} with the preset's id and name.
 * - `POST /video_task_preset/delete {id}`.
 * - `GET /video_task/source {id}` → {@link VideoTaskSource}: the body a task was added with, to
 *   fill the form again.
 * A source's `resources` are the caller's live resources the body names (the form shows them);
 * a resource deleted since is left out, and the form drops it.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const PRESET_NAME_MAX = 30;
/** Presets one person keeps. */
export const PRESETS_MAX = 50;

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

export const videoTaskPresetSaveBody = z.strictObject({
  name: displayName({ max: PRESET_NAME_MAX, message: 'validation.presetName' }),
  body: videoTaskBody,
});
export type VideoTaskPresetSaveBody = z.input<typeof videoTaskPresetSaveBody>;

export const videoTaskPresetListQuery = z.strictObject({
  kind: z.enum(VIDEO_TASK_KINDS, msg('validation.invalid')),
});
export type VideoTaskPresetListQuery = z.input<typeof videoTaskPresetListQuery>;

export const videoTaskPresetIdQuery = z.strictObject({ id });
export const videoTaskPresetIdBody = z.strictObject({ id });

// ---- replies

export const videoTaskPresetSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(VIDEO_TASK_KINDS),
  created_at: z.number(),
  updated_at: z.number(),
});
export type VideoTaskPreset = z.infer<typeof videoTaskPresetSchema>;

export const videoTaskPresetPageSchema = z.object({
  list: z.array(videoTaskPresetSchema),
  total: z.number(),
});
export type VideoTaskPresetPage = z.infer<typeof videoTaskPresetPageSchema>;

/** What fills a create form: a body and the caller's live resources it names. */
export const videoTaskSourceSchema = z.object({
  kind: z.enum(VIDEO_TASK_KINDS),
  body: z.record(z.string(), z.unknown()),
  resources: z.array(resourceSchema),
});
export type VideoTaskSource = z.infer<typeof videoTaskSourceSchema>;

export const videoTaskPresetDetailSchema = videoTaskSourceSchema.extend({
  id: z.number(),
  name: z.string(),
});
export type VideoTaskPresetDetail = z.infer<typeof videoTaskPresetDetailSchema>;

export const videoTaskPresetDeleteReplySchema = z.object({ id: z.number() });
