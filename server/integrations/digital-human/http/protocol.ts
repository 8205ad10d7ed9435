import { z } from 'zod';

/**
 * The digital-human vendor protocol (docs/digital-human-vendor.md): the bodies the vendor sends
 * us, checked with zod at the edge. Anything else the vendor adds is ignored.
 */

export const JOB_TYPES = ['image_clone', 'voice_clone', 'speech', 'video'] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** A retried submit with the same key answers the job the first one created. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Callbacks: `<unix seconds>` and `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
export const TIMESTAMP_HEADER = 'x-dh-timestamp';
export const SIGNATURE_HEADER = 'x-dh-signature';

export const submitReplySchema = z.object({ job_id: z.string().min(1).max(200) });

const url = z.url({ protocol: /^https?$/ });
const positive = z.number().positive().finite();

export const vendorErrorSchema = z.object({
  code: z.string().max(200).optional(),
  message: z.string().max(2000).optional(),
  /** False: trying again later may work (the vendor's own outage). Default true. */
  permanent: z.boolean().optional(),
});

export const jobStatusSchema = z.object({
  job_id: z.string().min(1).max(200),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** Jobs ahead of this one (0: being worked on); null or absent when unknown. */
  queue_position: z.number().int().min(0).nullish(),
  /** 0–1. */
  progress: z.number().min(0).max(1).nullish(),
  error: vendorErrorSchema.nullish(),
  result: z.record(z.string(), z.unknown()).nullish(),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** The `result` of a finished job, per type. */
export const resultSchemas = {
  image_clone: z.object({
    avatar_id: z.string().min(1).max(200),
    poster_url: url,
    loop_url: url,
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
  voice_clone: z.object({ voice_id: z.string().min(1).max(200) }),
  speech: z.object({ audio_url: url, duration: positive }),
  video: z.object({
    video_url: url,
    poster_url: url.optional(),
    duration: positive,
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
} satisfies Record<JobType, z.ZodType>;
export type JobResult<T extends JobType> = z.infer<(typeof resultSchemas)[T]>;

/** The voice profile the http provider keeps for a voice (a clone's or a configured public one). */
export const httpVoiceProfileSchema = z.object({ voice_id: z.string().min(1).max(200) });
/** The avatar handle (`vendorRef`) of an image clone made by the vendor. */
export const httpAvatarRefSchema = z.object({ avatar_id: z.string().min(1).max(200) });
