import { z } from 'zod';
import { displayName, multilineText, text } from './text';
import type { ValidationMessageId } from './messages';

/**
 * Digital human (docs/domain.md §10 and §8): image clones (a presenter's avatar), voice
 * clones, text-to-presenter videos, video templates. Payloads, queries and replies shared by the
 * server (validation) and the console (types, form rules). Times are epoch milliseconds;
 * durations seconds; sizes bytes. Balances here are the user's `digital_man` seconds,
 * `image_clone` and `digital_voice` counts (ledger assets), never money.
 *
 * Calls (list replies `{list, total}`); partners and merchants own their clones and videos; a
 * clone or video of another user answers exactly like a missing one:
 * - `POST /digital_human/image_clone_add {name, video_id, consent_video_id, tier}` → `{id}`:
 *   checks the source video (a `video` resource of the caller's: length, size, one continuous
 *   take) and the consent video, charges one `image_clone` (`task_freeze`), then trains.
 * - `GET /digital_human/image_clone_list {status?, keyword?, page, limit}`: admin sees every
 *   user's clones (with the owner's name), others their own.
 * - `POST /digital_human/image_clone_delete {ids}`: ready or failed clones.
 * - `POST /digital_human/voice_clone_add {name, gender, audio_id}` → `{id}`: an `audio`
 *   resource, 10–30 s, ≤ 20 MB; charges one `digital_voice`.
 * - `GET /digital_human/voice_clone_list {scope, status?, keyword?, page, limit}`: `mine` the
 *   caller's clones (admin: everyone's), `public` the platform's built-in voices (always ready,
 *   free).
 * - `POST /digital_human/voice_clone_delete {ids}`: ready or failed clones.
 * - `POST /digital_human/voice_preview {voice_id, text}` → `{url, duration}`: a signed URL
 *   (1 hour) of the text spoken by a ready voice (the caller's or public); free; cached.
 * - `GET /platform/platform_voice_clone_list {user_id?, status?, keyword?, page, limit}`: admin,
 *   every user's voice clones (the `/account/voice-record` page).
 * - `POST /digital_human/video_estimate {…same body as video_add}` → {@link DhVideoEstimate}.
 * - `POST /digital_human/video_add` → `{id}`: freezes the estimated seconds (`task_freeze` of
 *   `digital_man`), queues the video; settled on the real duration when done (the difference
 *   given back, or — when longer — charged up to the balance), refunded on failure.
 * - `GET /digital_human/video_list {status?, folder_id?, keyword?, page, limit}`.
 * - `GET /digital_human/video_detail {id}`: queue position, progress, reason, signed URLs.
 * - `POST /digital_human/video_rename {id, name}`, `video_delete {ids}` (not queued or
 *   creating), `video_resubmit {id}` → `{id}` (a new video with the same body, frozen again).
 * - Video templates (`template_list`, `template_add`, `template_edit`, `template_delete`,
 *   `template_from_video`): ./dh-templates.ts.
 * - `POST /digital_human/vendor_callback`: the HTTP vendor's signed callback (no session; see
 *   docs/digital-human-vendor.md).
 *
 * The embedded provider's results are demonstration output (`demonstration: true` on clones and
 * videos): speech from espeak-ng and a loudness-driven mouth overlay, not lip-sync.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

export const CLONE_STATUSES = ['queued', 'training', 'ready', 'failed'] as const;
export type CloneStatus = (typeof CLONE_STATUSES)[number];

export const DH_VIDEO_STATUSES = ['queued', 'creating', 'done', 'failed'] as const;
export type DhVideoStatus = (typeof DH_VIDEO_STATUSES)[number];

export const IMAGE_CLONE_TIERS = ['standard', 'advanced'] as const;
export type ImageCloneTier = (typeof IMAGE_CLONE_TIERS)[number];

export const VOICE_GENDERS = ['female', 'male'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

export const VOICE_SCOPES = ['mine', 'public'] as const;
export type VoiceScope = (typeof VOICE_SCOPES)[number];

/** Languages the speech of a video or preview is in (the embedded provider: espeak-ng voices). */
export const SPEECH_LANGUAGES = ['zh', 'en'] as const;
export type SpeechLanguage = (typeof SPEECH_LANGUAGES)[number];

/** Limits (docs/domain.md §10). */
export const DH_LIMITS = {
  name: { max: 30 },
  /** Image clone source video: seconds and bytes. */
  imageCloneVideo: { minSeconds: 30, maxSeconds: 600, maxBytes: 100 * 1024 * 1024 },
  /** Consent video: seconds. */
  consentVideo: { minSeconds: 1, maxSeconds: 120 },
  /** Scene changes allowed in the source video for it to be "one take". */
  sceneChanges: { max: 0 },
  /** Voice clone sample: seconds and bytes. */
  voiceSample: { minSeconds: 10, maxSeconds: 30, maxBytes: 20 * 1024 * 1024 },
  text: { min: 1, max: 5000 },
  previewText: { min: 1, max: 100 },
  speed: { min: 0.5, max: 2 },
  volume: { min: 0, max: 2 },
  videoName: { max: 50 },
} as const;

/**
 * Estimated seconds of speech for a text at a speed, the figure frozen at submit (whole seconds,
 * at least 1): CJK characters at 4.5 per second, other words at 2.6 per second, a pause of 0.4 s
 * per sentence end, all divided by the speed. The console shows the same figure live.
 */
export function estimateSpeechSeconds(text: string, speed: number): number {
  return Math.max(1, Math.ceil(speechSeconds(text, speed)));
}

/** The estimate of {@link estimateSpeechSeconds} before rounding (a sentence's share of it). */
export function speechSeconds(text: string, speed: number): number {
  const cjk = (text.match(/[\u3400-\u9fff\uf900-\ufaff]/g) ?? []).length;
  const words = (text.replace(/[\u3400-\u9fff\uf900-\ufaff]/g, ' ').match(/[\p{L}\p{N}]+/gu) ?? [])
    .length;
  const pauses = (text.match(/[。！？!?.；;]+/g) ?? []).length;
  return (cjk / 4.5 + words / 2.6 + pauses * 0.4) / (speed > 0 ? speed : 1);
}

/** The language a text is spoken in: Chinese when it has any CJK character, else English. */
export function speechLanguageOf(text: string): SpeechLanguage {
  return /[\u3400-\u9fff\uf900-\ufaff]/.test(text) ? 'zh' : 'en';
}

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));

const optionalQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const pageQuery = {
  page: z.coerce.number(msg('validation.invalid')).int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number(msg('validation.invalid')).int().min(1).max(100).default(20),
};

/** A trimmed, non-empty text (the words a voice speaks; names use `displayName`). */
const trimmed = (message: ValidationMessageId, max: number) =>
  text(message)
    .transform((s) => s.trim())
    .pipe(z.string().min(1, msg(message)).max(max, msg(message)));

const cloneName = displayName({ max: DH_LIMITS.name.max, message: 'validation.cloneName' });
const videoName = displayName({ max: DH_LIMITS.videoName.max, message: 'validation.dhVideoName' });

const ids = z
  .array(id, msg('validation.invalid'))
  .min(1, msg('validation.invalid'))
  .max(100, msg('validation.invalid'));

// ---- image clones

export const imageCloneAddBody = z.strictObject({
  name: cloneName,
  /** A `video` resource of the caller's: 30–600 s, ≤ 100 MB, one continuous take. */
  video_id: id,
  /** A `video` resource of the caller's: the presenter saying they agree to be cloned. */
  consent_video_id: id,
  tier: z.enum(IMAGE_CLONE_TIERS, msg('validation.cloneTier')),
});
export type ImageCloneAddBody = z.input<typeof imageCloneAddBody>;

export const imageCloneListQuery = z.strictObject({
  status: optionalQuery(z.enum(CLONE_STATUSES, msg('validation.invalid'))),
  keyword: optionalQuery(text().max(50)),
  ...pageQuery,
});
export type ImageCloneListQuery = z.input<typeof imageCloneListQuery>;
export type ImageCloneListParams = z.output<typeof imageCloneListQuery>;

export const cloneDeleteBody = z.strictObject({ ids });
export type CloneDeleteBody = z.input<typeof cloneDeleteBody>;

// ---- voice clones

export const voiceCloneAddBody = z.strictObject({
  name: cloneName,
  gender: z.enum(VOICE_GENDERS, msg('validation.voiceGender')),
  /** An `audio` resource of the caller's: 10–30 s of clean speech, ≤ 20 MB. */
  audio_id: id,
});
export type VoiceCloneAddBody = z.input<typeof voiceCloneAddBody>;

export const voiceCloneListQuery = z.strictObject({
  scope: z.enum(VOICE_SCOPES, msg('validation.invalid')).default('mine'),
  status: optionalQuery(z.enum(CLONE_STATUSES, msg('validation.invalid'))),
  keyword: optionalQuery(text().max(50)),
  ...pageQuery,
});
export type VoiceCloneListQuery = z.input<typeof voiceCloneListQuery>;
export type VoiceCloneListParams = z.output<typeof voiceCloneListQuery>;

/** `GET /platform/platform_voice_clone_list` (admin). */
export const platformVoiceCloneListQuery = z.strictObject({
  user_id: optionalQuery(id),
  status: optionalQuery(z.enum(CLONE_STATUSES, msg('validation.invalid'))),
  keyword: optionalQuery(text().max(50)),
  ...pageQuery,
});
export type PlatformVoiceCloneListQuery = z.input<typeof platformVoiceCloneListQuery>;
export type PlatformVoiceCloneListParams = z.output<typeof platformVoiceCloneListQuery>;

export const voicePreviewBody = z.strictObject({
  voice_id: id,
  text: trimmed('validation.previewText', DH_LIMITS.previewText.max),
});
export type VoicePreviewBody = z.input<typeof voicePreviewBody>;

// ---- videos

const speed = z
  .number(msg('validation.speechSpeed'))
  .min(DH_LIMITS.speed.min, msg('validation.speechSpeed'))
  .max(DH_LIMITS.speed.max, msg('validation.speechSpeed'));
const volume = z
  .number(msg('validation.speechVolume'))
  .min(DH_LIMITS.volume.min, msg('validation.speechVolume'))
  .max(DH_LIMITS.volume.max, msg('validation.speechVolume'));

export const dhVideoBody = z.strictObject({
  name: videoName,
  text: multilineText('validation.speechText')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(DH_LIMITS.text.min, msg('validation.speechText'))
        .max(DH_LIMITS.text.max, msg('validation.speechText')),
    ),
  /** A ready image clone of the caller's. */
  avatar_id: id,
  /** A ready voice clone of the caller's, or a public voice. */
  voice_id: id,
  speed,
  volume,
  subtitles: z.boolean(msg('validation.invalid')),
  /** A `bgm` or `audio` resource of the caller's, mixed quietly under the speech. */
  music_id: id.optional(),
  /** A resource group (folder) of the caller's: where the video shows in "my creations". */
  folder_id: id,
  /**
   * A video template (./dh-templates.ts: frame, layout, background, music) of the platform's or
   * the caller's own; absent: the default (portrait 9:16). The video keeps the template's settings
   * as they are at submit (docs/domain.md §10 "Video templates").
   */
  template_id: id.optional(),
});
export type DhVideoBody = z.input<typeof dhVideoBody>;
export type DhVideoParams = z.output<typeof dhVideoBody>;

export const dhVideoListQuery = z.strictObject({
  status: optionalQuery(z.enum(DH_VIDEO_STATUSES, msg('validation.invalid'))),
  folder_id: optionalQuery(id),
  keyword: optionalQuery(text().max(50)),
  ...pageQuery,
});
export type DhVideoListQuery = z.input<typeof dhVideoListQuery>;
export type DhVideoListParams = z.output<typeof dhVideoListQuery>;

export const dhIdQuery = z.strictObject({ id });
export const dhIdBody = z.strictObject({ id });
export type DhIdBody = z.input<typeof dhIdBody>;
export const dhVideoRenameBody = z.strictObject({ id, name: videoName });
export type DhVideoRenameBody = z.input<typeof dhVideoRenameBody>;
export const dhVideoDeleteBody = z.strictObject({ ids });
export type DhVideoDeleteBody = z.input<typeof dhVideoDeleteBody>;

// ---- replies

const reason = {
  /** Why it failed, in the caller's language; null unless failed. */
  reason: z.string().nullable(),
};

export const imageCloneSchema = z.object({
  id: z.number(),
  owner_id: z.number(),
  /** The owner's username (admin's list shows whose it is). */
  owner_name: z.string(),
  name: z.string(),
  tier: z.enum(IMAGE_CLONE_TIERS),
  status: z.enum(CLONE_STATUSES),
  ...reason,
  /** 0–100 while training; the vendor's queue position while queued (null when unknown). */
  progress: z.number(),
  queue_position: z.number().nullable(),
  video_id: z.number(),
  consent_video_id: z.number(),
  /** Signed URLs once ready: the poster frame and the short loop. */
  cover: z.string().nullable(),
  preview_url: z.string().nullable(),
  /** True for the embedded provider's results: demonstration output, not a real clone. */
  demonstration: z.boolean(),
  /** Units charged (1) and given back (1 after a failure). */
  cost: z.number(),
  refunded: z.number(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type ImageClone = z.infer<typeof imageCloneSchema>;
export const imageClonePageSchema = z.object({
  list: z.array(imageCloneSchema),
  total: z.number(),
});
export type ImageClonePage = z.infer<typeof imageClonePageSchema>;

export const voiceCloneSchema = z.object({
  id: z.number(),
  /** Null for a public (platform) voice. */
  owner_id: z.number().nullable(),
  owner_name: z.string().nullable(),
  name: z.string(),
  gender: z.enum(VOICE_GENDERS),
  scope: z.enum(VOICE_SCOPES),
  status: z.enum(CLONE_STATUSES),
  ...reason,
  progress: z.number(),
  queue_position: z.number().nullable(),
  audio_id: z.number().nullable(),
  /** A signed URL of a short demo sentence in this voice once ready. */
  demo_url: z.string().nullable(),
  demonstration: z.boolean(),
  cost: z.number(),
  refunded: z.number(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type VoiceClone = z.infer<typeof voiceCloneSchema>;
export const voiceClonePageSchema = z.object({
  list: z.array(voiceCloneSchema),
  total: z.number(),
});
export type VoiceClonePage = z.infer<typeof voiceClonePageSchema>;

export const dhAddReplySchema = z.object({ id: z.number() });
export type DhAddReply = z.infer<typeof dhAddReplySchema>;
export const dhDeleteReplySchema = z.object({ count: z.number() });
export type DhDeleteReply = z.infer<typeof dhDeleteReplySchema>;

export const voicePreviewReplySchema = z.object({
  url: z.string(),
  /** Seconds. */
  duration: z.number(),
  demonstration: z.boolean(),
});
export type VoicePreviewReply = z.infer<typeof voicePreviewReplySchema>;

export const dhVideoEstimateSchema = z.object({
  /** Characters of the text (after trimming). */
  characters: z.number(),
  /** {@link estimateSpeechSeconds}: the seconds frozen at submit. */
  seconds: z.number(),
  /** `digital_man` seconds charged per second of video (a platform setting, default 1). */
  unit_cost: z.number(),
  /** Seconds of balance frozen at submit (seconds × unit cost). */
  cost: z.number(),
  /** The caller's `digital_man` seconds now. */
  balance: z.number(),
});
export type DhVideoEstimate = z.infer<typeof dhVideoEstimateSchema>;

export const dhVideoSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(DH_VIDEO_STATUSES),
  ...reason,
  /** 0–100 while creating; the position in the queue while queued (1 = next), else null. */
  progress: z.number(),
  queue_position: z.number().nullable(),
  avatar_id: z.number(),
  avatar_name: z.string(),
  voice_id: z.number(),
  voice_name: z.string(),
  folder_id: z.number(),
  /** The owner's username (the list's "client" column). */
  client: z.string(),
  /** Seconds: estimated at submit; the file's own once done. */
  estimated_seconds: z.number(),
  duration: z.number().nullable(),
  /** `digital_man` seconds frozen, settled (charged) and given back. */
  frozen: z.number(),
  settled: z.number(),
  refunded: z.number(),
  /** Signed URLs once done: poster, play (Range works), download (attachment). */
  cover: z.string().nullable(),
  url: z.string().nullable(),
  download_url: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  size: z.number().nullable(),
  demonstration: z.boolean(),
  /** The video this one was resubmitted from. */
  resubmitted_from: z.number().nullable(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type DhVideo = z.infer<typeof dhVideoSchema>;
export const dhVideoPageSchema = z.object({ list: z.array(dhVideoSchema), total: z.number() });
export type DhVideoPage = z.infer<typeof dhVideoPageSchema>;

export const dhVideoDetailSchema = dhVideoSchema.extend({
  /** The body it was added with (resubmit uses it; the form shows it again). */
  params: z.record(z.string(), z.unknown()),
  /** The renderer's or vendor's last words (technical detail); null unless failed. */
  reason_detail: z.string().nullable(),
});
export type DhVideoDetail = z.infer<typeof dhVideoDetailSchema>;
