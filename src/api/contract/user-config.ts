import { z } from 'zod';
import { text } from './text';
import type { VideoRatio, VideoResolution } from './video-tasks';

/**
 * The video tasks' ratios and resolutions, written here so that /user/setting does not load the
 * video tasks' contract (and its texts); the types below keep the two lists the same.
 */
export const TASK_RATIOS = ['9:16', '16:9', '1:1', '4:3'] as const;
export const TASK_RESOLUTIONS = ['720p', '1080p'] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameLists: [
  Same<(typeof TASK_RATIOS)[number], VideoRatio>,
  Same<(typeof TASK_RESOLUTIONS)[number], VideoResolution>,
] = [true, true];
void sameLists;

/**
 * The caller's own settings (`/user_config/info`, `/user_config/edit`; docs/domain.md §12 "The
 * caller's own settings"): which notifications it gets, the defaults of its new video tasks and,
 * for a partner with `open_oem = 1`, its OEM mini-program's appid.
 */

const flag = z.enum(['0', '1'], { message: 'validation.invalid' });

export const USER_CONFIG_DEFAULTS = {
  /** Video tasks and digital-human videos finished or failed. */
  notify_task_done: '1',
  /** Image and voice clones ready or failed. */
  notify_clone_done: '1',
  /** Matrix accounts needing attention, posts failed or skipped. */
  notify_matrix: '1',
  default_ratio: '9:16',
  default_resolution: '720p',
} as const;
export type UserConfigKey = keyof typeof USER_CONFIG_DEFAULTS;
export const USER_CONFIG_KEYS = Object.keys(USER_CONFIG_DEFAULTS) as UserConfigKey[];

export const userConfigSchema = z.object({
  notify_task_done: flag,
  notify_clone_done: flag,
  notify_matrix: flag,
  default_ratio: z.enum(TASK_RATIOS),
  default_resolution: z.enum(TASK_RESOLUTIONS),
  /** '' when none; only a partner with `open_oem = 1` may set it (`can_set_mini_appid`). */
  mini_appid: z.string(),
  can_set_mini_appid: z.boolean(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;

/** A mini-program appid: `wx` and 16 hex digits; '' clears it. */
export const MINI_APPID = /^(wx[0-9a-f]{16})?$/;

/** POST /user_config/edit: any subset of the settings. */
export const editUserConfigBody = z.strictObject({
  notify_task_done: flag.optional(),
  notify_clone_done: flag.optional(),
  notify_matrix: flag.optional(),
  default_ratio: z.enum(TASK_RATIOS, { message: 'validation.invalid' }).optional(),
  default_resolution: z.enum(TASK_RESOLUTIONS, { message: 'validation.invalid' }).optional(),
  mini_appid: text()
    .trim()
    .max(32, { message: 'validation.tooLong' })
    .regex(MINI_APPID, { message: 'validation.invalid' })
    .optional(),
});
export type EditUserConfigBody = z.infer<typeof editUserConfigBody>;
