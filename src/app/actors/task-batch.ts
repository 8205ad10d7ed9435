/**
 * The mixed-cut form's batch from a CSV file (docs/domain.md §9 "Presets, batches and
 * previews"): one task-batch actor with the real endpoints. The settings every row shares are
 * the form's as it is (a preset applied fills the form first); the row's name replaces the form's,
 * so only the rest must be complete (refused before any call with the area's own message). The
 * file is read here and sent whole; the server checks it. Once a batch is added the mixed-cut list
 * reloads and the balances shown too.
 */
import { createActor, fromPromise } from 'xstate';
import { BATCH_LIMITS, type VideoTaskBatchBody } from '../../api/contract/video-task-batch';
import { HIDDEN_NAME_CHARS } from '../../api/contract/text';
import { newIdempotencyKey } from '../../api/money';
import * as batchApi from '../../api/video-task-batch';
import { taskBatchMachine } from '../../machines/task-batch';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea } from './balance-news';
import { whenChanged } from './factories';
import { checkMixedDraft, videoTaskFormsArea } from './video-task-forms';
import { videoTasksArea } from './video-tasks';

export interface TaskBatchEndpoints {
  estimateVideoTaskBatch: typeof batchApi.estimateVideoTaskBatch;
  addVideoTaskBatch: typeof batchApi.addVideoTaskBatch;
  newIdempotencyKey: () => string;
}

/** A refusal before any call (its message id, as a reply's). */
class Refusal extends Error {
  constructor(readonly msg: string) {
    super(msg);
  }
}

/** The batch's name (the ledger's memo): the file's name without its extension, as a name may be. */
export function batchNameOf(fileName: string): string {
  const name = fileName
    .replace(/\.[^.]*$/, '')
    .replace(new RegExp(HIDDEN_NAME_CHARS.source, 'gu'), '')
    .trim();
  return [...(name || 'CSV')].slice(0, 50).join('').trim();
}

export const taskBatchArea = defineArea({
  key: 'taskBatch',
  live: (): TaskBatchEndpoints => ({
    estimateVideoTaskBatch: batchApi.estimateVideoTaskBatch,
    addVideoTaskBatch: batchApi.addVideoTaskBatch,
    newIdempotencyKey,
  }),
  create: (e: TaskBatchEndpoints, areas) => {
    const form = () => areas.get(videoTaskFormsArea).mixed;
    return lazyActors(
      {
        mixed: () =>
          createActor(
            taskBatchMachine.provide({
              actors: {
                check: fromPromise(async ({ input, signal }) => {
                  // The form's settings as priced (the name aside: each row has its own).
                  const base = checkMixedDraft(form().getSnapshot().context.draft).estimate;
                  if (!base) throw new Refusal('taskBatch.incomplete');
                  if (input.file.size > BATCH_LIMITS.bytes) {
                    throw new Refusal('validation.batchFile');
                  }
                  const request: VideoTaskBatchBody = {
                    name: batchNameOf(input.file.name),
                    base,
                    csv: await input.file.text(),
                  };
                  const estimate = await e.estimateVideoTaskBatch(request, { signal });
                  return { estimate, request };
                }),
                add: fromPromise(({ input }) => e.addVideoTaskBatch(input.request, input.key)),
              },
            }),
            { input: { newKey: e.newIdempotencyKey } },
          ),
      },
      () => ({
        mixed: (batch) => [
          // Tasks were made: the list shows them, the balances their hold.
          whenChanged(
            batch,
            (s) => s.context.completed,
            () => {
              areas.get(videoTasksArea).list('mixed').send({ type: 'RELOAD' });
              areas.get(balanceNewsArea).moved();
            },
          ),
        ],
      }),
    );
  },
});
