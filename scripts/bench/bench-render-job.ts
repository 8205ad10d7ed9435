import { z } from 'zod';
import { defineJob } from '../../server/platform/jobs/define-job';

/** Bench section g's render stand-in (enqueued by resource-load.ts, run by resource-server.ts). */
export const benchRenderJob = defineJob(
  'bench-render',
  z.strictObject({ out: z.string(), seconds: z.number().positive() }),
);
