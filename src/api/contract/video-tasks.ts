import { z } from 'zod';
import { displayName, multilineText, text } from './text';
import type { ValidationMessageId } from './messages';

/**
 * Video tasks: batch mixed-cut (混剪) and smart clip (docs/domain.md §9 and §8). Payloads,
 * queries and replies shared by the server (validation) and the console (types, form rules).
 * Times are epoch milliseconds; durations seconds (decimals allowed); sizes bytes; money a decimal
 * string with 2 places.
 *
 * Calls (list replies `{list, total}`):
 * - `POST /video_task/estimate {kind, …same body as add}` → {@link VideoTaskEstimate}: how many
 *   unique combinations the shot groups allow, how many outputs `add` would make, the price. It
 *   runs every check `add` runs except the balance, and charges nothing.
 * - `POST /video_task/add` → `{id}`: freezes the price of every output (ledger `task_freeze`),
 *   then each output is one render job.
 * - `GET /video_task/list {kind, status?, keyword?, page, limit}` → {@link VideoTaskPage}.
 * - `GET /video_task/detail {id}` → {@link VideoTaskDetail}: the task and every output.
 * - `POST /video_task/retry {id}`: the failed outputs again (charged again only for those).
 * - `POST /video_task/cancel {id}`: queued outputs cancelled and refunded; rendering ones finish.
 * - `POST /video_task/delete {ids}`: finished tasks (none queued or rendering); files removed.
 *
 * Clip calls (kind `clip`, and `add`/`estimate` with a clip body) are refused for a caller whose
 * `show_clip_menu` is 0.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const VIDEO_TASK_KINDS = ['mixed', 'clip'] as const;
export type VideoTaskKind = (typeof VIDEO_TASK_KINDS)[number];

export const MIX_MODES = ['random', 'sequential'] as const;
export type MixMode = (typeof MIX_MODES)[number];

export const VIDEO_RATIOS = ['9:16', '16:9', '1:1', '4:3'] as const;
export type VideoRatio = (typeof VIDEO_RATIOS)[number];

export const VIDEO_RESOLUTIONS = ['720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

/**
 * Frame size per ratio and resolution: the short side is 720 or 1080 (both even, as H.264
 * needs). 4:3 at 720p is 960×720, 1:1 720×720.
 */
export const FRAME_SIZE: Record<
  VideoRatio,
  Record<VideoResolution, { width: number; height: number }>
> = {
  '9:16': { '720p': { width: 720, height: 1280 }, '1080p': { width: 1080, height: 1920 } },
  '16:9': { '720p': { width: 1280, height: 720 }, '1080p': { width: 1920, height: 1080 } },
  '1:1': { '720p': { width: 720, height: 720 }, '1080p': { width: 1080, height: 1080 } },
  '4:3': { '720p': { width: 960, height: 720 }, '1080p': { width: 1440, height: 1080 } },
};

/** Between two shots: a plain cut (the default) or a short cross-fade. */
export const VIDEO_TRANSITIONS = ['cut', 'fade'] as const;
export type VideoTransition = (typeof VIDEO_TRANSITIONS)[number];

/** Where subtitles sit: inside the safe margins at the top, the middle or the bottom. */
export const SUBTITLE_POSITIONS = ['top', 'middle', 'bottom'] as const;
export type SubtitlePosition = (typeof SUBTITLE_POSITIONS)[number];

/**
 * A source whose shape differs from the output's: `crop` (the default, as before this field) fills
 * the frame and cuts the rest off, centred; `blur` shows it whole, over a blurred copy of itself
 * that fills the frame.
 */
export const VIDEO_FITS = ['crop', 'blur'] as const;
export type VideoFit = (typeof VIDEO_FITS)[number];

export const TITLE_POSITIONS = ['top', 'center', 'bottom'] as const;
export type TitlePosition = (typeof TITLE_POSITIONS)[number];

export const TASK_STATUSES = [
  'pending',
  'running',
  'done',
  'partly_done',
  'failed',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** A task in one of these has nothing queued or rendering: it may be deleted. */
export const FINISHED_TASK_STATUSES: readonly TaskStatus[] = [
  'done',
  'partly_done',
  'failed',
  'cancelled',
];

export const OUTPUT_STATUSES = ['queued', 'rendering', 'done', 'failed', 'cancelled'] as const;
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];

/** Limits. */
export const LIMITS = {
  count: { min: 1, max: 100 },
  fps: { min: 1, max: 30 },
  bitrate: { min: 150, max: 1800 },
  musicVolume: { min: 0, max: 10 },
  shotGroups: { min: 1, max: 20 },
  /** Shots (resources) in one group. */
  shotsPerGroup: { min: 1, max: 50 },
  /** A group's or a clip's length, seconds. */
  shotDuration: { min: 0.5, max: 60 },
  /** The whole output (advanced mode), seconds. */
  duration: { min: 1, max: 300 },
  titles: { max: 5 },
  titleText: { max: 50 },
  titleSize: { min: 12, max: 120 },
  subtitleText: { max: 2000 },
  subtitleSize: { min: 12, max: 96 },
  /** Outline width, pixels of a 720-short-side frame (absent: size ÷ 16). */
  subtitleOutline: { min: 0, max: 8 },
  /** Timed subtitle lines (SRT import, per-line edit). */
  subtitleLines: { max: 300 },
  subtitleLineText: { max: 200 },
  /** The narration script. */
  narrationText: { max: 2000 },
  narrationSpeed: { min: 0.5, max: 2 },
  narrationVolume: { min: 0, max: 2 },
  watermarkText: { max: 30 },
  musicIds: { max: 20 },
  stickers: { max: 10 },
  name: { max: 50 },
} as const;

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

const int = (min: number, max: number, message: ValidationMessageId) =>
  z.number(msg(message)).int(msg(message)).min(min, msg(message)).max(max, msg(message));
const num = (min: number, max: number, message: ValidationMessageId) =>
  z.number(msg(message)).min(min, msg(message)).max(max, msg(message));

const color = text('validation.color').regex(/^#[0-9a-fA-F]{6}$/, msg('validation.color'));

const taskName = displayName({ max: LIMITS.name.max, message: 'validation.taskName' });

export const titleSchema = z.strictObject({
  text: text('validation.titleText')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, msg('validation.titleText'))
        .max(LIMITS.titleText.max, msg('validation.titleText')),
    ),
  size: int(LIMITS.titleSize.min, LIMITS.titleSize.max, 'validation.titleSize'),
  color,
  position: z.enum(TITLE_POSITIONS, msg('validation.invalid')),
});
export type VideoTitle = z.infer<typeof titleSchema>;

/** One timed subtitle line (seconds from the output's start; an SRT cue, a per-line edit). */
export const subtitleLineSchema = z
  .strictObject({
    start: num(0, 3600, 'validation.subtitleLine'),
    end: num(0, 3600, 'validation.subtitleLine'),
    text: text('validation.subtitleLine')
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, msg('validation.subtitleLine'))
          .max(LIMITS.subtitleLineText.max, msg('validation.subtitleLine')),
      ),
  })
  .refine((l) => l.end > l.start, msg('validation.subtitleLine'));
export type SubtitleLineInput = z.infer<typeof subtitleLineSchema>;

/**
 * Subtitles. Their words, by precedence: `lines` as given (times kept: SRT import, per-line
 * edit); else, with a narration, the script's sentences timed to the speech; else `text` split at
 * sentence ends and spread over the video. The server refuses subtitles with none of the three.
 */
export const subtitlesSchema = z.strictObject({
  text: multilineText('validation.subtitleText')
    .transform((s) => s.trim())
    .pipe(z.string().max(LIMITS.subtitleText.max, msg('validation.subtitleText')))
    .optional(),
  lines: z
    .array(subtitleLineSchema, msg('validation.subtitleLine'))
    .max(LIMITS.subtitleLines.max, msg('validation.subtitleLines'))
    .optional(),
  /** A `font` resource of the caller's; absent: Noto Sans CJK. */
  font: id.optional(),
  size: int(LIMITS.subtitleSize.min, LIMITS.subtitleSize.max, 'validation.subtitleSize').optional(),
  color: color.optional(),
  /** Absent: bottom. */
  position: z.enum(SUBTITLE_POSITIONS, msg('validation.invalid')).optional(),
  outline: int(
    LIMITS.subtitleOutline.min,
    LIMITS.subtitleOutline.max,
    'validation.subtitleOutline',
  ).optional(),
});
export type VideoSubtitles = z.infer<typeof subtitlesSchema>;

/** An image resource (image or sticker) placed on the frame; x, y, width are fractions of it. */
export const stickerSchema = z.strictObject({
  resource_id: id,
  x: num(0, 1, 'validation.stickerPlace'),
  y: num(0, 1, 'validation.stickerPlace'),
  width: num(0.05, 1, 'validation.stickerPlace'),
});
export type VideoSticker = z.infer<typeof stickerSchema>;

/**
 * A voice-over (docs/domain.md §9 "Narration"): the script spoken once per task by a ready voice
 * clone of the caller's or a public voice, mixed over the music (which ducks under it); billed in
 * `digital_man` seconds like a digital-human video's speech.
 */
export const narrationSchema = z.strictObject({
  text: multilineText('validation.narrationText')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, msg('validation.narrationText'))
        .max(LIMITS.narrationText.max, msg('validation.narrationText')),
    ),
  voice_id: id,
  /** As a digital-human video's (DH_LIMITS in ./digital-human). */
  speed: num(
    LIMITS.narrationSpeed.min,
    LIMITS.narrationSpeed.max,
    'validation.speechSpeed',
  ).default(1),
  volume: num(
    LIMITS.narrationVolume.min,
    LIMITS.narrationVolume.max,
    'validation.speechVolume',
  ).default(1),
});
export type VideoNarration = z.infer<typeof narrationSchema>;

/** A text mark in a corner, half transparent. */
export const watermarkSchema = z.strictObject({
  text: text('validation.watermarkText')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, msg('validation.watermarkText'))
        .max(LIMITS.watermarkText.max, msg('validation.watermarkText')),
    ),
  corner: z.enum(
    ['top_left', 'top_right', 'bottom_left', 'bottom_right'],
    msg('validation.invalid'),
  ),
});
export type VideoWatermark = z.infer<typeof watermarkSchema>;

export const shotGroupSchema = z.strictObject({
  resource_ids: z
    .array(id, msg('validation.shotGroup'))
    .min(LIMITS.shotsPerGroup.min, msg('validation.shotGroup'))
    .max(LIMITS.shotsPerGroup.max, msg('validation.shotGroup')),
  /** Seconds each shot of this group lasts in the output; absent: the shot's own length. */
  duration: num(
    LIMITS.shotDuration.min,
    LIMITS.shotDuration.max,
    'validation.shotDuration',
  ).optional(),
});
export type ShotGroup = z.infer<typeof shotGroupSchema>;

/** What both kinds share: the look, the sound, the words. */
const common = {
  name: taskName,
  ratio: z.enum(VIDEO_RATIOS, msg('validation.ratio')),
  resolution: z.enum(VIDEO_RESOLUTIONS, msg('validation.resolution')),
  /** Absent: `crop`. */
  fit: z.enum(VIDEO_FITS, msg('validation.fit')).optional(),
  fps: int(LIMITS.fps.min, LIMITS.fps.max, 'validation.fps'),
  bitrate: int(LIMITS.bitrate.min, LIMITS.bitrate.max, 'validation.bitrate'),
  /** `bgm` or `audio` resources; one is used per output (in turn). */
  music_ids: z
    .array(id, msg('validation.invalid'))
    .max(LIMITS.musicIds.max, msg('validation.invalid'))
    .optional(),
  music_volume: int(LIMITS.musicVolume.min, LIMITS.musicVolume.max, 'validation.musicVolume'),
  keep_original_sound: z.boolean(msg('validation.invalid')),
  titles: z
    .array(titleSchema, msg('validation.invalid'))
    .max(LIMITS.titles.max, msg('validation.tooManyTitles'))
    .optional(),
  subtitles: subtitlesSchema.optional(),
  stickers: z
    .array(stickerSchema, msg('validation.invalid'))
    .max(LIMITS.stickers.max, msg('validation.tooManyStickers'))
    .optional(),
  narration: narrationSchema.optional(),
  watermark: watermarkSchema.optional(),
  /** Between shots; absent: `cut`. */
  transition: z.enum(VIDEO_TRANSITIONS, msg('validation.invalid')).optional(),
};

export const mixedTaskBody = z.strictObject({
  kind: z.literal('mixed', msg('validation.invalid')),
  ...common,
  mode: z.enum(MIX_MODES, msg('validation.mixMode')),
  count: int(LIMITS.count.min, LIMITS.count.max, 'validation.outputCount'),
  /** Video (`video`, `intro` or `outro` type) resources played first and last, whole. */
  intro_id: id.optional(),
  outro_id: id.optional(),
  shot_groups: z
    .array(shotGroupSchema, msg('validation.shotGroups'))
    .min(LIMITS.shotGroups.min, msg('validation.shotGroups'))
    .max(LIMITS.shotGroups.max, msg('validation.shotGroups')),
  /**
   * Advanced mode: every output lasts exactly this long; the time after intro and outro is shared
   * equally by the groups (a shorter shot holds its last frame). Intro + outro must be shorter.
   */
  duration: num(LIMITS.duration.min, LIMITS.duration.max, 'validation.taskDuration').optional(),
});
export type MixedTaskBody = z.input<typeof mixedTaskBody>;

export const clipTaskBody = z.strictObject({
  kind: z.literal('clip', msg('validation.invalid')),
  ...common,
  /** One `video` resource. */
  resource_id: id,
  /** The part kept, seconds from the start: 0 ≤ start < end ≤ the video's length, ≥ 0.5 s long. */
  trim: z
    .strictObject({
      start: num(0, 3600, 'validation.trim'),
      end: num(0, 3600, 'validation.trim'),
    })
    .refine((t) => t.end - t.start >= LIMITS.shotDuration.min, msg('validation.trim')),
});
export type ClipTaskBody = z.input<typeof clipTaskBody>;

/** `POST /video_task/add` and `/video_task/estimate`. */
export const videoTaskBody = z.discriminatedUnion('kind', [mixedTaskBody, clipTaskBody], {
  message: 'validation.invalid',
});
export type VideoTaskBody = z.input<typeof videoTaskBody>;
export type VideoTaskParams = z.output<typeof videoTaskBody>;

const optionalQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** `GET /video_task/list`: the caller's own tasks of a kind, newest first. */
export const videoTaskListQuery = z.strictObject({
  kind: z.enum(VIDEO_TASK_KINDS, msg('validation.invalid')),
  status: optionalQuery(z.enum(TASK_STATUSES, msg('validation.invalid'))),
  keyword: optionalQuery(text().max(50)),
  page: z.coerce.number(msg('validation.invalid')).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number(msg('validation.invalid')).int().min(1).max(100).default(20),
});
export type VideoTaskListQuery = z.input<typeof videoTaskListQuery>;
export type VideoTaskListParams = z.output<typeof videoTaskListQuery>;

export const videoTaskIdQuery = z.strictObject({ id });
export const videoTaskIdBody = z.strictObject({ id });
export type VideoTaskIdBody = z.input<typeof videoTaskIdBody>;
export const videoTaskDeleteBody = z.strictObject({
  ids: z.array(id, msg('validation.invalid')).min(1, msg('validation.invalid')).max(100),
});
export type VideoTaskDeleteBody = z.input<typeof videoTaskDeleteBody>;

// ---- replies

export const videoTaskEstimateSchema = z.object({
  /** Unique combinations the shot groups allow (one shot per group): 1 for a clip. */
  combinations: z.number(),
  /** Outputs `add` would make (the count asked; more than `combinations` is refused). */
  outputs: z.number(),
  /** The price of one output and of all (money, 2 decimals). */
  unit_cost: z.string(),
  cost: z.string(),
  /** The caller's money balance now. */
  balance: z.string(),
  /** Each output's planned length in seconds: the shortest and the longest combination. */
  duration_min: z.number(),
  duration_max: z.number(),
  /**
   * With a narration: its estimated speech in whole seconds (cut at each output's end when
   * longer), its price in `digital_man` seconds (held at add, settled on the real length), and
   * the caller's `digital_man` balance; absent without one.
   */
  narration: z.object({ seconds: z.number(), cost: z.number(), balance: z.number() }).optional(),
});
export type VideoTaskEstimate = z.infer<typeof videoTaskEstimateSchema>;

export const videoTaskAddReplySchema = z.object({ id: z.number() });
export type VideoTaskAddReply = z.infer<typeof videoTaskAddReplySchema>;

export const videoTaskSchema = z.object({
  id: z.number(),
  kind: z.enum(VIDEO_TASK_KINDS),
  name: z.string(),
  status: z.enum(TASK_STATUSES),
  /** Outputs in all, and how many are done, failed, cancelled. */
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  cancelled: z.number(),
  /** 0–100: finished outputs, with the rendering ones' own progress. */
  progress: z.number(),
  /** Money frozen at add (and at retries), settled, refunded (2 decimals). */
  cost: z.string(),
  settled: z.string(),
  refunded: z.string(),
  ratio: z.enum(VIDEO_RATIOS),
  resolution: z.enum(VIDEO_RESOLUTIONS),
  /** A signed URL of the first done output's poster; null before one is done. */
  cover: z.string().nullable(),
  /** True when the stuck-task sweep re-queued its jobs at least once. */
  stalled: z.boolean(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
  /**
   * A signed link (1 hour, no session token) to a ZIP of its done outputs
   * (`GET /video_task/download_all`); null before one is done.
   */
  download_all_url: z.string().nullable(),
  /** Its first queued output's place in the queue (1 = next) and estimated start (epoch ms). */
  queue_position: z.number().nullable(),
  estimated_start: z.number().nullable(),
});
export type VideoTask = z.infer<typeof videoTaskSchema>;

export const videoTaskPageSchema = z.object({
  list: z.array(videoTaskSchema),
  total: z.number(),
});
export type VideoTaskPage = z.infer<typeof videoTaskPageSchema>;

export const videoOutputSchema = z.object({
  id: z.number(),
  /** 1-based, in the task. */
  index: z.number(),
  status: z.enum(OUTPUT_STATUSES),
  /** 0–100 while rendering. */
  progress: z.number(),
  /** Why it failed, in the caller's language; null unless failed. */
  reason: z.string().nullable(),
  /** The renderer's last lines (technical detail); null unless failed. */
  reason_detail: z.string().nullable(),
  /** Seconds: the plan's length, then the file's once done. */
  duration: z.number(),
  size: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Signed URLs (1 hour) once done: play (Range works), download (attachment), poster. */
  url: z.string().nullable(),
  download_url: z.string().nullable(),
  poster: z.string().nullable(),
  /** The shots it uses, in order (one per group; a clip: its video). */
  combination: z.array(z.object({ group: z.number(), resource_id: z.number(), name: z.string() })),
  /** Runs started (a retry adds one). */
  attempts: z.number(),
  finished_at: z.number().nullable(),
  /** While queued: its place in the queue (1 = next) and estimated start (epoch ms). */
  queue_position: z.number().nullable(),
  estimated_start: z.number().nullable(),
});
export type VideoOutput = z.infer<typeof videoOutputSchema>;

export const videoTaskDetailSchema = videoTaskSchema.extend({
  /** The body it was added with (the form shows it again; "make again" starts from it). */
  params: z.record(z.string(), z.unknown()),
  outputs: z.array(videoOutputSchema),
});
export type VideoTaskDetail = z.infer<typeof videoTaskDetailSchema>;

export const videoTaskRetryReplySchema = z.object({
  /** Failed outputs queued again, and the money frozen for them. */
  count: z.number(),
  cost: z.string(),
});
export type VideoTaskRetryReply = z.infer<typeof videoTaskRetryReplySchema>;

export const videoTaskCancelReplySchema = z.object({
  /** Queued outputs cancelled, and the money given back for them. */
  count: z.number(),
  refunded: z.string(),
});
export type VideoTaskCancelReply = z.infer<typeof videoTaskCancelReplySchema>;

export const videoTaskDeleteReplySchema = z.object({ count: z.number() });
export type VideoTaskDeleteReply = z.infer<typeof videoTaskDeleteReplySchema>;
