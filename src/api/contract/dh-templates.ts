import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { isPlatformImageUrl } from './platform-image-rules';
import { displayName, text } from './text';

/**
 * Digital-human video templates (docs/domain.md §10 "Video templates"): a frame (ratio and size),
 * where the presenter and the subtitles sit, the subtitles' style, a background (a colour, or an
 * image over it), optional music (used when a video has none of its own), a cover and a demo
 * video. The platform's templates (`scope: platform`, the admin's) are everyone's; a partner's or
 * merchant's own (`mine`) are its own only. Payloads, queries and replies shared by the server
 * (validation) and the console (types, form rules).
 *
 * Calls (base /api/v1):
 * - `GET /digital_human/template_list {scope?, ratio?}` → `{list}`: the platform's templates and
 *   the caller's own (the admin: the platform's), platform first, then by sort and id.
 * - `POST /digital_human/template_add` → `{id}`: the admin adds a platform template (its pictures
 *   are platform images: `*_url`); a partner or merchant one of its own (its files are resources of
 *   its library: `*_id`).
 * - `POST /digital_human/template_edit {id, …}`: the whole template again (`name` absent: kept;
 *   a built-in template keeps its translated name unless one is given). The admin edits the
 *   platform's, the others their own.
 * - `POST /digital_human/template_delete {ids}` → `{count}`: the same rule; the default template
 *   (portrait) stays. A video made with a template keeps its settings: deleting or editing the
 *   template never changes a video already submitted.
 * - `POST /digital_human/template_from_video {video_id, name}` → `{id}`: an own template with a
 *   finished (done) video's frame, layout, background, music and subtitle style; its output is the
 *   demo video and the output's poster the cover.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/** Every ratio the video tasks take (./video-tasks VIDEO_RATIOS): 4:3 since migration 0034. */
export const TEMPLATE_RATIOS = ['9:16', '16:9', '1:1', '4:3'] as const;
export type TemplateRatio = (typeof TEMPLATE_RATIOS)[number];

/** Whose a template is: the platform's (everyone's) or the caller's own. */
export const TEMPLATE_SCOPES = ['platform', 'mine'] as const;
export type TemplateScope = (typeof TEMPLATE_SCOPES)[number];

/** Limits of a template (docs/domain.md §10 "Video templates"). */
export const TEMPLATE_LIMITS = {
  name: { max: 30 },
  /** The presenter's rectangle: each side at least this share of the frame's. */
  avatarMin: 0.1,
  /** The subtitles' baseline: this share of the frame's height from the top. */
  subtitleY: { min: 0.1, max: 0.98 },
  /** The subtitles' size: this share of the frame's height. */
  subtitleSize: { min: 0.02, max: 0.1 },
  /** Own templates per partner or merchant. */
  perOwner: 50,
} as const;

/** Where things sit in a template's frame: fractions (0–1) of its width and height. */
export const templateLayoutSchema = z.object({
  avatar: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  subtitle: z.object({ y: z.number(), size: z.number(), color: z.string() }),
  /** The background colour (#RRGGBB), under the background image when there is one. */
  background: z.string(),
});
export type TemplateLayout = z.infer<typeof templateLayoutSchema>;

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

const optionalQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const templateName = displayName({
  max: TEMPLATE_LIMITS.name.max,
  message: 'validation.templateName',
});
const color = text('validation.color').regex(/^#[0-9a-fA-F]{6}$/, msg('validation.color'));
const between = (message: ValidationMessageId, min: number, max: number) =>
  z.number(msg(message)).min(min, msg(message)).max(max, msg(message));
/** A rounding error of the form's percentages may not push a rectangle out of its frame. */
const EDGE = 1e-6;

/** A layout as sent: each number within its limits, the presenter inside the frame. */
export const templateLayoutBody = z.strictObject({
  avatar: z
    .strictObject({
      x: between('validation.templateAvatar', 0, 1),
      y: between('validation.templateAvatar', 0, 1),
      width: between('validation.templateAvatar', TEMPLATE_LIMITS.avatarMin, 1),
      height: between('validation.templateAvatar', TEMPLATE_LIMITS.avatarMin, 1),
    })
    .refine(
      (a) => a.x + a.width <= 1 + EDGE && a.y + a.height <= 1 + EDGE,
      msg('validation.templateAvatar'),
    ),
  subtitle: z.strictObject({
    y: between(
      'validation.templateSubtitleY',
      TEMPLATE_LIMITS.subtitleY.min,
      TEMPLATE_LIMITS.subtitleY.max,
    ),
    size: between(
      'validation.templateSubtitleSize',
      TEMPLATE_LIMITS.subtitleSize.min,
      TEMPLATE_LIMITS.subtitleSize.max,
    ),
    color,
  }),
  background: color,
});
export type TemplateLayoutBody = z.input<typeof templateLayoutBody>;

/** A platform image's address (a `content` image: PNG, JPEG, WebP). */
const imageUrl = text('validation.templateImage').refine(
  (s) => isPlatformImageUrl(s, 'content'),
  msg('validation.templateImage'),
);

const templateFields = {
  ratio: z.enum(TEMPLATE_RATIOS, msg('validation.ratio')),
  layout: templateLayoutBody,
  /** Own templates: an `image` resource of the caller's, shown over the background colour. */
  background_image_id: id.nullable().optional(),
  /** Platform templates: a platform image, shown over the background colour. */
  background_image_url: imageUrl.nullable().optional(),
  /** Own templates: an `image` resource; absent: the demo video's poster is the cover. */
  cover_id: id.nullable().optional(),
  /** Platform templates: a platform image as the cover. */
  cover_url: imageUrl.nullable().optional(),
  /** Own templates: a `video` resource of the caller's showing what the template makes. */
  demo_id: id.nullable().optional(),
  /** Own templates: a `bgm` or `audio` resource, mixed under a video that has no music. */
  music_id: id.nullable().optional(),
};

export const dhTemplateAddBody = z.strictObject({ name: templateName, ...templateFields });
export type DhTemplateAddBody = z.input<typeof dhTemplateAddBody>;
export type DhTemplateAddParams = z.output<typeof dhTemplateAddBody>;

export const dhTemplateEditBody = z.strictObject({
  id,
  /** Absent: the name stays (a built-in template's stays translated). */
  name: templateName.optional(),
  ...templateFields,
});
export type DhTemplateEditBody = z.input<typeof dhTemplateEditBody>;
export type DhTemplateEditParams = z.output<typeof dhTemplateEditBody>;

export const dhTemplateDeleteBody = z.strictObject({
  ids: z
    .array(id, msg('validation.invalid'))
    .min(1, msg('validation.invalid'))
    .max(100, msg('validation.invalid')),
});
export type DhTemplateDeleteBody = z.input<typeof dhTemplateDeleteBody>;

export const dhTemplateFromVideoBody = z.strictObject({ video_id: id, name: templateName });
export type DhTemplateFromVideoBody = z.input<typeof dhTemplateFromVideoBody>;

export const dhTemplateListQuery = z.strictObject({
  scope: optionalQuery(z.enum(TEMPLATE_SCOPES, msg('validation.invalid'))),
  ratio: optionalQuery(z.enum(TEMPLATE_RATIOS, msg('validation.ratio'))),
});
export type DhTemplateListParams = z.output<typeof dhTemplateListQuery>;
export type DhTemplateListQuery = Partial<DhTemplateListParams>;

// ---- replies

/** A file of a template: a resource of its owner's library, or a platform image. */
export const templateFileSchema = z.object({
  /** The resource (own templates); null for a platform image. */
  resource_id: z.number().nullable(),
  /** The platform image's address (platform templates); null for a resource. */
  image_url: z.string().nullable(),
  name: z.string(),
  /** Where it is shown or played: a resource's signed URL (1 hour) or the image's address. */
  url: z.string().nullable(),
  /** A video's poster (signed); null for pictures and sound. */
  poster: z.string().nullable(),
});
export type TemplateFile = z.infer<typeof templateFileSchema>;

export const dhTemplateSchema = z.object({
  id: z.number(),
  /** In the caller's language for a built-in template; else as its owner named it. */
  name: z.string(),
  scope: z.enum(TEMPLATE_SCOPES),
  /** One of the templates the platform came with (its name is translated). */
  builtin: z.boolean(),
  /** The default: a video without a template uses it; it cannot be deleted. */
  default: z.boolean(),
  /** The caller may edit and delete it (the admin the platform's, the others their own). */
  editable: z.boolean(),
  ratio: z.enum(TEMPLATE_RATIOS),
  width: z.number(),
  height: z.number(),
  layout: templateLayoutSchema,
  background_image: templateFileSchema.nullable(),
  cover_image: templateFileSchema.nullable(),
  demo: templateFileSchema.nullable(),
  music: templateFileSchema.nullable(),
  /** The picture a card shows: the cover image, else the demo's poster; null without either. */
  cover: z.string().nullable(),
  created_at: z.number().nullable(),
});
export type DhTemplate = z.infer<typeof dhTemplateSchema>;
export const dhTemplateListSchema = z.object({ list: z.array(dhTemplateSchema) });
export type DhTemplateList = z.infer<typeof dhTemplateListSchema>;
export const dhTemplateAddReplySchema = z.object({ id: z.number() });
export type DhTemplateAddReply = z.infer<typeof dhTemplateAddReplySchema>;
export const dhTemplateDeleteReplySchema = z.object({ count: z.number() });
export type DhTemplateDeleteReply = z.infer<typeof dhTemplateDeleteReplySchema>;
