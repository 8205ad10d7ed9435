import type { AppContext } from '../context';
import { sweepResourceFiles } from '../modules/resources/sweep-files';
import type { JobKind } from './queue';

/** How often the files of deleted, unreferenced resources are removed. */
export const SWEEP_RESOURCE_FILES_MS = 10 * 60_000;

/** A recurring job: removes the files of deleted resources no task refers to any more. */
export function sweepResourceFilesJob(
  ctx: AppContext,
  everyMs = SWEEP_RESOURCE_FILES_MS,
): JobKind<unknown> {
  return {
    kind: 'sweep-resource-files',
    everyMs,
    handler: async () => {
      const removed = await sweepResourceFiles(ctx);
      if (removed > 0) ctx.log.info({ removed }, 'files of deleted resources removed');
    },
  };
}
