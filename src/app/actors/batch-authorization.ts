/**
 * The public page of a batch authorisation link (/batchAuthorization?token=…, no login;
 * docs/domain.md §19 "Batch authorisation"): its machine (src/machines/batch-authorization.ts)
 * with the public calls provided and the browser's navigation to the platform.
 */
import { createActor, fromPromise } from 'xstate';
import * as batchApi from '../../api/matrix-batch-links';
import { batchAuthorizationMachine } from '../../machines/batch-authorization';
import { defineArea, lazyActors } from './areas';

export interface BatchAuthorizationEndpoints {
  getInfo: typeof batchApi.getBatchLinkInfo;
  getAuthUrl: typeof batchApi.getBatchAuthUrl;
  /** Sends the browser to another site (the platform's authorisation page). */
  navigate: (url: string) => void;
}

function createBatchAuthorizationActors(e: BatchAuthorizationEndpoints) {
  return lazyActors({
    page: () =>
      createActor(
        batchAuthorizationMachine.provide({
          actors: {
            // The page shows a refusal itself: no toast from the HTTP layer as well.
            info: fromPromise(({ input }) => e.getInfo(input, { quiet: true })),
            authUrl: fromPromise(({ input }) => e.getAuthUrl(input, { quiet: true })),
          },
          actions: { navigate: (_, params) => e.navigate(params.url) },
        }),
      ),
  });
}

export type BatchAuthorizationActors = ReturnType<typeof createBatchAuthorizationActors>;

export const batchAuthorizationArea = defineArea<
  BatchAuthorizationEndpoints,
  BatchAuthorizationActors
>({
  key: 'batchAuthorization',
  live: () => ({
    getInfo: batchApi.getBatchLinkInfo,
    getAuthUrl: batchApi.getBatchAuthUrl,
    navigate: (url) => window.location.assign(url),
  }),
  create: (endpoints) => createBatchAuthorizationActors(endpoints),
});
