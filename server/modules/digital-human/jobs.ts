import { imageCloneJob, voiceCloneJob } from './clone-jobs';
import { dhVideoJob } from './video-job';
import { sweepDigitalHumanJob } from './video-sweep';

/**
 * The digital human's jobs: training a clone, making a video (one job per row, ./job-kinds.ts),
 * and the sweep of lost and stalled rows.
 */
export const digitalHumanJobs = [imageCloneJob, voiceCloneJob, dhVideoJob, sweepDigitalHumanJob];
