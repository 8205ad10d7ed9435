/**
 * The batch authorisation panel of the accounts page (/matrix-distribution/authorization,
 * docs/domain.md §19 "Batch authorisation"): the caller's links (the generic list machine) and the
 * panel's machine (make a link, revoke one with a confirmation, a link's QR code and its PNG:
 * src/machines/matrix-batch-links.ts). After a link is made or revoked the area reloads the list
 * and says so, as events between its actors; opening the panel shows the list afresh.
 */
import { createActor, fromPromise } from 'xstate';
import type { BatchLink } from '../../api/contract/matrix';
import * as batchApi from '../../api/matrix-batch-links';
import { matrixBatchLinksMachine } from '../../machines/matrix-batch-links';
import { defineArea, lazyActors } from './areas';
import { listActor, toast, whenChanged } from './factories';

export interface MatrixBatchLinkEndpoints {
  addLink: typeof batchApi.addBatchLink;
  getLinks: typeof batchApi.getBatchLinks;
  revokeLink: typeof batchApi.revokeBatchLink;
  /** A URL as a QR code: a PNG data URL. */
  drawQr: (url: string) => Promise<string>;
  /** Saves `href` (a data URL) as a file named `fileName`. */
  download: (href: string, fileName: string) => void;
}

export const BATCH_LINK_PAGE_SIZE = 10;
/** The QR code's size in pixels, and its quiet zone in modules. */
const QR_OPTIONS = { width: 320, margin: 2 };

function createBatchLinkActors(e: MatrixBatchLinkEndpoints) {
  return lazyActors(
    {
      links: () =>
        listActor<null, BatchLink>(
          'matrixBatchLinkList',
          ({ page, limit }, signal) => e.getLinks({ page, limit }, { signal }),
          null,
          BATCH_LINK_PAGE_SIZE,
        ),
      panel: () =>
        createActor(
          matrixBatchLinksMachine.provide({
            actors: {
              // The form and the dialog show a refusal themselves: no toast from the HTTP layer.
              addLink: fromPromise(({ input }) => e.addLink(input, { quiet: true })),
              revoke: fromPromise(({ input }) => e.revokeLink(input, { quiet: true })),
              drawQr: fromPromise(({ input }) => e.drawQr(input.url)),
            },
            actions: { download: (_, params) => e.download(params.href, params.fileName) },
          }),
        ),
    },
    (_actors, started) => {
      const reload = () => started('links')?.send({ type: 'RELOAD' });
      return {
        panel: (panel) => [
          // Opened again: the states (expired, used up) may have changed meanwhile.
          whenChanged(panel, (s) => s.hasTag('panel'), reload),
          whenChanged(
            panel,
            (s) => s.context.saved,
            () => {
              toast('success', 'matrix.batchMade');
              reload();
            },
          ),
          whenChanged(
            panel,
            (s) => s.context.revoked,
            () => {
              toast('success', 'matrix.batchRevoked');
              reload();
            },
          ),
        ],
      };
    },
  );
}

export type MatrixBatchLinkActors = ReturnType<typeof createBatchLinkActors>;

/** Saves a data URL through a temporary link with a `download` name. */
function downloadDataUrl(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export const matrixBatchLinksArea = defineArea<MatrixBatchLinkEndpoints, MatrixBatchLinkActors>({
  key: 'matrixBatchLinks',
  live: () => ({
    addLink: batchApi.addBatchLink,
    getLinks: batchApi.getBatchLinks,
    revokeLink: batchApi.revokeBatchLink,
    // The QR encoder loads with the first code drawn, not with the accounts page.
    drawQr: (url) => import('qrcode').then((qr) => qr.toDataURL(url, QR_OPTIONS)),
    download: downloadDataUrl,
  }),
  create: (endpoints) => createBatchLinkActors(endpoints),
});
