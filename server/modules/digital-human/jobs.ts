import type { DhTable } from './billing';

/**
 * The digital human's job kinds (registered in server/jobs/kinds.ts): one job per clone or video,
 * data `{id}` (the row's id). A vendor callback (`POST /digital_human/vendor_callback`) finds the
 * row by `(provider, vendor_job_id)` in its table and enqueues that row's kind again: the job
 * resumes the recorded vendor job, collects the result and finishes the row once
 * (billing.ts `finishHeld`), however many callbacks and polls race.
 */
export const DH_JOB: Record<DhTable, string> = {
  dh_image_clones: 'dh-image-clone',
  dh_voice_clones: 'dh-voice-clone',
  dh_videos: 'dh-video',
};

export interface DhJobData {
  id: number;
}

/** Runs of one row's job: transient failures are retried, then the row fails (refunded). */
export const DH_ATTEMPTS = 3;
export const DH_BACKOFF_MS = 2_000;
