import { z } from 'zod';
import { SOCIAL_PLATFORMS, type SocialPlatformId } from './matrix';
import type { ValidationMessageId } from './messages';
import { displayName } from './text';

/**
 * AI text for matrix distribution (a partner's or merchant's tool; nothing is stored):
 * - `POST /matrix/ai_imitate_title {title, count, platform?}` → `{titles, demonstration}`: `count`
 *   distinct titles in the manner of `title`, none equal to it, each within the platform's
 *   `TITLE_LIMITS`. `demonstration` is true when they come from the embedded generator (templates
 *   and synonyms, no AI model): the console labels them as demonstration output.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/**
 * The longest title each platform accepts, in characters (Unicode code points; a Chinese
 * character counts one): Douyin, Kuaishou and WeChat Channels 30, Xiaohongshu 20. The release-plan
 * form checks its titles against the same table.
 */
export const TITLE_LIMITS = {
  douyin: 30,
  kuaishou: 30,
  xiaohongshu: 20,
  channels: 30,
} as const satisfies Record<SocialPlatformId, number>;

/** How many titles one call may ask for. */
export const IMITATE_TITLE_MAX = 10;

/** A title's length as the platforms count it (code points, not UTF-16 units). */
export const titleLength = (title: string) => [...title].length;

export const imitateTitleBody = z.strictObject({
  /** The title to imitate: one line of visible characters, trimmed, 1–100 characters. */
  title: displayName({ max: 100, message: 'validation.aiTitle' }),
  count: z
    .number(msg('validation.titleCount'))
    .int(msg('validation.titleCount'))
    .min(1, msg('validation.titleCount'))
    .max(IMITATE_TITLE_MAX, msg('validation.titleCount')),
  /** Whose title limit applies (default Douyin). */
  platform: z.enum(SOCIAL_PLATFORMS, msg('validation.socialPlatform')).default('douyin'),
});
export type ImitateTitleBody = z.input<typeof imitateTitleBody>;
export type ImitateTitleParams = z.output<typeof imitateTitleBody>;

export const imitateTitleReplySchema = z.object({
  titles: z.array(z.string()),
  /** The embedded generator made them (templates, not an AI model). */
  demonstration: z.boolean(),
});
export type ImitateTitleReply = z.infer<typeof imitateTitleReplySchema>;
