import { z } from 'zod';
import { defineJob } from '../../platform/jobs/define-job';
import type { DhTable } from './billing';

/**
 * The digital human's job kinds (registered in server/app-jobs.ts): one job per clone or video,
 * data `{id}` (the row's id). A vendor callback (`POST /digital_human/vendor_callback`) finds the
 * row by `(provider, vendor_job_id)` in its table and enqueues that row's kind again: the job
 * resumes the recorded vendor job, collects the result and finishes the row once
 * (billing.ts `finishHeld`), however many callbacks and polls race.
 */
/** Runs of one row's job: transient failures are retried, then the row fails (refunded). */
export const DH_ATTEMPTS = 3;

const rowJob = (kind: string) =>
  defineJob(kind, z.strictObject({ id: z.number().int().positive() }), {
    attempts: DH_ATTEMPTS,
    backoffMs: 2_000,
  });

export const DH_JOB = {
  dh_image_clones: rowJob('dh-image-clone'),
  dh_voice_clones: rowJob('dh-voice-clone'),
  dh_videos: rowJob('dh-video'),
} satisfies Record<DhTable, unknown>;

export type DhJobData = z.infer<(typeof DH_JOB)['dh_videos']['data']>;
